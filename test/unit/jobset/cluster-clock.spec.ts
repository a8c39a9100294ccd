import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { decisionSentence } from '../../../shared/jobset/explain.ts';
import { recordedJobSetOutcome } from '../../../shared/whatif/outcome.ts';
import { at, jobFailed, jobReady, jobSetObserved, jobSucceeded } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets: evidence that the cluster's controller acted on one at a time can reach
// the log together, and a reconcile then sees at once what upstream saw in turns. The child
// Jobs' own condition times are the cluster's clock: they tell which came first. Counterexamples
// of test/property/jobset/corpus-orders.property.spec.ts, shrunk.

const completed = { type: 'Completed', status: 'True', reason: 'AllJobsCompleted', message: 'jobset completed successfully' };

describe('a success and a failure both seen before the reconcile', () => {
  // success-policy__completed-jobset-ignores-later-failures: b-0 completes at :05, a-0 fails at
  // :10; the JobSet observation arrives after both.
  const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], successPolicy: { operator: 'Any' } }, { seconds: 0 });
  const success = jobSucceeded('b', 0, { seconds: 5 });
  const failure = jobFailed('a', 0, { seconds: 10 });

  it('given the success policy was met before the first failure, when reconciled, then the JobSet is Completed as in order', () => {
    const late = given(success, failure, spec).whenSettled({ now: at(10) });
    const inOrder = given(spec, success, failure).whenSettled({ now: at(10) });

    expect(late.state.terminalState).toBe('Completed');
    expect(conditionsOf(late.status)).toEqual([completed]);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
  });

  it('given the failure came first, when reconciled, then the failure policy decides', () => {
    const { state } = given(jobSucceeded('b', 0, { seconds: 10 }), jobFailed('a', 0, { seconds: 5 }), spec).whenSettled({ now: at(10) });
    expect(state.terminalState).toBe('Failed');
  });

  it('given the success and the failure at the same instant, when reconciled, then the failure wins as in one upstream pass', () => {
    const { state } = given(jobSucceeded('b', 0, { seconds: 5 }), jobFailed('a', 0, { seconds: 5 }), spec).whenSettled({ now: at(10) });
    expect(state.terminalState).toBe('Failed');
  });

  it('given All needs two successes and only one came before the failure, when reconciled, then the failure policy decides', () => {
    const all = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }] });
    const { state } = given(jobSucceeded('b', 0, { seconds: 5 }), jobFailed('a', 0, { seconds: 10 }), jobSucceeded('b', 1, { seconds: 15 }), all)
      .whenSettled({ now: at(15) });
    expect(state.terminalState).toBe('Failed');
  });
});

describe('a success that came before the failure, arriving after the JobSet was failed', () => {
  // success-policy__completed-jobset-ignores-later-failures: b-0 completes at :05, a-0 fails at
  // :10; the failure and the JobSet reach the log first and the fold fails the JobSet.
  const spec = (more: Record<string, unknown> = {}) =>
    jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], successPolicy: { operator: 'Any' }, ...more }, { seconds: 10 });

  it('given the success policy was met before the failure on the cluster\'s clock, when the success arrives, then the failure is corrected to Completed, as in order', () => {
    const late = given(jobFailed('a', 0, { seconds: 10 }), spec(), jobSucceeded('b', 0, { seconds: 5 })).whenSettled({ now: at(10) });
    const inOrder = given(spec(), jobSucceeded('b', 0, { seconds: 5 }), jobFailed('a', 0, { seconds: 10 })).whenSettled({ now: at(10) });

    expect(late.state.terminalState).toBe('Completed');
    expect(conditionsOf(late.status)).toEqual([completed]);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
    const failedAt = late.log.findIndex((e) => e.type === 'JobSetFailed') + 1;
    const correction = late.events.find((e) => e.type === 'JobSetOutcomeCorrected');
    expect(correction).toMatchObject({ corrects: failedAt, retracted: [expect.objectContaining({ type: 'Failed' })], retractedMetAt: at(10), evidence: { metAt: at(5) } });
    expect(late.events[late.events.indexOf(correction!) + 1]?.type).toBe('JobSetCompleted');
    expect(decisionSentence(late.state, correction!)).toContain(`took back Failed (FailedJobs) decided at #${failedAt}: successes that came first on the cluster's clock arrived after it`);
    expect(late.commands).toEqual([]);
    const recorded = recordedJobSetOutcome(late.log.map((event, i) => ({ seq: i + 1, event })));
    expect(recorded.outcome).toBe('Succeeded');
  });

  it('given the success came at the instant of the failure or after, when it arrives, then the JobSet stays Failed', () => {
    for (const seconds of [10, 12]) {
      const { state } = given(jobFailed('a', 0, { seconds: 10 }), spec(), jobSucceeded('b', 0, { seconds })).whenSettled({ now: at(12) });
      expect(state.terminalState).toBe('Failed');
    }
  });

  it('given a JobSet jobfold runs, when the earlier success arrives after it failed the JobSet, then it stays Failed as jobfold decided', () => {
    const managed = spec({ managedBy: 'jobfold.io/jobset-controller' });
    const { state } = given(jobFailed('a', 0, { seconds: 10 }), managed, jobSucceeded('b', 0, { seconds: 5 })).whenSettled({ now: at(10) });
    expect(state.terminalState).toBe('Failed');
  });
});

describe('the deletion mark seen before the evidence of what the JobSet did earlier', () => {
  // ttl__jobset-being-deleted-is-not-deleted-again: the Job completes at :10, the JobSet is
  // marked for deletion at :12; the mark arrives first.
  const spec = { replicatedJobs: [{ name: 'a' }], ttlSecondsAfterFinished: 10 };
  const marked: JobSetObservation = (() => {
    const observed = jobSetObserved(spec, { seconds: 12 });
    if (observed.type !== 'JobSetObserved') throw new Error('a JobSet observation');
    return { ...observed, jobSet: { ...observed.jobSet, metadata: { ...observed.jobSet.metadata, deletionTimestamp: at(12) } } };
  })();

  it('given the Job completed before the mark, when it arrives after it, then the JobSet is Completed and nothing is sent', () => {
    const late = given(marked, jobSucceeded('a', 0, { seconds: 10 })).whenSettled({ now: at(30) });
    const inOrder = given(jobSetObserved(spec), jobSucceeded('a', 0, { seconds: 10 }), marked).whenSettled({ now: at(30) });

    expect(late.state.terminalState).toBe('Completed');
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.commands).toEqual([]);
    expect(late.events.map((e) => e.type)).not.toContain('JobSetDeletionRequested');
  });

  it('given the Job failed before the mark, when it arrives after it, then the failure policy decides', () => {
    const { state } = given(marked, jobFailed('a', 0, { seconds: 10 })).whenSettled({ now: at(30) });
    expect(state.terminalState).toBe('Failed');
  });

  it('given the Job finished after the mark, when it arrives, then the JobSet being deleted is not reconciled', () => {
    const late = given(marked, jobSucceeded('a', 0, { seconds: 20 })).whenSettled({ now: at(30) });
    expect(late.state.terminalState).toBe('');
    expect(late.events).toEqual([]);
    expect(late.commands).toEqual([]);
  });

  it('given a running Job, when the mark arrives first, then no Job is created or deleted', () => {
    const late = given(marked, jobReady('a', 0, { seconds: 5 })).whenSettled({ now: at(30) });
    expect(late.events).toEqual([]);
    expect(late.commands).toEqual([]);
  });
});
