import { describe, expect, it } from 'vitest';
import type { PodObserved } from '../../../shared/job/events.ts';
import type { PodFailurePolicyRule } from '../../../shared/k8s/job.ts';
import { aJob, aPod, at, podObserved, tick, type PodOptions } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// Upstream counts pods once per sync, on the informer's snapshot: a state a pod passed through
// between two syncs never counts. Observations sharing one observedAt are what one sync reads, so
// while the Job is failing a pod first seen running and then, in the same run, Failed under an
// Ignore rule is ignored, whichever order the two observations arrive in (the minimal
// counterexample the stamped-arrival property found). Across two syncs the first count stands.

const IGNORE_DISRUPTION: PodFailurePolicyRule = { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] };
const COUNT_ONE: PodFailurePolicyRule = { action: 'Count', onExitCodes: { operator: 'In', values: [1] } };
const job = aJob({
  completions: 4,
  parallelism: 1,
  backoffLimit: 3,
  activeDeadlineSeconds: 60,
  podReplacementPolicy: 'Failed',
  podFailurePolicy: { rules: [IGNORE_DISRUPTION, COUNT_ONE] },
});

const observed = (seq: number, when: string, options: PodOptions): PodObserved => ({
  ...podObserved(aPod({ name: 'late', ...options }), when),
  eventId: `late/1.${seq}`,
  sequence: { epoch: 1, seq },
});
const running = (when: string) => observed(1, when, { phase: 'Running' });
const disrupted = (when: string) =>
  observed(2, when, { phase: 'Failed', exitCode: 1, finishedAt: when, conditions: [{ type: 'DisruptionTarget' }] });
const succeeded = (when: string) => observed(2, when, { phase: 'Succeeded', finishedAt: when });

// Pod `first` runs; at 61 s the deadline has passed: FailureTarget, `first` deleted and counted.
const failing = [podObserved(aPod({ name: 'first' }), at(0)), tick(at(61))];

describe('Counting a pod as one sync reads it', () => {
  describe('given a Job failing past its deadline, when a new pod is seen running and then, in the same run, ends', () => {
    it('Failed with a DisruptionTarget (Ignore rule): not counted, as in the arrival order running → failed', () => {
      given(job, ...failing, running(at(62)), disrupted(at(62))).when().thenStatus({ failed: 1 });
    });

    it('the same, arriving failed → running (the late running observation is stale)', () => {
      given(job, ...failing, disrupted(at(62)), running(at(62))).when().thenStatus({ failed: 1 });
    });

    it('Succeeded: counted as succeeded, not failed', () => {
      given(job, ...failing, running(at(62)), succeeded(at(62))).when().thenStatus({ failed: 1, succeeded: 1 });
    });
  });

  describe('given a Job that replaces terminating pods (no Failed-only replacement), when a pod is seen terminating and then, in the same run, Succeeded', () => {
    const replacing = aJob({ completions: 4, parallelism: 1, backoffLimit: 3 });
    const terminating = observed(1, at(5), { deletionTimestamp: at(5) });
    const done = observed(2, at(5), { phase: 'Succeeded', deletionTimestamp: at(5), finishedAt: at(5) });
    const first = podObserved(aPod({ name: 'first' }), at(0));

    it('it counts as succeeded, not failed, and leaves no failure for the recreation backoff', () => {
      const outcome = given(replacing, first, terminating, done).when().thenStatus({ succeeded: 1, failed: 0 });
      expect(outcome.state.backoff.failureTimes).toEqual([]);
    });

    it('the same, arriving Succeeded → terminating', () => {
      given(replacing, first, done, terminating).when().thenStatus({ succeeded: 1, failed: 0 });
    });

    it('seen terminating at an earlier sync, it stays counted as failed', () => {
      given(replacing, first, terminating, { ...done, observedAt: at(6) }).when().thenStatus({ succeeded: 0, failed: 1 });
    });
  });

  describe('given an Indexed Job with backoffLimitPerIndex 0 that replaces terminating pods, when a pod is seen terminating and then, in the same run, without its finalizer still unfinished', () => {
    const perIndex = aJob({ completionMode: 'Indexed', completions: 4, parallelism: 1, backoffLimitPerIndex: 0 });
    const withFinalizer = observed(1, at(0), { index: 2, failureCount: 0, phase: 'Pending', deletionTimestamp: at(0) });
    const withoutFinalizer = observed(2, at(0), { index: 2, failureCount: 0, phase: 'Pending', deletionTimestamp: at(0), finalizer: false });

    // Only the controller removes the tracking finalizer, and from a pod being deleted that has
    // not finished only in a sync that counts it (isPodFailed), unless it deleted the pod itself
    // as excess (the finalizer goes first) or the Job met its success criteria: the removal is
    // the count, whether or not a sync saw the pod tracked (observe-pod.ts countStrippedLive).
    it('the pod and its index count as failed, as the sync that removed the finalizer counted them', () => {
      given(perIndex, withFinalizer, withoutFinalizer).when().thenStatus({ failed: 1, failedIndexes: '2' });
    });

    it('the same, arriving in the other order', () => {
      given(perIndex, withoutFinalizer, withFinalizer).when().thenStatus({ failed: 1, failedIndexes: '2' });
    });

    it('seen tracked at an earlier sync, it and its index stay failed', () => {
      given(perIndex, withFinalizer, { ...withoutFinalizer, observedAt: at(1) }).when().thenStatus({ failed: 1, failedIndexes: '2' });
    });
  });

  it('when the pod was counted at an earlier sync, a later Ignore-matching failure does not take the count back', () => {
    given(job, ...failing, running(at(62)), disrupted(at(63))).when().thenStatus({ failed: 2 });
  });

  it('a terminating pod held for its index (backoffLimitPerIndex) that then succeeds counts as succeeded only', () => {
    const perIndex = aJob({ completionMode: 'Indexed', completions: 2, parallelism: 1, backoffLimitPerIndex: 1 });
    const terminating = observed(1, at(1), { index: 0, failureCount: 0, deletionTimestamp: at(1) });
    const done = observed(2, at(2), { index: 0, failureCount: 0, phase: 'Succeeded', deletionTimestamp: at(1), finishedAt: at(2) });
    given(perIndex, terminating, done).when().thenStatus({ succeeded: 1, failed: 0, completedIndexes: '0', failedIndexes: '' });
  });

  it('a Failed pod counted in a run stays counted when the same run then shows it without its finalizer (terminal counts are final)', () => {
    const replacing = aJob({ completions: 4, parallelism: 1, backoffLimit: 3 });
    const failed = observed(1, at(5), { phase: 'Failed', exitCode: 1, finishedAt: at(5) });
    const released = observed(2, at(5), { phase: 'Failed', exitCode: 1, finishedAt: at(5), finalizer: false });
    given(replacing, failed, released).when().thenStatus({ failed: 1 });
  });

  it('an index failed by two pods stays failed when the run takes back one of them', () => {
    const perIndex = aJob({ completionMode: 'Indexed', completions: 1, parallelism: 1, backoffLimit: 0, backoffLimitPerIndex: 1 });
    const terminating = observed(1, at(0), { index: 0, failureCount: 4, phase: 'Pending', deletionTimestamp: at(0) });
    const other = podObserved(aPod({ name: 'other', index: 0, failureCount: 1, phase: 'Failed', exitCode: 1 }), at(0));
    const done = observed(2, at(0), { index: 0, failureCount: 4, phase: 'Succeeded', deletionTimestamp: at(0) });
    given(perIndex, terminating, other, done).when().thenStatus({ failedIndexes: '0', completedIndexes: '0' });
  });
});
