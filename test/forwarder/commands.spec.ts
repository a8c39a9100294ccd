import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOBFOLD_CONTROLLER_NAME } from '../../shared/k8s/job-controller.ts';
import { A_STATUS, asQueueMessage, createPod, createPodWithCounts, terminatePod, updateJobStatus } from './commands.ts';
import { CLUSTER_ID, DLQ, eventually, QUEUE, startHarness, templateHashSeenByService, type Harness } from './harness.ts';
import { aJob, aPod } from './objects.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const queueEmpty = () => expect(h.sqs.pending(QUEUE)).toEqual([]);
const deadLetters = () => h.sqs.pending(DLQ).map((m) => ({ reason: m.attributes.reason?.StringValue, body: m.body }));


describe('Applying TerminatePod', () => {
  it('deletes the pod with a uid precondition, then deletes the message', async () => {
    const job = h.kube.store.create('jobs', aJob());
    const pod = h.kube.store.create('pods', aPod(job, { name: 'job-a' }));
    h.sqs.send(QUEUE, terminatePod(job, pod));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'job-a')).toBeUndefined();
    const deletion = h.kube.requests.find((r) => r.method === 'DELETE');
    expect(deletion?.body).toMatchObject({ preconditions: { uid: pod.metadata.uid } });
  });

  it('leaves alone a new pod that took the old pod\'s name, and counts the command done', async () => {
    const job = h.kube.store.create('jobs', aJob());
    const old = h.kube.store.create('pods', aPod(job, { name: 'job-a' }));
    h.kube.store.remove('pods', 'default', 'job-a');
    const replacement = h.kube.store.create('pods', aPod(job, { name: 'job-a' }));
    h.sqs.send(QUEUE, terminatePod(job, old));

    await eventually(queueEmpty);
    expect(h.kube.store.get('pods', 'default', 'job-a')?.metadata.uid).toBe(replacement.metadata.uid);
    expect(h.metrics.get('forwarder_commands_total', { type: 'TerminatePod', outcome: 'done' })).toBe(1);
  });

  it('counts a pod that is already gone (404) as done', async () => {
    const job = h.kube.store.create('jobs', aJob());
    const pod = aPod(job, { name: 'never-existed' });
    h.sqs.send(QUEUE, terminatePod(job, pod));

    await eventually(queueEmpty);
    expect(deadLetters()).toEqual([]);
  });

  it('keeps the message after a transient failure and applies it on redelivery', async () => {
    const job = h.kube.store.create('jobs', aJob());
    const pod = h.kube.store.create('pods', aPod(job, { name: 'job-a' }));
    h.kube.failNext('DELETE', /\/pods\/job-a$/, 503);
    const message = h.sqs.send(QUEUE, terminatePod(job, pod));

    await eventually(queueEmpty);
    expect(h.metrics.get('forwarder_commands_total', { type: 'TerminatePod', outcome: 'transient' })).toBe(1);
    expect(message.deletedOnDelivery).toBe(2);
    expect(h.sqs.visibilityChanges).toEqual([{ messageId: message.messageId, seconds: 5 }]);
    expect(h.kube.store.get('pods', 'default', 'job-a')).toBeUndefined();
  });
});

describe('Applying CreatePod', () => {
  it('creates the pod of an Indexed Job as the Job controller would', async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'train', completionMode: 'Indexed', completions: 4, managedBy: JOBFOLD_CONTROLLER_NAME, subdomain: 'workers' }));
    h.sqs.send(QUEUE, createPod(job, 2, await templateHashSeenByService(h.bus, job)));

    await eventually(queueEmpty);
    const [pod] = h.kube.store.list('pods') as any[];
    expect(pod.metadata.name).toMatch(/^train-2-[a-z0-9]{5}$/);
    expect(pod.metadata.generateName).toBe('train-2-');
    expect(pod.metadata.annotations).toMatchObject({ 'batch.kubernetes.io/job-completion-index': '2', team: 'batch' });
    expect(pod.metadata.labels).toMatchObject({ 'batch.kubernetes.io/job-completion-index': '2', 'batch.kubernetes.io/controller-uid': job.metadata.uid });
    expect(pod.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'train', uid: job.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(pod.spec.hostname).toBe('train-2');
    expect(pod.spec.subdomain).toBe('workers');
    const indexEnv = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } };
    expect(pod.spec.containers[0].env).toEqual([{ name: 'MODE', value: 'test' }, indexEnv]);
    expect(pod.spec.initContainers[0].env).toEqual([indexEnv]);
  });

  it('creates one pod when the same command is delivered twice, even across a restart', async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'train', completionMode: 'Indexed', completions: 2, managedBy: JOBFOLD_CONTROLLER_NAME }));
    const hash = await templateHashSeenByService(h.bus, job);
    h.sqs.send(QUEUE, createPod(job, 0, hash));
    await eventually(queueEmpty);
    await h.stopForwarder();
    const first = h;
    h = await startHarness({ fakes: first, spoolDir: first.spoolDir });
    h.sqs.send(QUEUE, createPod(job, 0, hash));

    await eventually(queueEmpty);
    expect(h.kube.store.list('pods')).toHaveLength(1);
  });

  it('creates nothing when the template changed since the decision', async () => {
    const job = h.kube.store.create('jobs', aJob({ managedBy: JOBFOLD_CONTROLLER_NAME }));
    h.sqs.send(QUEUE, createPod(job, undefined, '0000000000000000'));

    await eventually(queueEmpty);
    expect(h.kube.store.list('pods')).toEqual([]);
  });

  // Issue 21: the decision may rest on a view minutes old; the live Job and pods have the last word (shared/job/creation-guard.ts).
  it('creates nothing for an index whose pod is still active, and creates an index without one', async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'train', completionMode: 'Indexed', completions: 4, parallelism: 4, managedBy: JOBFOLD_CONTROLLER_NAME }));
    h.kube.store.create('pods', aPod(job, { name: 'train-2-abcde', index: 2, phase: 'Pending' }));
    h.kube.store.create('pods', aPod(job, { name: 'train-1-abcde', index: 1, phase: 'Failed' }));
    const hash = await templateHashSeenByService(h.bus, job);
    h.sqs.send(QUEUE, createPod(job, 2, hash, 0));
    h.sqs.send(QUEUE, createPod(job, 1, hash, 1));

    await eventually(queueEmpty);
    const created = (h.kube.store.list('pods') as any[]).filter((pod) => !['train-2-abcde', 'train-1-abcde'].includes(pod.metadata.name));
    expect(created.map((pod) => pod.metadata.annotations['batch.kubernetes.io/job-completion-index'])).toEqual(['1']);
  });

  it('creates nothing when the live Job already runs parallelism active pods; a finished or deleted pod does not count', async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'work', completions: 5, parallelism: 2, managedBy: JOBFOLD_CONTROLLER_NAME }));
    h.kube.store.create('pods', aPod(job, { name: 'work-a', phase: 'Running' }));
    h.kube.store.create('pods', aPod(job, { name: 'work-b', phase: 'Pending' }));
    const hash = await templateHashSeenByService(h.bus, job);
    h.sqs.send(QUEUE, createPod(job, undefined, hash, 0));
    await eventually(queueEmpty);
    expect(h.kube.store.list('pods')).toHaveLength(2);

    h.kube.store.update('pods', 'default', 'work-b', (pod: any) => (pod.status.phase = 'Succeeded'));
    h.kube.store.update('pods', 'default', 'work-a', (pod: any) => (pod.metadata.deletionTimestamp = '2026-01-01T00:00:10Z'));
    h.sqs.send(QUEUE, createPod(job, undefined, hash, 1));
    await eventually(queueEmpty);
    expect(h.kube.store.list('pods')).toHaveLength(3);
  });

  it('creates nothing once the pods the API server holds complete the Job or the index', async () => {
    const work = h.kube.store.create('jobs', aJob({ name: 'work', completions: 2, parallelism: 2, managedBy: JOBFOLD_CONTROLLER_NAME }));
    h.kube.store.create('pods', aPod(work, { name: 'work-a', phase: 'Succeeded' }));
    h.kube.store.create('pods', aPod(work, { name: 'work-b', phase: 'Running' }));
    const train = h.kube.store.create('jobs', aJob({ name: 'train', completionMode: 'Indexed', completions: 3, parallelism: 3, managedBy: JOBFOLD_CONTROLLER_NAME }));
    h.kube.store.create('pods', aPod(train, { name: 'train-0-abcde', index: 0, phase: 'Succeeded' }));
    h.sqs.send(QUEUE, createPod(work, undefined, await templateHashSeenByService(h.bus, work)));
    h.sqs.send(QUEUE, createPod(train, 0, await templateHashSeenByService(h.bus, train)));

    await eventually(queueEmpty);
    expect((h.kube.store.list('pods') as any[]).map((pod) => pod.metadata.name).sort()).toEqual(['train-0-abcde', 'work-a', 'work-b']);
  });

  it('creates nothing in place of a terminating pod under podReplacementPolicy: Failed, as upstream subtracts terminating pods', async () => {
    const base = aJob({ name: 'work', completions: 3, parallelism: 2, managedBy: JOBFOLD_CONTROLLER_NAME });
    const job = h.kube.store.create('jobs', { ...base, spec: { ...(base as any).spec, podReplacementPolicy: 'Failed' } });
    h.kube.store.create('pods', { ...aPod(job, { name: 'work-a', phase: 'Running' }), metadata: { ...aPod(job, { name: 'work-a' }).metadata, deletionTimestamp: '2026-01-01T00:00:10Z' } });
    const hash = await templateHashSeenByService(h.bus, job);
    h.sqs.send(QUEUE, createPod(job, undefined, hash, 0));
    h.sqs.send(QUEUE, createPod(job, undefined, hash, 1));

    await eventually(queueEmpty);
    expect(h.kube.store.list('pods')).toHaveLength(2);
  });

  it('creates nothing for an index whose tracked failed pod the decision did not count (backoffLimitPerIndex: the counts asked for are not above its own)', async () => {
    const job = h.kube.store.create('jobs', aJob({ name: 'train', completionMode: 'Indexed', completions: 3, parallelism: 3, managedBy: JOBFOLD_CONTROLLER_NAME }));
    const failedPod = aPod(job, { name: 'train-2-abcde', index: 2, phase: 'Failed', tracked: true });
    const annotations = { ...(failedPod.metadata as any).annotations, 'batch.kubernetes.io/job-index-failure-count': '0' };
    h.kube.store.create('pods', { ...failedPod, metadata: { ...failedPod.metadata, annotations } });
    const hash = await templateHashSeenByService(h.bus, job);
    h.sqs.send(QUEUE, createPodWithCounts(job, 2, hash, 0, 0));
    await eventually(queueEmpty);
    expect(h.kube.store.list('pods')).toHaveLength(1);

    h.sqs.send(QUEUE, createPodWithCounts(job, 2, hash, 1, 0));
    await eventually(queueEmpty);
    const created = (h.kube.store.list('pods') as any[]).filter((pod) => pod.metadata.name !== 'train-2-abcde');
    expect(created.map((pod) => pod.metadata.annotations['batch.kubernetes.io/job-index-failure-count'])).toEqual(['1']);
  });

  it('creates nothing for a Job suspended since the decision', async () => {
    const resumed = aJob({ managedBy: JOBFOLD_CONTROLLER_NAME, parallelism: 2 });
    const job = h.kube.store.create('jobs', { ...resumed, spec: { ...(resumed as any).spec, suspend: true } });
    h.sqs.send(QUEUE, createPod(job, undefined, await templateHashSeenByService(h.bus, job)));

    await eventually(queueEmpty);
    expect(h.kube.store.list('pods')).toEqual([]);
  });

  it('refuses a Job that jobfold does not manage: DLQ with reason job-not-managed, no pod', async () => {
    const job = h.kube.store.create('jobs', aJob());
    h.sqs.send(QUEUE, createPod(job, undefined, await templateHashSeenByService(h.bus, job)));

    await eventually(() => expect(deadLetters().map((d) => d.reason)).toEqual(['job-not-managed']));
    await eventually(queueEmpty);
    expect(h.kube.store.list('pods')).toEqual([]);
  });
});

describe('Applying UpdateJobStatus', () => {
  it('merge-patches jobs/status of a managed Job', async () => {
    const job = h.kube.store.create('jobs', aJob({ managedBy: JOBFOLD_CONTROLLER_NAME }));
    h.sqs.send(QUEUE, updateJobStatus(job));

    await eventually(queueEmpty);
    const patch = h.kube.requests.find((r) => r.method === 'PATCH');
    expect(patch?.path).toBe(`/apis/batch/v1/namespaces/default/jobs/${job.metadata.name}/status`);
    expect(patch?.contentType).toBe('application/merge-patch+json');
    const { failedIndexes: _null, ...written } = A_STATUS;
    expect(h.kube.store.get('jobs', 'default', job.metadata.name)?.status).toEqual(written);
  });

  it('does not touch a Job replaced by another with the same name', async () => {
    const job = h.kube.store.create('jobs', aJob({ managedBy: JOBFOLD_CONTROLLER_NAME }));
    h.kube.store.remove('jobs', 'default', job.metadata.name);
    h.kube.store.create('jobs', aJob({ managedBy: JOBFOLD_CONTROLLER_NAME }));
    h.sqs.send(QUEUE, updateJobStatus(job));

    await eventually(queueEmpty);
    expect(h.kube.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
  });
});

describe('Poison messages', () => {
  it.each([
    ['unparseable-body', 'not json at all'],
    ['unknown-detail-type', asQueueMessage('Pod Resurrection Requested', { clusterId: CLUSTER_ID })],
    ['unexpected-source', asQueueMessage('Pod Termination Requested', {}, 'someone.else')],
    ['invalid-detail', asQueueMessage('Pod Termination Requested', { clusterId: CLUSTER_ID, podName: 'x' })],
  ])('sends a message with reason %s to the DLQ, then deletes it', async (reason, body) => {
    h.sqs.send(QUEUE, body);

    await eventually(() => expect(deadLetters()).toEqual([{ reason, body }]));
    await eventually(queueEmpty);
    expect(h.metrics.get('forwarder_dead_letters_total', { reason })).toBe(1);
  });

  it('sends a command for another cluster to the DLQ as wrong-cluster, without acting on it', async () => {
    const job = h.kube.store.create('jobs', aJob());
    const pod = h.kube.store.create('pods', aPod(job, { name: 'job-a' }));
    h.sqs.send(QUEUE, terminatePod(job, pod).replace(`"clusterId":"${CLUSTER_ID}"`, '"clusterId":"c2"'));

    await eventually(() => expect(deadLetters().map((d) => d.reason)).toEqual(['wrong-cluster']));
    expect(h.kube.store.get('pods', 'default', 'job-a')).toBeDefined();
  });

  it('deletes Job Condition Changed events without a dead letter: they are not commands', async () => {
    h.sqs.send(QUEUE, asQueueMessage('Job Condition Changed', { clusterId: CLUSTER_ID }));

    await eventually(queueEmpty);
    expect(deadLetters()).toEqual([]);
  });
});
