import { describe, expect, it } from 'vitest';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { JobCommand } from '../../../shared/job/commands.ts';
import { aJob, anIndexedJob, aPod, at, jobObserved, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';
import { decide } from '../../../shared/job/decide.ts';
import { evolve } from '../../../shared/job/evolve.ts';
import { restoreSnapshot, takeSnapshot } from '../../../shared/job/snapshot.ts';
import { jobStatus } from '../../../shared/job/status.ts';

// Managed Jobs (spec.managedBy: jobfold.io/job-controller): the tracking finalizer, the pods'
// failure-count annotations, and the status written back as upstream writes it.

const managed = { managedBy: JOBFOLD_CONTROLLER_NAME };
const removals = (commands: readonly JobCommand[]) => commands.flatMap((c) => (c.type === 'RemovePodFinalizer' ? [c.podName] : []));
const statusSent = (commands: readonly JobCommand[]) => commands.find((c) => c.type === 'UpdateJobStatus');

describe('Tracking finalizer of a managed Job', () => {
  const job = aJob({ ...managed, completions: 2, parallelism: 2 });

  it('is removed once the pod is counted, with the count already in the log', () => {
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(2))).when({ now: at(2) });
    expect(removals(outcome.commands)).toEqual(['b']);
    expect(outcome.commands.find((c) => c.type === 'RemovePodFinalizer')).toMatchObject({ podUid: 'b', jobUid: 'job-uid', commandId: 'job-uid/finalizer/b' });
    expect(outcome.decisions).toContainEqual(expect.objectContaining({ type: 'PodFinalizersRemovalRequested', pods: [expect.objectContaining({ uid: 'b' })] }));
    expect(statusSent(outcome.commands)).toMatchObject({ status: { succeeded: 1 } });
  });

  it('is asked for once, not again before the request expires (finalizer-removal-retry.spec.ts)', () => {
    given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(2)), tick(at(3)))
      .when({ now: at(4) })
      .then((outcome) => expect(removals(outcome.commands)).toEqual([]));
  });

  it('is not asked for when the pod is seen without it', () => {
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'b', phase: 'Succeeded', finalizer: false }), at(2))).when({ now: at(2) });
    expect(removals(outcome.commands)).toEqual([]);
  });

  it('is removed from failed pods (counted) and kept on running ones', () => {
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Failed' }), at(2))).when({ now: at(2) });
    expect(removals(outcome.commands)).toEqual(['b']);
  });

  it('is removed from the pods deleted when the Job is suspended, which are never counted', () => {
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1)), jobObserved(withSpec(job, { suspend: true }), at(2))).when({ now: at(2) });
    expect(outcome.commands.filter((c) => c.type === 'TerminatePod').map((c) => (c as { podName: string }).podName).sort()).toEqual(['a', 'b']);
    expect(removals(outcome.commands).sort()).toEqual(['a', 'b']);
    expect(statusSent(outcome.commands)).toMatchObject({ status: { failed: 0, succeeded: 0 } });
  });

  describe('on a pod terminated for a deadline jobfold cannot declare yet (a pod it created unseen)', () => {
    const deadline = aJob({ ...managed, completions: 2, parallelism: 2, activeDeadlineSeconds: 60 });
    const [a, b] = [podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1))];
    const statusOf = (commands: readonly JobCommand[]) => statusSent(commands) as { status: { failed: number; conditions: { type: string }[] } } | undefined;

    it("in the cluster's order both pods are seen before the deadline: FailureTarget, both terminated and released to be counted failed", () => {
      const outcome = given(deadline, tick(at(0)), a, b).when({ now: at(61) });
      expect(removals(outcome.commands).sort()).toEqual(['a', 'b']);
      expect(statusOf(outcome.commands)?.status).toMatchObject({ conditions: [{ type: 'FailureTarget' }] });
    });

    it('b unseen at the deadline: a is terminated and keeps its finalizer, with no FailureTarget yet (upstream deleteActivePods)', () => {
      const outcome = given(deadline, tick(at(0)), a, tick(at(61))).when({ now: at(61) });
      expect(outcome.commands.filter((c) => c.type === 'TerminatePod').map((c) => (c as { podName: string }).podName)).toEqual(['a']);
      expect(removals(outcome.commands)).toEqual([]);
      expect(statusOf(outcome.commands)?.status.conditions ?? []).toEqual([]);
    });

    it("then a's deletion and b arrive: the sync that declares FailureTarget terminates b and releases both to be counted failed, as in order", () => {
      const aDeleting = podObserved(aPod({ name: 'a', deletionTimestamp: at(62) }), at(62));
      const outcome = given(deadline, tick(at(0)), a, tick(at(61)), aDeleting, { ...b, observedAt: at(62) }).when({ now: at(62) });
      expect(removals(outcome.commands).sort()).toEqual(['a', 'b']);
      expect(statusOf(outcome.commands)?.status).toMatchObject({ conditions: [{ type: 'FailureTarget' }] });
    });
  });

  it('is removed from running pods deleted once the success policy is met (not counted as failed)', () => {
    const indexed = anIndexedJob(2, { ...managed, parallelism: 2, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    const outcome = given(indexed, tick(at(0)), podObserved(aPod({ index: 1 }), at(1)), podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(2))).when({ now: at(2) });
    expect(removals(outcome.commands).sort()).toEqual(['pod-0', 'pod-1']);
    expect(statusSent(outcome.commands)).toMatchObject({ status: { failed: 0, terminating: 1 } });
  });

  it('is never touched for Jobs jobfold does not manage', () => {
    const outcome = given(aJob({ completions: 2, parallelism: 2 }), tick(at(0)), podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(2))).when({ now: at(2) });
    expect(removals(outcome.commands)).toEqual([]);
    expect(outcome.decisions.map((d) => d.type)).not.toContain('PodFinalizersRemovalRequested');
  });
});

describe('Pods created for a managed Job with backoffLimitPerIndex', () => {
  const job = anIndexedJob(2, { ...managed, parallelism: 2, backoffLimitPerIndex: 2 });

  it('carry index failure count 0 at first', () => {
    const outcome = given(job).when({ now: at(0) });
    const creations = outcome.commands.filter((c) => c.type === 'CreatePod');
    expect(creations.map((c) => [c.index, c.indexFailureCount, c.indexIgnoredFailureCount])).toEqual([[0, 0, 0], [1, 0, 0]]);
  });

  it('replace a failed pod with its failure count plus one', () => {
    const failed = aPod({ index: 0, phase: 'Failed', failureCount: 1, finishedAt: at(1) });
    const outcome = given(job, tick(at(0)), podObserved(aPod({ index: 1 }), at(1)), podObserved(failed, at(1))).when({ now: at(100) });
    expect(outcome.commands.find((c) => c.type === 'CreatePod')).toMatchObject({ index: 0, indexFailureCount: 2, indexIgnoredFailureCount: 0 });
  });

  it('count an ignored failure (pod failure policy Ignore) in the ignored-failure count', () => {
    const ignoring = anIndexedJob(2, {
      ...managed,
      parallelism: 2,
      backoffLimitPerIndex: 2,
      podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [42] } }] },
    });
    const failed = aPod({ index: 0, phase: 'Failed', exitCode: 42, failureCount: 1, finishedAt: at(1) });
    const outcome = given(ignoring, tick(at(0)), podObserved(aPod({ index: 1 }), at(1)), podObserved(failed, at(1))).when({ now: at(100) });
    expect(outcome.commands.find((c) => c.type === 'CreatePod')).toMatchObject({ index: 0, indexFailureCount: 1, indexIgnoredFailureCount: 1 });
  });
});

describe('Status written back during the recreation backoff', () => {
  const job = aJob({ ...managed, completions: 2, parallelism: 2 });

  it('reports active 0 while the backoff holds the replacement back, as upstream writes it', () => {
    const history = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1))] as const;
    const outcome = given(job, ...history, podObserved(aPod({ name: 'b', phase: 'Failed', finishedAt: at(2) }), at(2))).when({ now: at(2) });
    expect(outcome.commands.filter((c) => c.type === 'CreatePod')).toEqual([]);
    expect(statusSent(outcome.commands)).toMatchObject({ status: { active: 0, failed: 1 } });
  });

  it('reports the real count again once the replacement is created', () => {
    const history = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Failed', finishedAt: at(2) }), at(2))] as const;
    const outcome = given(job, ...history).when({ now: at(12) });
    expect(outcome.commands.filter((c) => c.type === 'CreatePod')).toHaveLength(1);
    expect(statusSent(outcome.commands)).toMatchObject({ status: { active: 2, failed: 1 } });
  });

  it('keeps the real count when nothing is to be created', () => {
    const wide = aJob({ ...managed, completions: 4, parallelism: 2 });
    const history = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1))] as const;
    const outcome = given(wide, ...history, podObserved(aPod({ name: 'c', phase: 'Failed', finishedAt: at(2) }), at(2))).when({ now: at(2) });
    expect(statusSent(outcome.commands)).toMatchObject({ status: { active: 2, failed: 1 } });
  });
});

describe('A status that returns to an earlier value', () => {
  it('is sent again under a new commandId, so neither the outbox nor the forwarder takes it for a repeat', () => {
    const job = aJob({ ...managed, completions: 3, parallelism: 3 });
    const pods = ['a', 'b', 'c'].map((name) => podObserved(aPod({ name }), at(1)));
    const first = given(job, tick(at(0)), ...pods).when({ now: at(1) });
    const ready = given(job, tick(at(0)), ...pods, podObserved(aPod({ name: 'a', ready: true }), at(2))).when({ now: at(2) });
    const back = given(job, tick(at(0)), ...pods, podObserved(aPod({ name: 'a', ready: true }), at(2)), tick(at(2)), podObserved(aPod({ name: 'a', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: at(3) }] }), at(3))).when({ now: at(3) });
    const ids = [first, ready, back].map((o) => statusSent(o.commands)?.commandId);
    expect(statusSent(back.commands)).toMatchObject({ status: { ready: 0 } });
    expect(new Set(ids).size).toBe(3);
  });
});

describe('After the service restores a managed Job from a snapshot', () => {
  it('remembers the finalizer removal it asked for, and keeps the pod live until the finalizer is seen gone', () => {
    const job = aJob({ ...managed, completions: 2, parallelism: 2 });
    const before = given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(2)), tick(at(2)));
    const { snapshot, archived } = takeSnapshot(before.when({ now: at(3) }).state);
    expect(archived).toEqual([]);
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)));
    expect(removals(decide(restored, at(4)).commands)).toEqual([]);
    evolve(restored, { ...podObserved(aPod({ name: 'b', phase: 'Succeeded', finalizer: false }), at(5)), seq: restored.position + 1 });
    expect(removals(decide(restored, at(5)).commands)).toEqual([]);
    expect(jobStatus(restored).succeeded).toBe(1);
    expect(takeSnapshot(restored).archived.map((p) => p.uid)).toEqual(['b']);
  });
});
