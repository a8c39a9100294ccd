import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { BatchPods, JOB_PODS_MAX_AGE_MS } from '../../forwarder/commands/job-pods.ts';
import type { KubeOps } from '../../forwarder/commands/kube-ops.ts';
import { JOB_TRACKING_FINALIZER } from '../../shared/k8s/job-controller.ts';

// The guards' pods for one batch of commands (forwarder/commands/job-pods.ts): one list per Job,
// the batch's own changes applied to it, never a partial list.

const pod = (uid: string, options: { phase?: string; finalizers?: string[]; deleting?: boolean; commandId?: string } = {}): V1Pod => ({
  metadata: {
    uid,
    name: `p-${uid}`,
    ...(options.finalizers ? { finalizers: options.finalizers } : {}),
    ...(options.deleting ? { deletionTimestamp: new Date('2026-01-01T00:10:00Z') } : {}),
    ...(options.commandId ? { annotations: { 'jobfold.io/command-id': options.commandId } } : {}),
  },
  status: { phase: options.phase ?? 'Running' },
});

/** A KubeOps that lists `pages` of the Job's pods, counting the lists; `failAt`: the page that fails. */
function lister(pages: V1Pod[][], failAt?: number) {
  const calls: string[] = [];
  const kube: Pick<KubeOps, 'listJobPods'> = {
    async listJobPods(namespace, jobUid, page) {
      calls.push(`${namespace}/${jobUid}`);
      for (const [i, items] of pages.entries()) {
        if (i === failAt) throw new Error(`page ${i + 1} failed`);
        page(items);
      }
      return pages.length;
    },
  };
  return { kube, calls };
}

const tracked = [JOB_TRACKING_FINALIZER];

describe('a batch lists each Job once', () => {
  it('given two commands of one Job and one of another, when their pods are read, then each Job is listed once, every page read', async () => {
    const { kube, calls } = lister([[pod('a'), pod('b')], [pod('c')]]);
    const batch = new BatchPods(kube);

    expect((await batch.of('ns', 'job-1')).size).toBe(3);
    expect((await batch.of('ns', 'job-1')).size).toBe(3);
    await batch.of('ns', 'job-2');

    expect(calls).toEqual(['ns/job-1', 'ns/job-2']);
  });

  it('given a list read longer ago than its age bound, when a later command reads the pods, then they are listed again', async () => {
    const { kube, calls } = lister([[pod('a')]]);
    let now = 1_000;
    const batch = new BatchPods(kube, { now: () => now });
    await batch.of('ns', 'job');
    now += JOB_PODS_MAX_AGE_MS;
    await batch.of('ns', 'job');
    expect(calls).toHaveLength(1);

    now += 1;
    await batch.of('ns', 'job');
    expect(calls).toHaveLength(2);
  });

  it('given a list whose second page fails, when the batch reads the pods, then every read fails and none gets the first page alone', async () => {
    const { kube, calls } = lister([[pod('a')], [pod('b')]], 1);
    const batch = new BatchPods(kube);

    await expect(batch.of('ns', 'job')).rejects.toThrow('page 2 failed');
    await expect(batch.of('ns', 'job')).rejects.toThrow('page 2 failed');
    expect(calls).toHaveLength(1);
  });

  it('given a forgotten list, when the pods are read again, then they are listed again', async () => {
    const { kube, calls } = lister([[pod('a')]]);
    const batch = new BatchPods(kube);
    await batch.of('ns', 'job');
    batch.forget('ns', 'job');
    await batch.of('ns', 'job');
    expect(calls).toHaveLength(2);
  });

  it('given no list yet, when a change is applied, then nothing is listed', async () => {
    const { kube, calls } = lister([[pod('a')]]);
    const batch = new BatchPods(kube);
    await batch.touch('ns', 'job', (view) => view.deleted('a'));
    expect(calls).toEqual([]);
  });
});

describe("the batch's own changes", () => {
  const listed = async (...pods: V1Pod[]) => {
    const batch = new BatchPods(lister([pods]).kube);
    return { batch, view: await batch.of('ns', 'job') };
  };

  it('given a tracked running pod, when its deletion is accepted, then it reads as being deleted, no longer active', async () => {
    const { batch, view } = await listed(pod('a', { finalizers: tracked }), pod('b'));
    await batch.touch('ns', 'job', (v) => v.deleted('a'));
    expect(view.live()).toEqual([
      { index: undefined, terminal: false, succeeded: false, deleting: true, tracked: true },
      { index: undefined, terminal: false, succeeded: false, deleting: false, tracked: false },
    ]);
  });

  it('given a pod without finalizers, when its deletion is accepted, then it is gone', async () => {
    const { view } = await listed(pod('a'), pod('b'));
    view.deleted('a');
    expect(view.size).toBe(1);
  });

  it('given a pod whose DELETE found it gone or replaced, then it is gone', async () => {
    const { view } = await listed(pod('a', { finalizers: tracked }));
    view.gone('a');
    expect(view.live()).toEqual([]);
  });

  it('given a created pod, then it is counted, and the CreatePod that made it is known', async () => {
    const { view } = await listed(pod('a'));
    view.created(pod('new', { finalizers: tracked, commandId: 'job/create/1' }));
    expect(view.size).toBe(2);
    expect(view.madeBy('job/create/1')).toBe(true);
    expect(view.madeBy('job/create/2')).toBe(false);
  });

  it('given a pod being deleted, when its tracking finalizer is removed, then it is gone; a running one stays, untracked', async () => {
    const { view } = await listed(pod('going', { finalizers: tracked, deleting: true }), pod('running', { finalizers: tracked }), pod('held', { finalizers: [JOB_TRACKING_FINALIZER, 'example.com/keep'], deleting: true }));
    view.finalizerRemoved('going');
    view.finalizerRemoved('running');
    view.finalizerRemoved('held');
    expect(view.live()).toEqual([
      { index: undefined, terminal: false, succeeded: false, deleting: false, tracked: false },
      { index: undefined, terminal: false, succeeded: false, deleting: true, tracked: false },
    ]);
  });

  it('given the target of a command, then the others are read without it', async () => {
    const { view } = await listed(pod('a'), pod('b', { phase: 'Succeeded' }));
    expect(view.live('a')).toEqual([{ index: undefined, terminal: true, succeeded: true, deleting: false, tracked: false }]);
  });
});
