import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOBFOLD_CONTROLLER_NAME, JOB_TRACKING_FINALIZER } from '../../shared/k8s/job-controller.ts';
import { createPodWithCounts, removePodFinalizer } from './commands.ts';
import { DLQ, eventually, QUEUE, startHarness, templateHashSeenByService, type Harness } from './harness.ts';
import { aJob, aPod } from './objects.ts';

// The managed-Job commands a forwarder applies besides create / delete / status: removing the
// tracking finalizer of a counted pod, and the failure-count annotations of new pods.

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const queueEmpty = () => expect(h.sqs.pending(QUEUE)).toEqual([]);
const deadLetters = () => h.sqs.pending(DLQ).map((m) => m.attributes.reason?.StringValue);
const managedJob = () => h.kube.store.create('jobs', aJob({ name: 'train', managedBy: JOBFOLD_CONTROLLER_NAME }));

describe('Applying RemovePodFinalizer', () => {
  it('removes the tracking finalizer with a JSON patch that tests the uid and the finalizer', async () => {
    const job = managedJob();
    const pod = h.kube.store.create('pods', aPod(job, { name: 'train-a', phase: 'Succeeded', tracked: true }));
    h.kube.store.update('pods', 'default', 'train-a', (p) => void (p.metadata.finalizers = ['example.com/keep', JOB_TRACKING_FINALIZER]));
    h.sqs.send(QUEUE, removePodFinalizer(job, pod));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers).toEqual(['example.com/keep']);
    const patch = h.kube.requests.find((r) => r.method === 'PATCH');
    expect(patch?.contentType).toBe('application/json-patch+json');
    expect(patch?.body).toEqual([
      { op: 'test', path: '/metadata/uid', value: pod.metadata.uid },
      { op: 'test', path: '/metadata/finalizers/1', value: JOB_TRACKING_FINALIZER },
      { op: 'remove', path: '/metadata/finalizers/1' },
    ]);
  });

  it('lets a pod being deleted go once its finalizer is removed', async () => {
    const job = managedJob();
    const pod = h.kube.store.create('pods', aPod(job, { name: 'train-a', tracked: true }));
    h.kube.store.update('pods', 'default', 'train-a', (p) => void (p.metadata.deletionTimestamp = '2026-01-01T00:00:05Z'));
    h.sqs.send(QUEUE, removePodFinalizer(job, pod, 'PodDeleted'));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')).toBeUndefined();
  });

  it('leaves alone a new pod that took the name, and counts the command done', async () => {
    const job = managedJob();
    const old = h.kube.store.create('pods', aPod(job, { name: 'train-a', tracked: true }));
    h.kube.store.remove('pods', 'default', 'train-a');
    h.kube.store.create('pods', aPod(job, { name: 'train-a', tracked: true }));
    h.sqs.send(QUEUE, removePodFinalizer(job, old));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
    expect(h.kube.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(h.metrics.get('forwarder_commands_total', { type: 'RemovePodFinalizer', outcome: 'done' })).toBe(1);
  });

  it('is done without a write when the finalizer is already gone (a redelivery)', async () => {
    const job = managedJob();
    const pod = h.kube.store.create('pods', aPod(job, { name: 'train-a', phase: 'Failed' }));
    h.sqs.send(QUEUE, removePodFinalizer(job, pod));

    await eventually(queueEmpty);
    expect(h.kube.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(deadLetters()).toEqual([]);
  });

  it('still removes it when the Job is already gone (orphan clean-up)', async () => {
    const job = managedJob();
    const pod = h.kube.store.create('pods', aPod(job, { name: 'train-a', phase: 'Succeeded', tracked: true }));
    h.kube.store.remove('jobs', 'default', 'train');
    h.sqs.send(QUEUE, removePodFinalizer(job, pod));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'train-a')?.metadata.finalizers).toEqual([]);
  });

  it('refuses a Job another controller manages: DLQ with reason job-not-managed, finalizer kept', async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'other' }));
    const pod = h.kube.store.create('pods', aPod(job, { name: 'other-a', phase: 'Succeeded', tracked: true }));
    h.sqs.send(QUEUE, removePodFinalizer(job, pod));

    await eventually(() => expect(deadLetters()).toEqual(['job-not-managed']));
    expect(h.kube.store.get('pods', 'default', 'other-a')?.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
  });
});

describe('Applying CreatePod with backoffLimitPerIndex', () => {

  it('writes the index failure count, and the ignored-failure count when above zero', async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'train', completionMode: 'Indexed', completions: 4, parallelism: 2, managedBy: JOBFOLD_CONTROLLER_NAME }));
    const hash = await templateHashSeenByService(h.bus, job);
    h.sqs.send(QUEUE, createPodWithCounts(job, 1, hash, 2, 0));
    h.sqs.send(QUEUE, createPodWithCounts(job, 3, hash, 1, 2));

    await eventually(queueEmpty);
    const pods = h.kube.store.list('pods') as { metadata: { annotations: Record<string, string> } }[];
    const byIndex = new Map(pods.map((p) => [p.metadata.annotations['batch.kubernetes.io/job-completion-index'], p.metadata.annotations]));
    expect(byIndex.get('1')?.['batch.kubernetes.io/job-index-failure-count']).toBe('2');
    expect(byIndex.get('1')).not.toHaveProperty(['batch.kubernetes.io/job-index-ignored-failure-count']);
    expect(byIndex.get('3')).toMatchObject({ 'batch.kubernetes.io/job-index-failure-count': '1', 'batch.kubernetes.io/job-index-ignored-failure-count': '2' });
  });
});
