import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, podDeleted, podObserved } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';

// Issue 21, convergence: a pod Running and deleted at 0:00, the Job failing at 0:01 on another pod's
// failure (its index failed), under `podReplacementPolicy: Failed` (a deletion alone counts no
// failure, upstream's isPodFailed). The cluster's failing sync never listed the deleted pod: it
// counts `failed` 1. A delivery that read the pod terminating before the failure counted it with
// every pod the failing sync still tracked (`failed` 2), and its deletion, arriving after, showed
// it gone before the failure: it is uncounted (observe-pod.ts uncountGoneBeforeFailing; the case
// of its deletion arriving first is gone-before-failing.spec.ts). Found by the generated cluster
// histories (generated-orders.property.spec.ts, seed-5/history-51, 2 of 10 deliveries apart).

const job = aJob({
  completionMode: 'Indexed',
  completions: 1,
  parallelism: 3,
  backoffLimitPerIndex: 1,
  maxFailedIndexes: 1,
  podReplacementPolicy: 'Failed',
  podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [1] } }] },
});
const terminating = { ...podObserved(aPod({ name: 'p1', index: 0, deletionTimestamp: at(0), failureCount: 1, resourceVersion: '2' }), at(0)), eventId: 'p1/2' };
const gone = podDeleted('p1', at(0));
const failed = { ...podObserved(aPod({ name: 'p5', index: 0, phase: 'Failed', exitCode: 1, finishedAt: at(0), failureCount: 5, resourceVersion: '3' }), at(1)), eventId: 'p5/3' };
const FAILED_INDEXES = ['FailureTarget=True:FailedIndexes', 'Failed=True:FailedIndexes'];

describe('a pod gone before the failure was met, its deletion arriving after the failing sync counted it', () => {
  it('given the cluster\'s order, when reconciled, then the failing sync does not count the pod gone before it', () => {
    const { status } = given(job, terminating, gone, failed).when();
    expect(conditionsOf(status)).toEqual(FAILED_INDEXES);
    expect(status).toMatchObject({ failed: 1, failedIndexes: '0' });
  });

  it('given the pod read terminating before the failure and its deletion last, when reconciled, then it is uncounted: failed 1', () => {
    const { status } = given(job, terminating, failed, gone).when();
    expect(conditionsOf(status)).toEqual(FAILED_INDEXES);
    expect(status).toMatchObject({ failed: 1, failedIndexes: '0' });
  });

  it('given the pod deleted after the failure, when reconciled, then the failing sync counted it: failed 2', () => {
    const { status } = given(job, terminating, failed, podDeleted('p1', at(30))).when();
    expect(status).toMatchObject({ failed: 2 });
  });
});
