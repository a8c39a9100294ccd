import { describe, expect, it } from 'vitest';
import { aJob, anIndexedJob, aPod, at, podDeleted, podObserved } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

describe('Status counts', () => {
  describe('When pods run, wait and get ready', () => {
    it('counts Pending and Running pods as active and ready ones as ready', () => {
      given(
        aJob({ completions: 10, parallelism: 3 }),
        podObserved(aPod({ name: 'a', ready: true }), at(1)),
        podObserved(aPod({ name: 'b' }), at(1)),
        podObserved(aPod({ name: 'c', phase: 'Pending', nodeName: null }), at(1)),
      )
        .when({ now: at(1) })
        .thenStatus({ active: 3, ready: 1, terminating: 0, succeeded: 0, failed: 0 });
    });
  });

  describe('When a pod is being deleted', () => {
    it('counts it as terminating, not active, and with the default replacement policy as failed', () => {
      given(
        aJob({ completions: 10, parallelism: 1 }),
        podObserved(aPod({ name: 'a', deletionTimestamp: at(1) }), at(1)),
      )
        .when({ now: at(1) })
        .thenStatus({ active: 1, terminating: 1, failed: 1 });
    });
  });

  describe('When pods finish', () => {
    it('counts succeeded and failed pods that carry the tracking finalizer', () => {
      given(
        aJob({ completions: 10, parallelism: 2 }),
        podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)),
        podObserved(aPod({ name: 'b', phase: 'Failed' }), at(1)),
        podObserved(aPod({ name: 'c', phase: 'Failed' }), at(1)),
      )
        .when({ now: at(1) })
        .thenStatus({ succeeded: 1, failed: 2 });
    });

    it('does not count a finished pod whose finalizer is already gone', () => {
      given(
        aJob({ completions: 10, parallelism: 2 }),
        podObserved(aPod({ name: 'a', phase: 'Succeeded', finalizer: false }), at(1)),
        podObserved(aPod({ name: 'b', phase: 'Failed', finalizer: false }), at(1)),
      )
        .when({ now: at(1) })
        .thenStatus({ succeeded: 0, failed: 0 });
    });

    it('keeps the counts the cluster reported for an adopted Job', () => {
      const job = aJob({ completions: 10, parallelism: 1 }, { status: { succeeded: 4, failed: 2, startTime: at(0) } });
      given(job, podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ succeeded: 5, failed: 2, startTime: at(0) });
    });
  });

  describe('When pods of an Indexed Job finish', () => {
    it('writes completedIndexes as intervals, two neighbours as two numbers', () => {
      given(
        anIndexedJob(6, { parallelism: 1 }),
        ...[0, 1, 3, 4, 5].map((index) => podObserved(aPod({ index, phase: 'Succeeded' }), at(1))),
      )
        .when({ now: at(1) })
        .thenStatus({ succeeded: 5, completedIndexes: '0,1,3-5' });
    });

    it('reports failedIndexes as null without backoffLimitPerIndex', () => {
      given(anIndexedJob(2), podObserved(aPod({ index: 0, phase: 'Failed' }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ failed: 1, failedIndexes: null });
    });

    it('reports failedIndexes as an empty string with backoffLimitPerIndex and no failed index', () => {
      given(anIndexedJob(2, { backoffLimitPerIndex: 1 }), podObserved(aPod({ index: 0 }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ failedIndexes: '' });
    });

    it('reports an empty completedIndexes for a NonIndexed Job', () => {
      given(aJob({ completions: 2 }), podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ completedIndexes: '' });
    });
  });

  describe('When the pods a reconcile deleted are not observed gone yet', () => {
    it('reports them as terminating and lowers ready with them', () => {
      given(
        aJob({ completions: 5, parallelism: 1 }),
        podObserved(aPod({ name: 'a', ready: true }), at(1)),
        podObserved(aPod({ name: 'b', ready: '2026-01-01T00:00:00.500Z' }), at(1)),
      )
        .when({ now: at(1) })
        .then(({ status }) => {
          expect(status).toMatchObject({ active: 1, ready: 1, terminating: 1 });
        });
    });

    it('stops counting a deleted pod once it is gone', () => {
      given(
        aJob({ completions: 5, parallelism: 1 }),
        podObserved(aPod({ name: 'a' }), at(1)),
        podObserved(aPod({ name: 'b' }), at(1)),
        podDeleted('a', at(2)),
        podDeleted('b', at(2)),
      )
        .when({ now: at(2) })
        .thenStatus({ terminating: 0 });
    });
  });
});
