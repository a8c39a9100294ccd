import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
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
