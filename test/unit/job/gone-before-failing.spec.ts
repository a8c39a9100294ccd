import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// Upstream's failing sync counts as failed every pod its informer still lists that has not
// ended; a pod fully deleted before the criterion was met (its PodDeleted on the cluster's clock
// before the deadline) is not listed, and where only Failed pods are replaced its deletion alone
// does not count it (`isPodFailed`). So it stays uncounted, also when an older observation of it,
// Running with the tracking finalizer, arrives after the Job was found failing (issue 21, free
// generated history-46: the Job's observation arriving after the pod's deletion).

const job = aJob({ completions: 2, parallelism: 2, activeDeadlineSeconds: 60, podReplacementPolicy: 'Failed' });
const running = podObserved(aPod({ name: 'p', resourceVersion: '3' }), at(10));
const deleted = podDeleted('p', at(20));
const other = podObserved(aPod({ name: 'q', resourceVersion: '4' }), at(10));

describe('Given a Job replacing only Failed pods, one of its pods deleted before its deadline', () => {
  it('in the cluster\'s order the deadline sync does not count the deleted pod', () => {
    given(null, jobObserved(job, at(0)), running, other, deleted, tick(at(400)))
      .when()
      .thenStatus({ failed: 1, conditions: [expect.objectContaining({ type: 'FailureTarget', reason: 'DeadlineExceeded' })] });
  });

  it('when its Running observation arrives after the Job was found failing, it is still not counted failed', () => {
    given(null, deleted, other, jobObserved(job, at(0)), tick(at(400)), running)
      .when()
      .thenStatus({ failed: 1, conditions: [expect.objectContaining({ type: 'FailureTarget', reason: 'DeadlineExceeded' })] })
      .then(({ state }) => expect(state.pods.get('p')?.counted).toBe('none'));
  });

  it('a pod deleted after the deadline, its Running observation arriving last, still counts failed', () => {
    const deletedLate = podDeleted('p', at(70));
    given(null, deletedLate, other, jobObserved(job, at(0)), tick(at(400)), running)
      .when()
      .thenStatus({ failed: 2 });
  });
});
