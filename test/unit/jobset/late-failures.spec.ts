import { describe, expect, it } from 'vitest';
import { decisionSentence } from '../../../shared/jobset/explain.ts';
import { knownJobSetObservation, type JobSetLogObservation } from '../../../shared/jobset/decider.ts';
import type { JobSetDecisionEvent, JobSetObservation } from '../../../shared/jobset/index.ts';
import { at, jobFailed, jobObserved, jobSetObserved } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets: two failures of one attempt that the cluster's JobSet controller read in
// one pass reach the log on either side of the JobSet's observation, so the fold restarts on the
// later failure while the earlier one (on the cluster's clock) is still on its way. Counterexamples
// of test/property/jobset/corpus-orders.property.spec.ts, shrunk
// (failure-policy__earliest-failed-job-is-reported-for-matching-rule,
// failure-policy__no-matching-rule-restarts-naming-earliest-failure).

const rule = (name: string, action: string, reason: string) => ({ name, action, onJobFailureReasons: [reason], targetReplicatedJobs: [] });
// The JobSet as observed at `seconds` (reconciled then, as `given` reconciles each observation at its time).
const jobSet = (rules: readonly object[], more: Record<string, unknown> = {}, seconds = 4) =>
  jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 3 }], failurePolicy: { maxRestarts: 3, rules }, ...more }, { seconds });
const restartOnBackoff = rule('restartOnBackoff', 'RestartJobSet', 'BackoffLimitExceeded');
const deadline = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };

const restarting = (reason: string, job: string) => ({
  type: 'RestartingJobSet',
  status: 'True',
  reason,
  message: `applying RestartJobSet failure policy action (first failed job: js-${job})`,
});

describe('a failure that happened before the restart, arriving after it', () => {
  it('given the earlier failure arrives after the restart on the later one, when settled, then the restart names the earliest failed Job, as in order', () => {
    const spec = jobSet([restartOnBackoff]);
    const late = given(jobFailed('b', 0, { seconds: 4 }), spec, jobFailed('b', 2, { seconds: 2 })).whenSettled({ now: at(5) });
    const inOrder = given(jobSet([restartOnBackoff], {}, 0), jobFailed('b', 2, { seconds: 2 }), jobFailed('b', 0, { seconds: 4 })).whenSettled({ now: at(5) });

    expect(conditionsOf(late.status)).toEqual([restarting('FailurePolicy_restartOnBackoff', 'b-2')]);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.state.restarts).toBe(1);
    expect(late.state.restartsCountTowardsMax).toBe(1);
    // One correction entry, then the restart the cluster made, to the counters already held.
    const restarted = late.log.findIndex((e) => e.type === 'JobSetRestarted') + 1;
    const corrected = late.log.findIndex((e) => e.type === 'JobSetOutcomeCorrected');
    const [correction, renamed] = [late.log[corrected], late.log[corrected + 1]] as JobSetDecisionEvent[];
    expect(late.log.filter((e) => e.type === 'JobSetOutcomeCorrected')).toHaveLength(1);
    expect(correction).toMatchObject({
      corrects: restarted, restarts: 1, restartsCountTowardsMax: 1, retractedMetAt: at(4), reason: 'FailurePolicy_restartOnBackoff',
      retracted: [expect.objectContaining({ type: 'RestartingJobSet', message: expect.stringContaining('js-b-0') })], evidence: { metAt: at(2) },
    });
    expect(renamed).toMatchObject({ type: 'JobSetRestarted', restarts: 1, restartsCountTowardsMax: 1 });
    expect(renamed).not.toHaveProperty('corrects');
    expect(decisionSentence(late.state, renamed!)).toContain(`child Job js-b-2 failing with BackoffLimitExceeded`);
    expect(decisionSentence(late.state, correction!)).toContain(`took back RestartingJobSet (FailurePolicy_restartOnBackoff) decided at #${restarted}: failures the cluster read with the one it was decided on arrived after it`);
  });

  it('given the earlier failure matches a rule the later one does not, when it arrives, then the restart carries that rule', () => {
    const spec = jobSet([rule('restartOnDeadline', 'RestartJobSet', 'DeadlineExceeded')]);
    const late = given(jobFailed('b', 0, { seconds: 4 }), spec, jobFailed('a', 0, { seconds: 3, ...deadline })).whenSettled({ now: at(5) });
    expect(conditionsOf(late.status)).toEqual([restarting('FailurePolicy_restartOnDeadline', 'a-0')]);
  });

  it('given the failure happened after the restart on the cluster\'s clock, when it arrives, then the restart stands', () => {
    const spec = jobSet([rule('restartOnDeadline', 'RestartJobSet', 'DeadlineExceeded')], {}, 0);
    const late = given(spec, jobFailed('b', 0, { seconds: 4 }), jobFailed('a', 0, { seconds: 6, ...deadline })).whenSettled({ now: at(6) });
    expect(conditionsOf(late.status)).toEqual([restarting('DefaultFailurePolicy', 'b-0')]);
  });

  it('given the late failure matches a FailJobSet rule ranked first, when it arrives, then the restart is corrected to the failure, as in order', () => {
    // failure-policy__first-matching-rule-wins-over-earlier-failure, shrunk: the cluster read both
    // failures in one pass and failed the JobSet; it never restarted it.
    const spec = jobSet([rule('failOnDeadline', 'FailJobSet', 'DeadlineExceeded'), restartOnBackoff]);
    const late = given(jobFailed('a', 0, { seconds: 1 }), spec, jobFailed('b', 1, { seconds: 3, ...deadline })).whenSettled({ now: at(5) });
    // Read together, as the cluster's controller did.
    const inOrder = given(jobFailed('a', 0, { seconds: 1 }), jobFailed('b', 1, { seconds: 3, ...deadline }), spec).whenSettled({ now: at(5) });
    expect(inOrder.state.terminalState).toBe('Failed');
    expect(late.state.terminalState).toBe('Failed');
    expect(late.state.restarts).toBe(0);
    expect(late.state.restartsCountTowardsMax).toBe(0);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
    const restarted = late.log.findIndex((e) => e.type === 'JobSetRestarted') + 1;
    const failed = late.log.findIndex((e) => e.type === 'JobSetFailed');
    expect(late.log.filter((e) => e.type === 'JobSetFailed')).toEqual([expect.objectContaining({ rule: expect.objectContaining({ name: 'failOnDeadline' }) })]);
    expect(late.log[failed - 1]).toMatchObject({ type: 'JobSetOutcomeCorrected', corrects: restarted, restarts: 0, restartsCountTowardsMax: 0, reason: 'FailJobSetFailurePolicyAction' });
  });

  it('given the cluster reported a Job of the next attempt, when the FailJobSet failure arrives, then the restart stands (the cluster made it)', () => {
    const spec = jobSet([rule('failOnDeadline', 'FailJobSet', 'DeadlineExceeded'), restartOnBackoff]);
    const nextAttempt = jobObserved('a', 0, { seconds: 4, attempt: 1, active: 1 });
    const late = given(jobFailed('a', 0, { seconds: 1 }), spec, nextAttempt, jobFailed('b', 1, { seconds: 3, ...deadline })).whenSettled({ now: at(5) });
    expect(late.state.terminalState).toBe('');
    expect(late.state.restarts).toBe(1);
    expect(late.log.some((e) => e.type === 'JobSetFailed')).toBe(false);
  });

  it('given a JobSet jobfold runs, when the earlier failure arrives after its restart, then its restart stands as jobfold made it', () => {
    const spec = jobSet([restartOnBackoff], { managedBy: 'jobfold.io/jobset-controller' });
    const late = given(jobFailed('b', 0, { seconds: 4 }), spec, jobFailed('b', 2, { seconds: 2 })).whenSettled({ now: at(5) });
    expect(conditionsOf(late.status)).toEqual([restarting('FailurePolicy_restartOnBackoff', 'b-0')]);
    expect(late.log.some((e) => e.type === 'JobSetOutcomeCorrected')).toBe(false);
    expect(late.log.filter((e) => e.type === 'JobSetRestarted')).toHaveLength(1);
  });

  it('given the writer judges the late failure, when it is evidence for the restart, then it is logged, not dropped as an earlier attempt\'s snapshot', () => {
    const log = (o: JobSetObservation, eventId: string): JobSetLogObservation => ({ ...o, eventId }) as JobSetLogObservation;
    const restarted = given(jobFailed('b', 0, { seconds: 4 }), jobSet([restartOnBackoff])).whenSettled({ now: at(4) }).state;
    const late = log(jobFailed('b', 2, { seconds: 2 }), 'b-2-failed');
    expect(knownJobSetObservation(restarted, late)).toBeUndefined();
    const after = given(jobFailed('b', 0, { seconds: 4 }), jobSet([restartOnBackoff]), late).whenSettled({ now: at(5) }).state;
    expect(knownJobSetObservation(after, late)).toBe('stale');
    expect(knownJobSetObservation(restarted, log(jobFailed('b', 2, { seconds: 6 }), 'b-2-later'))).toBe('stale');
  });
});
