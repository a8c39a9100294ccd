import { describe, expect, it } from 'vitest';
import type { PodObserved } from '../../../shared/job/events.ts';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { aJob, aPod, at, jobObserved, podObserved, type PodOptions } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';

// Issue 21, convergence: two failure criteria met at different instants, and the success policy
// met between them. Upstream's syncJob takes the first failure in its order (FailJob, backoff
// limit, deadline, failed indexes) that a sync finds met; its syncs run on each pod event, so the
// failure met first on the cluster's clock is the one a sync found alone. A delivery that reads
// both failures at once met the backoff limit (earlier in syncJob's order, later on the clock) and
// then took it back for the success of 0:30 (docs/ordering.md, "Competing criteria"), where the
// cluster's order wrote `FailedIndexes` in the 0:30 sync, before the success (a failure at the same
// instant: one sync checks failures first). Found by the generated cluster histories
// (generated-orders.property.spec.ts, seed-7/history-57, 6 of 10 deliveries apart).

/** An Indexed Job of one completion: one failure fails index 0 (backoffLimitPerIndex 1, the pods carry the count), two exceed backoffLimit 1. */
const job = aJob({
  completionMode: 'Indexed',
  completions: 1,
  parallelism: 2,
  backoffLimit: 1,
  backoffLimitPerIndex: 1,
  maxFailedIndexes: 1,
  podReplacementPolicy: 'Failed',
  successPolicy: { rules: [{ succeededCount: 1 }] },
});

const pod = (name: string, rv: number, seconds: number, options: PodOptions): PodObserved =>
  ({ ...podObserved(aPod({ name, index: 0, resourceVersion: String(rv), ...options }), at(seconds)), eventId: `${name}/${rv}` });

// p5 terminating from the start, failed at 1:06; p2 failed and p3 succeeded at 0:30 (index 0 both).
const p5Terminating = pod('p5', 2, 0, { phase: 'Pending', deletionTimestamp: at(0), failureCount: 5 });
const p2Failed = pod('p2', 4, 31, { phase: 'Failed', exitCode: 1, finishedAt: at(30), deletionTimestamp: at(31), failureCount: 2 });
const p3Succeeded = pod('p3', 5, 31, { phase: 'Succeeded', finishedAt: at(30), failureCount: 3 });
const p2FailedAgain = pod('p2', 6, 36, { phase: 'Failed', exitCode: 1, finishedAt: at(30), deletionTimestamp: at(36), failureCount: 2 });
const p5Failed = pod('p5', 7, 67, { phase: 'Failed', exitCode: 42, finishedAt: at(66), deletionTimestamp: at(67), failureCount: 5 });

const finished = (...events: JobEvent[]) => given(job, ...events).when().status;
const FAILED_INDEXES = ['FailureTarget=True:FailedIndexes', 'Failed=True:FailedIndexes'];

describe('failure criteria met at different instants: the one met first on the cluster\'s clock decides', () => {
  it('given the cluster\'s order, when reconciled, then the 0:30 sync fails index 0 and the Job on FailedIndexes', () => {
    const status = finished(p5Terminating, p2Failed, p3Succeeded, p2FailedAgain, p5Failed);
    expect(conditionsOf(status)).toEqual(FAILED_INDEXES);
    expect(status).toMatchObject({ failedIndexes: '0', completedIndexes: '0' });
  });

  it('given both failures read before the Job (backoff limit exceeded at 1:06, index 0 failed at 0:30), then the 0:30 success, when reconciled, then FailedIndexes, not the backoff limit nor the success', () => {
    const { status } = given(null, p2FailedAgain, p5Failed, jobObserved(job, at(0)), p2Failed, p3Succeeded, p5Terminating).when();
    expect(conditionsOf(status)).toEqual(FAILED_INDEXES);
  });

  it('given the success read first (SuccessCriteriaMet at 0:30), then the failures, the 0:30 one last, when reconciled, then the success is corrected to FailedIndexes, met in the same second', () => {
    const { status, decisions } = given(job, p5Terminating, p3Succeeded, p2FailedAgain, p5Failed, p2Failed).when();
    expect(decisions[0]).toMatchObject({ type: 'JobOutcomeCorrected', reason: 'FailedIndexes', retracted: [{ type: 'SuccessCriteriaMet', reason: 'SuccessPolicy' }, { type: 'Complete' }] });
    expect(conditionsOf(status)).toEqual(FAILED_INDEXES);
  });

  it('given only the second failure and the success, when reconciled, then the success met first (0:30) stands against the backoff limit (1:06)', () => {
    const status = finished(p5Terminating, p3Succeeded, p5Failed);
    expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']);
  });
});

// The same rule when the failure met first arrives after the Job was failed on another: a
// `FailJob` failure of 0:05 read after a backoff limit exceeded at 0:10 (backoffLimit 0). The
// cluster's 0:05 sync met both and wrote the policy's failure (first in syncJob's order).
const failJob = aJob({
  completions: 2,
  parallelism: 2,
  backoffLimit: 0,
  podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] },
});
const fatal = pod('a', 2, 5, { index: undefined, phase: 'Failed', exitCode: 42, finishedAt: at(5) });
const plain = pod('b', 3, 10, { index: undefined, phase: 'Failed', exitCode: 1, finishedAt: at(10) });

describe('a failure met first, arriving after the Job failed on a later one', () => {
  it('given the cluster\'s order, when reconciled, then the FailJob failure of 0:05 fails the Job', () => {
    const { status } = given(failJob, fatal, plain).when();
    expect(conditionsOf(status)).toEqual(['FailureTarget=True:PodFailurePolicy_0', 'Failed=True:PodFailurePolicy_0']);
  });

  it('given the 0:10 failure first (backoff limit exceeded), when the 0:05 FailJob failure arrives, then the outcome is corrected to the policy\'s failure: the 0:05 failure exceeded the backoff limit too, and syncJob checks the policy first', () => {
    const { status, decisions } = given(failJob, plain, fatal).when();
    expect(decisions[0]).toMatchObject({
      type: 'JobOutcomeCorrected',
      retracted: [{ type: 'FailureTarget', reason: 'BackoffLimitExceeded' }, { type: 'Failed', reason: 'BackoffLimitExceeded' }],
      retractedMetAt: at(5),
      reason: 'PodFailurePolicy_0',
      evidence: { metAt: at(5) },
    });
    expect(conditionsOf(status)).toEqual(['FailureTarget=True:PodFailurePolicy_0', 'Failed=True:PodFailurePolicy_0']);
  });
});
