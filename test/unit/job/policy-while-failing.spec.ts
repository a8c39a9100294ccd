import { describe, expect, it } from 'vitest';
import { restoreSnapshot, takeSnapshot } from '../../../shared/job/snapshot.ts';
import type { PodFailurePolicyRule } from '../../../shared/k8s/job.ts';
import { aJob, aPod, at, podObserved, tick, type PodOptions } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// While a Job is failing, upstream counts every pod it still tracks as failed, and matches the
// pod failure policy on each of them first, a Running one included (`trackJobStatusAndRemove-
// Finalizers`: `matchPodFailurePolicy` for every pod it considers failed, `countFailed` false for
// Ignore). So a pod being evicted (Running, `DisruptionTarget`) under an Ignore rule has its
// finalizer removed but is not a failure. The fold keeps, for pods that have not failed, the
// conditions and exit codes the policy can match.

const IGNORE_DISRUPTION: PodFailurePolicyRule = { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] };
const IGNORE_EXIT_5: PodFailurePolicyRule = { action: 'Ignore', onExitCodes: { operator: 'In', values: [5] } };
const FAIL_ON_42: PodFailurePolicyRule = { action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } };
const job = aJob({ completions: 3, parallelism: 3, podFailurePolicy: { rules: [IGNORE_DISRUPTION, IGNORE_EXIT_5, FAIL_ON_42] } });

const pod = (name: string, options: PodOptions = {}) => podObserved(aPod({ name, ...options }), at(1));
const evicted = (name: string, status = 'True') => pod(name, { deletionTimestamp: at(1), conditions: [{ type: 'DisruptionTarget', status }] });
/** The pod `tipper` fails with exit code 42 at 2 s, which fails the Job (FailJob). */
const tipped = podObserved(aPod({ name: 'tipper', phase: 'Failed', exitCode: 42, finishedAt: at(2) }), at(2));

describe('Given a failing Job whose pod failure policy ignores DisruptionTarget', () => {
  it('a pod being evicted (Running, DisruptionTarget) is not counted failed; the other running pod is', () => {
    given(job, evicted('evicted'), pod('running'), tipped)
      .when()
      .thenStatus({ failed: 2, conditions: [expect.objectContaining({ type: 'FailureTarget', reason: 'PodFailurePolicy_2' })] })
      .then(({ state }) => {
        expect(state.pods.get('evicted')?.counted).toBe('ignored');
        expect(state.pods.get('running')?.counted).toBe('failed');
      });
  });

  it('a DisruptionTarget with status False is not what the rule names: the pod is counted failed', () => {
    given(job, evicted('evicted', 'False'), pod('running'), tipped).when().thenStatus({ failed: 3 });
  });

  it('a Running pod whose other container exited with an ignored code (5) is not counted failed', () => {
    const sidecarExited = pod('two-containers', { containers: [{ name: 'helper', exitCode: 5 }] });
    given(job, sidecarExited, pod('running'), tipped).when().thenStatus({ failed: 2 });
  });

  it('a condition seen on the pod before it is running again without it stays (an Ignore match is not undone by a late copy)', () => {
    // an unstamped copy of the pod without the condition, in a later run, before the Job fails
    const later = podObserved(aPod({ name: 'evicted', deletionTimestamp: at(1) }), at(1.5));
    given(job, evicted('evicted'), pod('running'), later, tipped).when().thenStatus({ failed: 2 });
  });

  it('the condition is seen only after the Job failed: the pod was counted failed at that sync, and stays so', () => {
    const runningFirst = podObserved(aPod({ name: 'evicted' }), at(1));
    const evictedLater = { ...evicted('evicted'), eventId: 'evicted/later', observedAt: at(3) };
    given(job, runningFirst, pod('running'), tipped, evictedLater, tick(at(4))).when().thenStatus({ failed: 3 });
  });

  it('the kept condition survives a snapshot of the running pod', () => {
    const { state } = given(job, evicted('evicted'), pod('running')).fold();
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(takeSnapshot(state).snapshot)));
    expect(restored.pods.get('evicted')?.conditions).toEqual([{ type: 'DisruptionTarget', status: 'True' }]);
    expect(restored.pods.get('running')?.conditions).toEqual([]);
  });
});

describe('Given a failing Job without a pod failure policy', () => {
  it('a pod being evicted is counted failed, as every other pod the Job tracks, and no condition is kept for it', () => {
    const plain = aJob({ completions: 3, parallelism: 3, backoffLimit: 0 });
    const failed = podObserved(aPod({ name: 'tipper', phase: 'Failed', finishedAt: at(2) }), at(2));
    given(plain, evicted('evicted'), pod('running'), failed)
      .when()
      .thenStatus({ failed: 3 })
      .then(({ state }) => expect(state.pods.get('evicted')?.conditions).toEqual([]));
  });
});
