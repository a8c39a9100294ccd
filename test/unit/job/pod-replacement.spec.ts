import { describe, expect, it } from 'vitest';
import { aJob, anIndexedJob, aPod, at, podObserved } from '../../support/builders.ts';
import { createdIndexes, given } from '../../support/job-spec.ts';

const terminating = (name: string, index?: number) =>
  podObserved(aPod({ name, index, deletionTimestamp: at(1) }), at(1));

describe('podReplacementPolicy', () => {
  describe('When it is unset (TerminatingOrFailed) and a pod is terminating', () => {
    it('replaces the pod at once and counts it as failed', () => {
      const outcome = given(aJob({ completions: 3, parallelism: 2 }), terminating('a'), podObserved(aPod({ name: 'b' }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ active: 2, terminating: 1, failed: 1 });
      expect(createdIndexes(outcome)).toHaveLength(1);
    });
  });

  describe('When it is Failed and a pod is terminating', () => {
    const job = aJob({ completions: 3, parallelism: 2, podReplacementPolicy: 'Failed' });

    it('keeps the slot blocked and does not count the pod as failed', () => {
      const outcome = given(job, terminating('a'), podObserved(aPod({ name: 'b' }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ active: 1, terminating: 1, failed: 0 });
      expect(createdIndexes(outcome)).toEqual([]);
    });

    it('replaces and counts the pod once its phase is Failed', () => {
      const outcome = given(
        job,
        terminating('a'),
        podObserved(aPod({ name: 'b' }), at(1)),
        podObserved(aPod({ name: 'a', phase: 'Failed', deletionTimestamp: at(1) }), at(2)),
      )
        .when({ now: at(2) })
        .thenStatus({ terminating: 0, failed: 1, active: 2 });
      expect(createdIndexes(outcome)).toHaveLength(1);
    });
  });

  describe('When a pod failure policy is set', () => {
    it('behaves as Failed: a terminating pod is neither failed nor replaced', () => {
      const job = aJob({
        completions: 3,
        parallelism: 2,
        podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
      });
      const outcome = given(job, terminating('a'), podObserved(aPod({ name: 'b' }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ active: 1, terminating: 1, failed: 0 });
      expect(createdIndexes(outcome)).toEqual([]);
    });
  });

  describe('When an Indexed Job with policy Failed has a terminating pod', () => {
    it('does not recreate the index the terminating pod holds', () => {
      const job = anIndexedJob(3, { podReplacementPolicy: 'Failed' });
      const outcome = given(job, terminating('t', 0), podObserved(aPod({ index: 1 }), at(1)))
        .when({ now: at(1) });
      expect(createdIndexes(outcome)).toEqual([2]);
    });
  });
});
