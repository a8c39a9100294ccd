import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_TRACKING_FINALIZER, JOBFOLD_CONTROLLER_NAME } from '../../shared/k8s/job-controller.ts';
import { createPod, removePodFinalizer, terminatePod } from './commands.ts';
import type { KubeObject } from './fake-kube-store.ts';
import { DLQ, eventually, QUEUE, startHarness, templateHashSeenByService, type Harness } from './harness.ts';
import { aJob, aPod, type JobOptions } from './objects.ts';

// Issue 21 at size: the guards read a Job's live pods once per batch of commands, not from a list
// of every pod per command (forwarder/commands/job-pods.ts, watched-pods.ts, docs/forwarder.md
// "The live pods"): from the pod watch once it has reached the API server's resourceVersion of
// now, else from one list, in pages. Within a batch, each command's guard counts what the
// commands before it did, as upstream's manageJob counts its own requests within a sync; a list
// that fails or is cut leaves the batch's commands on the queue, none applied on part of it.

let h: Harness;
beforeEach(async () => {
  // One list serves a whole batch here, however slow the machine (the age bound: job-pods.spec.ts).
  h = await startHarness({ tuning: { podListMaxAgeMs: 10 * 60_000, podWatchWaitMs: 200 } });
  // A batch of a hundred commands takes longer than the fake's default visibility timeout.
  h.sqs.visibilityTimeoutMs = 60_000;
});
afterEach(async () => {
  await h.close();
});

const queueEmpty = () => expect(h.sqs.pending(QUEUE)).toEqual([]);
const managedJob = (options: JobOptions) => h.kube.store.create('jobs', aJob({ name: 'train', managedBy: JOBFOLD_CONTROLLER_NAME, ...options }));
const runningPods = (job: KubeObject, n: number) => Array.from({ length: n }, (_, i) => h.kube.store.create('pods', aPod(job, { name: `train-${i}`, tracked: true })));
/** The guards' list requests of the Job's pods (every page), not the watch's list of all Jobs' pods, nor the one-pod reads of the resourceVersion. */
const guardListPages = (job: KubeObject) => h.kube.listRequests('pods').filter((r) => r.query.get('labelSelector') === `batch.kubernetes.io/controller-uid=${job.metadata.uid}` && r.query.get('limit') !== '1');
const guardLists = (job: KubeObject) => guardListPages(job).filter((r) => !r.query.has('continue'));
/** Reads of the Job's pods, from a list or from the watch. */
const reads = () => h.metrics.get('forwarder_guard_lists_total') + h.metrics.get('forwarder_guard_watch_reads_total');
/** The pod watch goes down and cannot reconnect: its view stays as it was, behind the API server. */
const watchDown = () => {
  h.kube.failNext('GET', /\/pods$/, 500, 1_000_000, (q) => q.get('watch') === 'true');
  h.kube.dropWatches('abrupt');
};
const deleteRequests = () => h.kube.requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').at(-1));
const outcomes = (type: string) => ({
  done: h.metrics.get('forwarder_commands_total', { type, outcome: 'done' }),
  refused: h.metrics.get('forwarder_commands_total', { type, outcome: 'refused' }),
  transient: h.metrics.get('forwarder_commands_total', { type, outcome: 'transient' }),
});

describe('one list per batch', () => {
  it('given a 1,200-pod Job scaled down by 100 and the pod watch down, when its 100 TerminatePod (ExcessPods) commands arrive at once, then its pods are listed once, in pages of 500, and each excess pod is deleted once', async () => {
    watchDown();
    const job = managedJob({ parallelism: 1_100, completions: 2_400 });
    const pods = runningPods(job, 1_200);
    for (const pod of pods.slice(0, 100)) h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty, 30_000);
    expect(deleteRequests().sort()).toEqual(pods.slice(0, 100).map((p) => p.metadata.name).sort());
    expect(outcomes('TerminatePod')).toEqual({ done: 100, refused: 0, transient: 0 });
    // Before: a list per command, 100 lists of 1,200 pods (120,000 pods read), each one response.
    expect(guardLists(job)).toHaveLength(1);
    expect(guardListPages(job).map((r) => r.query.get('limit'))).toEqual(['500', '500', '500']);
    expect(h.metrics.get('forwarder_guard_pods_listed_total')).toBe(1_200);
  });

  it('given the same Job and the pod watch up, when the 100 commands arrive, then the pods are read from the watch: no list, one one-pod read of the resourceVersion', async () => {
    const job = managedJob({ parallelism: 1_100, completions: 2_400 });
    const pods = runningPods(job, 1_200);
    for (const pod of pods.slice(0, 100)) h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty, 30_000);
    expect(deleteRequests().sort()).toEqual(pods.slice(0, 100).map((p) => p.metadata.name).sort());
    expect(outcomes('TerminatePod')).toEqual({ done: 100, refused: 0, transient: 0 });
    expect(guardLists(job)).toEqual([]);
    expect(h.metrics.get('forwarder_guard_watch_reads_total')).toBe(1);
  });

  it('given the pod watch down while two of three running pods succeed, when an excess-pod deletion decided before arrives, then the guard lists, and refuses it on the live pods, not the watch\'s stale three', async () => {
    const job = managedJob({ parallelism: 2, completions: 6 });
    const pods = runningPods(job, 3);
    await eventually(() => expect(h.bus.delivered.length).toBeGreaterThanOrEqual(4), 10_000);
    watchDown();
    for (const name of ['train-1', 'train-2']) h.kube.store.update('pods', 'default', name, (p) => void ((p.status as { phase: string }).phase = 'Succeeded'));
    h.sqs.send(QUEUE, terminatePod(job, pods[0] as KubeObject, 'ExcessPods'));

    await eventually(queueEmpty, 10_000);
    expect(deleteRequests()).toEqual([]);
    expect(outcomes('TerminatePod')).toEqual({ done: 0, refused: 1, transient: 0 });
    expect(guardLists(job)).toHaveLength(1);
    expect(h.metrics.get('forwarder_guard_watch_reads_total')).toBe(0);
  });

  it("given a suspension's deletions, when they arrive, then no pod is read: their verdict reads the live Job alone", async () => {
    const job = managedJob({ parallelism: 3, suspend: true });
    const pods = runningPods(job, 3);
    for (const pod of pods) h.sqs.send(QUEUE, terminatePod(job, pod, 'JobSuspended'));

    await eventually(queueEmpty, 10_000);
    expect(deleteRequests()).toHaveLength(3);
    expect(h.kube.listRequests('pods').filter((r) => r.query.get('labelSelector')?.includes('='))).toEqual([]);
  });
});

describe("a batch counts its own commands' effects", () => {
  it('given a Job scaled back up to 2 while 3 pods run, when three excess-pod deletions arrive in one batch, then one pod is deleted and the others refused', async () => {
    const job = managedJob({ parallelism: 2, completions: 6 });
    const pods = runningPods(job, 3);
    for (const pod of pods) h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty, 10_000);
    expect(reads()).toBe(1);
    expect(deleteRequests()).toEqual(['train-0']);
    expect(outcomes('TerminatePod')).toEqual({ done: 1, refused: 2, transient: 0 });
  });

  it('given a Job of parallelism 2 and no pod, when three CreatePod commands arrive in one batch, then two pods are created and the third refused', async () => {
    const job = managedJob({ parallelism: 2, completions: 6 });
    const hash = await templateHashSeenByService(h.bus, job);
    for (const n of [1, 2, 3]) h.sqs.send(QUEUE, createPod(job, undefined, hash, n));

    await eventually(queueEmpty, 10_000);
    expect(reads()).toBe(1);
    expect(h.kube.store.list('pods')).toHaveLength(2);
    expect(h.logs.filter((l) => l.msg === 'command applied').map((l) => l.note)).toEqual(['created', 'created', 'parallelism-reached']);
  });

  it('given a terminating pod under podReplacementPolicy Failed, when its finalizer removal and its replacement arrive in one batch, then the removal lets the replacement be created', async () => {
    const job = managedJob({ parallelism: 1, completions: 1, completionMode: 'Indexed' });
    h.kube.store.update('jobs', 'default', 'train', (j) => void Object.assign(j.spec as object, { podReplacementPolicy: 'Failed' }));
    const hash = await templateHashSeenByService(h.bus, job);
    const pod = h.kube.store.create('pods', aPod(job, { name: 'train-0-a', index: 0, tracked: true }));
    h.kube.store.update('pods', 'default', 'train-0-a', (p) => void (p.metadata.deletionTimestamp = '2026-01-01T00:10:00Z'));
    h.sqs.send(QUEUE, createPod(job, 0, hash, 1));
    h.sqs.send(QUEUE, removePodFinalizer(job, pod));
    h.sqs.send(QUEUE, createPod(job, 0, hash, 2));

    await eventually(queueEmpty, 10_000);
    expect(reads()).toBe(1);
    expect(h.logs.filter((l) => l.msg === 'command applied').map((l) => l.note)).toEqual(['parallelism-reached', 'finalizer-removed', 'created']);
    expect(h.kube.store.get('pods', 'default', 'train-0-a')).toBeUndefined();
    expect(h.kube.store.list('pods').map((p) => p.metadata.finalizers)).toEqual([[JOB_TRACKING_FINALIZER]]);
  });
});

describe('nothing applied on part of a list', () => {
  it.each([
    ['fails (500)', 500],
    ['is cut (the connection dropped)', 'cut'],
    ['has expired (410)', 410],
  ] as const)('given the pod watch down and the second page of the list %s, when five deletions arrive, then none is applied on the first page alone: all are retried, then each applied once', async (_, status) => {
    watchDown();
    const job = managedJob({ parallelism: 1_195, completions: 2_400 });
    const pods = runningPods(job, 1_200);
    h.kube.failNext('GET', /\/namespaces\/default\/pods$/, status, 1, (q) => q.has('continue'));
    for (const pod of pods.slice(0, 5)) h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty, 20_000);
    expect(outcomes('TerminatePod')).toEqual({ done: 5, refused: 0, transient: 5 });
    // Each pod's DELETE was sent once, by the retry, after a whole list.
    expect(deleteRequests().sort()).toEqual(pods.slice(0, 5).map((p) => p.metadata.name).sort());
    expect(h.sqs.pending(DLQ)).toEqual([]);
  });
});

describe("the pod watch's view is read only at the API server's version of now", () => {
  it('given the read of that version fails, when five deletions arrive, then none is applied: all are retried, then each applied once', async () => {
    const job = managedJob({ parallelism: 1_195, completions: 2_400 });
    const pods = runningPods(job, 1_200);
    h.kube.failNext('GET', /\/namespaces\/default\/pods$/, 500, 1, (q) => q.get('limit') === '1');
    for (const pod of pods.slice(0, 5)) h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty, 20_000);
    expect(outcomes('TerminatePod')).toEqual({ done: 5, refused: 0, transient: 5 });
    expect(deleteRequests().sort()).toEqual(pods.slice(0, 5).map((p) => p.metadata.name).sort());
  });
});
