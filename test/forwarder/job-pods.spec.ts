import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { BatchPods, JOB_PODS_MAX_AGE_MS, type ListedPod } from '../../forwarder/commands/job-pods.ts';
import { WatchedPods } from '../../forwarder/commands/watched-pods.ts';
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
  const kube: Pick<KubeOps, 'listJobPods' | 'podsResourceVersion'> = {
    async podsResourceVersion() {
      return '700';
    },
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

describe("the pod watch's view", () => {
  const labelled = (uid: string, jobUid: string, namespace = 'ns'): V1Pod => ({ ...pod(uid), metadata: { ...pod(uid).metadata, namespace, labels: { 'batch.kubernetes.io/controller-uid': jobUid } } });
  const uids = (pods: readonly ListedPod[] | undefined) => pods?.map((p) => p.uid).sort();

  it('given a watch that has reached the version asked for, when a Job\'s pods are read, then they are its pods, and the batch lists nothing', async () => {
    const watched = new WatchedPods(() => '700');
    watched.relisted([labelled('a', 'job'), labelled('b', 'job'), labelled('c', 'other')]);
    const { kube, calls } = lister([[pod('a')]]);
    const batch = new BatchPods(kube, { watched });

    expect(uids(await watched.at('ns', 'job', '700'))).toEqual(['a', 'b']);
    expect((await batch.of('ns', 'job')).size).toBe(2);
    expect(calls).toEqual([]);
  });

  it('given a watch behind the version asked for, when it catches up within the wait, then its pods are read; when it does not, then the batch lists', async () => {
    let progress: string | undefined = '699';
    const slept: number[] = [];
    const watched = new WatchedPods(() => progress, { waitMs: 50, sleep: async (ms) => void slept.push(ms) });
    watched.relisted([labelled('a', 'job')]);
    expect(await watched.at('ns', 'job', '700')).toBeUndefined();
    expect(slept.length).toBeGreaterThan(0);

    const { kube, calls } = lister([[pod('a'), pod('b')]]);
    expect((await new BatchPods(kube, { watched }).of('ns', 'job')).size).toBe(2);
    expect(calls).toEqual(['ns/job']);

    const catchingUp = new WatchedPods(() => progress, { sleep: async () => void (progress = '701') });
    catchingUp.relisted([labelled('a', 'job')]);
    progress = '699';
    expect(uids(await catchingUp.at('ns', 'job', '700'))).toEqual(['a']);
  });

  it('given a watch that is not watching, or versions that are not numbers, then its pods are never read', async () => {
    const stopped = new WatchedPods(() => undefined, { waitMs: 0 });
    stopped.relisted([labelled('a', 'job')]);
    expect(await stopped.at('ns', 'job', '700')).toBeUndefined();
    const opaque = new WatchedPods(() => 'abc', { waitMs: 0 });
    expect(await opaque.at('ns', 'job', 'abc')).toBeUndefined();
    expect(await new WatchedPods(() => '700', { waitMs: 0 }).at('ns', 'job', undefined)).toBeUndefined();
  });

  it('given changes after a list, then a pod updated, deleted, or of another namespace reads as the watch saw it, and a relist replaces everything', async () => {
    const watched = new WatchedPods(() => '9');
    watched.relisted([labelled('a', 'job'), labelled('b', 'job'), labelled('x', 'job', 'other-ns')]);
    watched.observed({ ...labelled('a', 'job'), status: { phase: 'Succeeded' } } as V1Pod);
    watched.deleted(labelled('b', 'job'));
    watched.observed(labelled('c', 'job'));
    const pods = await watched.at('ns', 'job', '9');
    expect(uids(pods)).toEqual(['a', 'c']);
    expect(pods?.find((p) => p.uid === 'a')?.live.succeeded).toBe(true);

    watched.relisted([labelled('d', 'job')]);
    expect(uids(await watched.at('ns', 'job', '9'))).toEqual(['d']);
    expect(uids(await watched.at('other-ns', 'job', '9'))).toEqual([]);
  });
});
