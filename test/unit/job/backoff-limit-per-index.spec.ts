import { describe, expect, it } from 'vitest';
import { anIndexedJob, aPod, at, podObserved } from '../../support/builders.ts';
import { createdIndexes, given, newConditions } from '../../support/job-spec.ts';

const failed = (index: number, failureCount: number, when = at(1), extra = {}) =>
  podObserved(aPod({ name: `pod-${index}-${failureCount}`, index, phase: 'Failed', failureCount, ...extra }), when);
const running = (index: number, failureCount = 0, when = at(1)) =>
  podObserved(aPod({ name: `pod-${index}-${failureCount}`, index, failureCount }), when);

describe('backoffLimitPerIndex', () => {
  describe('When an index fails fewer times than its limit', () => {
    const job = anIndexedJob(2, { backoffLimitPerIndex: 1 });

    it('recreates the index and keeps the failed pod uncounted until the replacement exists', () => {
      const outcome = given(job, failed(0, 0), running(1))
        .when({ now: at(1) })
        .thenStatus({ failed: 0, failedIndexes: '', conditions: [] });
      expect(createdIndexes(outcome)).toEqual([0]);
    });

    it('counts the failure once the replacement shows up', () => {
      given(job, failed(0, 0), running(1), running(0, 1, at(2)))
        .when({ now: at(2) })
        .thenStatus({ failed: 1, failedIndexes: '', active: 2 });
    });

    // The sync that removed the held pod's finalizer counted it (upstream removes the finalizer
    // only once the pod is in uncountedTerminatedPods); the arrival-order property found the fold
    // counting it only when the earlier Failed observation was delivered again after the removal.
    it('counts the held pod once it is seen without its finalizer, as a replay of its Failed observation would', () => {
      const stripped = podObserved(aPod({ name: 'pod-0-0', index: 0, failureCount: 0, finalizer: false }), at(5));
      given(job, failed(0, 0), running(1), stripped)
        .when({ now: at(5) })
        .thenStatus({ failed: 1, failedIndexes: '' });
      given(job, failed(0, 0), running(1), stripped, failed(0, 0))
        .when({ now: at(5) })
        .thenStatus({ failed: 1, failedIndexes: '' });
    });

    it('counts a held pod seen being deleted, then without its finalizer, as failed (deleted pods count as failed unless only Failed pods are replaced)', () => {
      const deleting = podObserved(aPod({ name: 'pod-0-0', index: 0, failureCount: 0, deletionTimestamp: at(1) }), at(1));
      const stripped = podObserved(aPod({ name: 'pod-0-0', index: 0, failureCount: 0, deletionTimestamp: at(1), finalizer: false }), at(5));
      given(job, deleting, running(1), stripped).when({ now: at(5) }).thenStatus({ failed: 1 });
      given(job, stripped, running(1), deleting).when({ now: at(5) }).thenStatus({ failed: 1 });
    });

    it('does not count it when the removal is seen at the same time as the failure (one sync read both)', () => {
      const stripped = podObserved(aPod({ name: 'pod-0-0', index: 0, failureCount: 0, finalizer: false }), at(1));
      given(job, failed(0, 0), running(1), stripped).when({ now: at(1) }).thenStatus({ failed: 0 });
    });

    it('waits out the per-index backoff before recreating the index', () => {
      const outcome = given(job, failed(0, 0, at(5), { finishedAt: at(4) }), running(1, 0, at(5))).when({ now: at(5) });
      expect(createdIndexes(outcome)).toEqual([]);
      expect(outcome.wakeAt).toBe(at(14));
    });
  });

  describe('When an index reaches its limit', () => {
    const job = anIndexedJob(3, { backoffLimitPerIndex: 1 });

    it('marks the index failed, counts the pod and does not recreate it, while the Job goes on', () => {
      const outcome = given(job, failed(0, 1), running(1))
        .when({ now: at(1) })
        .thenStatus({ failed: 1, failedIndexes: '0', conditions: [] });
      expect(createdIndexes(outcome)).toEqual([2]);
    });

    it('fails the Job with FailedIndexes once every index succeeded or failed', () => {
      given(
        job,
        failed(0, 1),
        podObserved(aPod({ index: 1, phase: 'Succeeded' }), at(1)),
        podObserved(aPod({ index: 2, phase: 'Succeeded' }), at(1)),
      )
        .when({ now: at(1) })
        .thenStatus({
          failedIndexes: '0',
          completedIndexes: '1,2',
          conditions: [
            { type: 'FailureTarget', reason: 'FailedIndexes', message: 'Job has failed indexes' },
            { type: 'Failed', reason: 'FailedIndexes', message: 'Job has failed indexes' },
          ],
        });
    });
  });

  describe('When a failed pod is already accounted for', () => {
    // Upstream calculateFailedIndexes only looks at pods still carrying the tracking finalizer.
    it('does not fail its index when the pod shows up without the finalizer', () => {
      given(anIndexedJob(2, { backoffLimitPerIndex: 1 }), failed(0, 1, at(1), { finalizer: false }), running(1))
        .when({ now: at(1) })
        .thenStatus({ failedIndexes: '', failed: 0 });
    });
  });

  describe('When more indexes failed than maxFailedIndexes', () => {
    it('fails the Job with MaxFailedIndexesExceeded', () => {
      given(anIndexedJob(4, { backoffLimitPerIndex: 0, maxFailedIndexes: 1 }), failed(0, 0), failed(1, 0), running(2), running(3))
        .when({ now: at(1) })
        .then((o) => expect(newConditions(o)).toEqual(['FailureTarget=True:MaxFailedIndexesExceeded']))
        .thenStatus({ failedIndexes: '0,1', terminating: 2 });
    });

    it('keeps going while failed indexes do not exceed maxFailedIndexes', () => {
      given(anIndexedJob(4, { backoffLimitPerIndex: 0, maxFailedIndexes: 1 }), failed(0, 0), running(1), running(2), running(3))
        .when({ now: at(1) })
        .thenStatus({ failedIndexes: '0', conditions: [] });
    });
  });

  describe('When the global backoffLimit is set too', () => {
    it('still fails the Job once total failures exceed it', () => {
      given(anIndexedJob(3, { backoffLimitPerIndex: 1, backoffLimit: 1 }), failed(0, 1), failed(1, 1), running(2))
        .when({ now: at(1) })
        .then((o) => expect(newConditions(o)).toEqual(['FailureTarget=True:BackoffLimitExceeded']));
    });
  });
});
