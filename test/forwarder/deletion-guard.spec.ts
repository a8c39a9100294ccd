import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_TRACKING_FINALIZER, JOBFOLD_CONTROLLER_NAME } from '../../shared/k8s/job-controller.ts';
import { removePodFinalizer, terminatePod } from './commands.ts';
import { DLQ, eventually, QUEUE, startHarness, type Harness } from './harness.ts';
import { aJob, aPod, type JobOptions } from './objects.ts';

// Issue 21, "no harmful command from a transient view": a TerminatePod decided on the Job's spec
// (excess pods, a suspension) is made only if the live Job and pods still call for it
// (shared/job/deletion-guard.ts). A refused one deletes nothing, keeps the pod's finalizer, and is
// not remembered as applied: the same command, decided again once jobfold's view has caught up,
// is applied then.

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const queueEmpty = () => expect(h.sqs.pending(QUEUE)).toEqual([]);
const deadLetters = () => h.sqs.pending(DLQ).map((m) => m.attributes.reason?.StringValue);
const managedJob = (options: JobOptions) => h.kube.store.create('jobs', aJob({ name: 'train', managedBy: JOBFOLD_CONTROLLER_NAME, ...options }));
const runningPod = (job: ReturnType<typeof managedJob>, name: string) => h.kube.store.create('pods', aPod(job, { name, tracked: true }));
const outcomes = (type: string) => ({
  done: h.metrics.get('forwarder_commands_total', { type, outcome: 'done' }),
  refused: h.metrics.get('forwarder_commands_total', { type, outcome: 'refused' }),
});
/** The pods the forwarder sent a DELETE for (a tracked pod stays, being deleted, until its finalizer goes). */
const deleted = () => h.kube.requests.filter((r) => r.method === 'DELETE').map((r) => r.path.split('/').at(-1));
const setSpec = (spec: Record<string, unknown>) => h.kube.store.update('jobs', 'default', 'train', (job) => void Object.assign(job.spec as object, spec));

describe('TerminatePod for excess pods', () => {
  it('given a Job scaled back up to its running pods, when the deletion decided on the scale-down arrives, then it is refused and the pod runs on', async () => {
    const job = managedJob({ parallelism: 2, completions: 4 });
    const pod = runningPod(job, 'train-a');
    runningPod(job, 'train-b');
    h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.deletionTimestamp).toBeUndefined();
    expect(deleted()).toEqual([]);
    expect(outcomes('TerminatePod')).toEqual({ done: 0, refused: 1 });
    expect(deadLetters()).toEqual([]);
  });

  it('given more running pods than the live parallelism, when the deletion arrives, then the pod is deleted', async () => {
    const job = managedJob({ parallelism: 1, completions: 4 });
    const pod = runningPod(job, 'train-a');
    runningPod(job, 'train-b');
    h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty);
    expect(deleted()).toEqual(['train-a']);
    expect(outcomes('TerminatePod')).toEqual({ done: 1, refused: 0 });
  });

  it('given more running pods than the completions left (a pod succeeded), when the deletion arrives, then the pod is deleted', async () => {
    const job = managedJob({ parallelism: 2, completions: 2 });
    h.kube.store.create('pods', aPod(job, { name: 'train-done', phase: 'Succeeded' }));
    const pod = runningPod(job, 'train-a');
    runningPod(job, 'train-b');
    h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty);
    expect(deleted()).toEqual(['train-a']);
  });

  it('given a refused deletion, when the same command is decided again after the Job was scaled down, then it is applied, not skipped as a duplicate', async () => {
    const job = managedJob({ parallelism: 2, completions: 4 });
    const pod = runningPod(job, 'train-a');
    runningPod(job, 'train-b');
    h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));
    await eventually(queueEmpty);

    setSpec({ parallelism: 1 });
    h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(() => expect(outcomes('TerminatePod')).toEqual({ done: 1, refused: 1 }));
    expect(deleted()).toEqual(['train-a']);
  });

  it('given a refused deletion, when the finalizer removal decided with it arrives, then the pod keeps its finalizer, and loses it once it has finished', async () => {
    const job = managedJob({ parallelism: 2, completions: 4 });
    const pod = runningPod(job, 'train-a');
    runningPod(job, 'train-b');
    h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));
    h.sqs.send(QUEUE, removePodFinalizer(job, pod, 'PodDeleted'));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
    expect(outcomes('RemovePodFinalizer')).toEqual({ done: 0, refused: 1 });

    h.kube.store.update('pods', 'default', 'train-a', (p) => void ((p.status as { phase: string }).phase = 'Succeeded'));
    h.sqs.send(QUEUE, removePodFinalizer(job, pod, 'PodDeleted'));
    await eventually(() => expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers ?? []).toEqual([]));
  });
});

// The finalizer removal is checked on the live pod by its cause (shared/job/finalizer-guard.ts),
// not by what this forwarder remembers: SQS does not order a removal after the deletion decided
// with it, and a forwarder restarted between the two remembers nothing.
describe('RemovePodFinalizer decided with a deletion', () => {
  it('given the removal arrives before its deletion, when applied, then the running pod keeps its finalizer; the deletion that follows removes it once the pod is being deleted (upstream deleteJobPods), and the pod goes', async () => {
    const job = managedJob({ parallelism: 1, completions: 4 });
    const pod = runningPod(job, 'train-a');
    runningPod(job, 'train-b');
    h.sqs.send(QUEUE, removePodFinalizer(job, pod, 'PodDeleted'));
    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
    expect(outcomes('RemovePodFinalizer')).toEqual({ done: 0, refused: 1 });

    h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));
    await eventually(queueEmpty);
    expect(deleted()).toEqual(['train-a']);
    expect(h.kube.store.get('pods', 'default', 'train-a')).toBeUndefined();
  });

  it('given a pod that finished before its deletion arrived, when the deletion is applied, then the pod keeps its finalizer: its outcome counts', async () => {
    const job = managedJob({ parallelism: 1, completions: 4 });
    const pod = h.kube.store.create('pods', aPod(job, { name: 'train-a', phase: 'Succeeded', tracked: true }));
    runningPod(job, 'train-b');
    runningPod(job, 'train-c');
    setSpec({ suspend: true });
    h.sqs.send(QUEUE, terminatePod(job, pod, 'JobSuspended'));

    await eventually(queueEmpty);
    expect(deleted()).toEqual(['train-a']);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
  });

  it('given the removal arrives before a deletion the guard refuses, then the running pod keeps its finalizer, so its outcome is counted when it ends', async () => {
    const job = managedJob({ parallelism: 2, completions: 4 });
    const pod = runningPod(job, 'train-a');
    runningPod(job, 'train-b');
    h.sqs.send(QUEUE, removePodFinalizer(job, pod, 'PodDeleted'));
    await eventually(queueEmpty);
    h.sqs.send(QUEUE, terminatePod(job, pod, 'ExcessPods'));

    await eventually(queueEmpty);
    expect(deleted()).toEqual([]);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
    expect(outcomes('RemovePodFinalizer')).toEqual({ done: 0, refused: 1 });
    expect(outcomes('TerminatePod')).toEqual({ done: 0, refused: 1 });
  });

  it('given a removal sent before causes (no cause in the detail), then it is applied to a pod being deleted and refused on a running one', async () => {
    const job = managedJob({ parallelism: 2, completions: 4 });
    const pod = runningPod(job, 'train-a');
    const other = runningPod(job, 'train-b');
    h.kube.store.update('pods', 'default', 'train-b', (p) => void (p.metadata.deletionTimestamp = '2026-01-01T00:00:05Z'));
    h.sqs.send(QUEUE, removePodFinalizer(job, pod, null));
    h.sqs.send(QUEUE, removePodFinalizer(job, other, null));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
    expect(h.kube.store.get('pods', 'default', 'train-b')).toBeUndefined();
    expect(outcomes('RemovePodFinalizer')).toEqual({ done: 1, refused: 1 });
    expect(deadLetters()).toEqual([]);
  });

  it('given a Job that finished, then a running pod\'s finalizer goes (JobFinished is never refused)', async () => {
    const job = managedJob({ parallelism: 2, completions: 4 });
    const pod = runningPod(job, 'train-a');
    h.sqs.send(QUEUE, removePodFinalizer(job, pod, 'JobFinished'));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers ?? []).toEqual([]);
  });
});

describe('TerminatePod of a suspension', () => {
  it('given the Job resumed, when the deletion decided on the suspension arrives, then it is refused', async () => {
    const job = managedJob({ parallelism: 1, suspend: false });
    const pod = runningPod(job, 'train-a');
    h.sqs.send(QUEUE, terminatePod(job, pod, 'JobSuspended'));

    await eventually(queueEmpty);
    expect(deleted()).toEqual([]);
    expect(outcomes('TerminatePod')).toEqual({ done: 0, refused: 1 });
  });

  it('given the Job still suspended, when the deletion arrives, then the pod is deleted', async () => {
    const job = managedJob({ parallelism: 1, suspend: true });
    const pod = runningPod(job, 'train-a');
    h.sqs.send(QUEUE, terminatePod(job, pod, 'JobSuspended'));

    await eventually(queueEmpty);
    expect(deleted()).toEqual(['train-a']);
  });
});

describe('TerminatePod of a finishing Job', () => {
  it('given no pod in excess, when a JobFinishing deletion arrives, then the pod is deleted: a decided outcome is not re-checked', async () => {
    const job = managedJob({ parallelism: 2, completions: 4 });
    const pod = runningPod(job, 'train-a');
    h.sqs.send(QUEUE, terminatePod(job, pod, 'JobFinishing'));

    await eventually(queueEmpty);
    expect(deleted()).toEqual(['train-a']);
    expect(h.kube.requests.some((r) => r.method === 'GET' && /\/jobs\/train$/.test(r.path))).toBe(false);
  });
});
