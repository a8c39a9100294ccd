import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { asQueueMessage } from './commands.ts';
import { CLUSTER_ID, DLQ, eventually, QUEUE, startHarness, type Harness } from './harness.ts';
import { aChildJobManifest, aJobSet, asStored, aStoredJobSet, createJob, deleteJob, deleteJobSet, setJobSuspend } from './jobset-commands.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const queueEmpty = () => expect(h.sqs.pending(QUEUE)).toEqual([]);
const deadLetters = () => h.sqs.pending(DLQ).map((m) => m.attributes.reason?.StringValue);
const requests = (method: string) => h.kube.requests.filter((r) => r.method === method && r.path.includes('/jobs'));
const notes = () => h.logs.filter((l) => l.msg === 'command applied').map((l) => l.note);

/** Stops the forwarder and starts a new one on the same fakes: it has forgotten the command ids. */
async function restart(): Promise<void> {
  await h.stopForwarder();
  h = await startHarness({ fakes: h, spoolDir: h.spoolDir });
}

describe('Applying CreateJob', () => {
  it('creates the Job from the manifest, labels, annotations and owner included', async () => {
    const jobSet = aJobSet();
    const manifest = aChildJobManifest({ jobSet, suspend: true });
    h.sqs.send(QUEUE, createJob(jobSet, manifest));

    await eventually(queueEmpty);
    const [post] = requests('POST');
    expect(post?.path).toBe('/apis/batch/v1/namespaces/default/jobs');
    expect(post?.body).toMatchObject({ metadata: { name: 'train-workers-0', labels: manifest.metadata.labels, annotations: manifest.metadata.annotations, ownerReferences: manifest.metadata.ownerReferences } });
    expect(h.kube.store.get('jobs', 'default', 'train-workers-0')?.spec).toMatchObject({ suspend: true, parallelism: 1 });
    expect(deadLetters()).toEqual([]);
  });

  it('counts AlreadyExists with the same JobSet labels as done on redelivery', async () => {
    const jobSet = aJobSet();
    const manifest = aChildJobManifest({ jobSet });
    h.sqs.send(QUEUE, createJob(jobSet, manifest));
    await eventually(queueEmpty);
    await restart();
    h.sqs.send(QUEUE, createJob(jobSet, manifest));

    await eventually(queueEmpty);
    expect(h.kube.store.list('jobs')).toHaveLength(1);
    expect(notes()).toEqual(['already-exists']);
    expect(deadLetters()).toEqual([]);
  });

  it('waits while the previous restart attempt\'s Job holds the name, then creates the new one', async () => {
    const jobSet = aJobSet();
    h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet, restartAttempt: 0 })));
    const message = h.sqs.send(QUEUE, createJob(jobSet, aChildJobManifest({ jobSet, restartAttempt: 1 }), 1));

    await eventually(() => expect(h.metrics.get('forwarder_commands_total', { type: 'CreateJob', outcome: 'transient' })).toBe(1));
    h.kube.store.remove('jobs', 'default', 'train-workers-0');

    await eventually(queueEmpty);
    expect(message.deletedOnDelivery).toBe(2);
    expect(h.kube.store.get('jobs', 'default', 'train-workers-0')?.metadata.labels?.['jobset.sigs.k8s.io/restart-attempt']).toBe('1');
  });

  it('sends a manifest that names another Job to the DLQ as invalid-detail', async () => {
    const jobSet = aJobSet();
    const manifest = aChildJobManifest({ jobSet });
    h.sqs.send(QUEUE, createJob(jobSet, manifest).replace('"jobName":"train-workers-0"', '"jobName":"other"'));

    await eventually(() => expect(deadLetters()).toEqual(['invalid-detail']));
    expect(requests('POST')).toEqual([]);
  });
});

describe('Applying DeleteJob', () => {
  it('deletes the Job with Foreground propagation and a uid precondition', async () => {
    const jobSet = aJobSet();
    const job = h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet })));
    h.sqs.send(QUEUE, deleteJob(jobSet, job.metadata.name));

    await eventually(queueEmpty);
    const [deletion] = requests('DELETE');
    expect(deletion?.path).toBe('/apis/batch/v1/namespaces/default/jobs/train-workers-0');
    expect(deletion?.body).toMatchObject({ propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid } });
    expect(h.kube.store.get('jobs', 'default', job.metadata.name)?.metadata.deletionTimestamp).toBeDefined();
  });

  it('does not delete again on redelivery while the Job is being deleted', async () => {
    const jobSet = aJobSet();
    const job = h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet })));
    h.sqs.send(QUEUE, deleteJob(jobSet, job.metadata.name));
    await eventually(queueEmpty);
    await restart();
    h.sqs.send(QUEUE, deleteJob(jobSet, job.metadata.name));

    await eventually(queueEmpty);
    expect(requests('DELETE')).toHaveLength(1);
    expect(notes()).toEqual(['job-deleting']);
  });

  it('counts a Job that is already gone (404) as done', async () => {
    h.sqs.send(QUEUE, deleteJob(aJobSet(), 'train-workers-0'));

    await eventually(queueEmpty);
    expect(requests('DELETE')).toEqual([]);
    expect(notes()).toEqual(['job-gone']);
    expect(deadLetters()).toEqual([]);
  });

  it('leaves alone a Job of the same name that another JobSet owns (job-replaced)', async () => {
    const job = h.kube.store.create('jobs', asStored(aChildJobManifest()));
    h.sqs.send(QUEUE, deleteJob(aJobSet(), job.metadata.name));

    await eventually(queueEmpty);
    expect(requests('DELETE')).toEqual([]);
    expect(h.kube.store.get('jobs', 'default', job.metadata.name)?.metadata.deletionTimestamp).toBeUndefined();
    expect(notes()).toEqual(['job-replaced']);
  });
});

describe('Applying SuspendJob and ResumeJob', () => {
  it('merge-patches spec.suspend to true', async () => {
    const jobSet = aJobSet();
    h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet })));
    h.sqs.send(QUEUE, setJobSuspend(jobSet, 'train-workers-0', 'SuspendJob'));

    await eventually(queueEmpty);
    const [patch] = requests('PATCH');
    expect(patch?.path).toBe('/apis/batch/v1/namespaces/default/jobs/train-workers-0');
    expect(patch?.contentType).toBe('application/merge-patch+json');
    expect(patch?.body).toEqual({ spec: { suspend: true } });
    expect(h.kube.store.get('jobs', 'default', 'train-workers-0')?.spec).toMatchObject({ suspend: true, parallelism: 1 });
  });

  it('resumes once: a redelivery finds spec.suspend already false and patches nothing', async () => {
    const jobSet = aJobSet();
    h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet, suspend: true })));
    h.sqs.send(QUEUE, setJobSuspend(jobSet, 'train-workers-0', 'ResumeJob'));
    await eventually(queueEmpty);
    await restart();
    h.sqs.send(QUEUE, setJobSuspend(jobSet, 'train-workers-0', 'ResumeJob'));

    await eventually(queueEmpty);
    expect(requests('PATCH').map((r) => r.body)).toEqual([{ spec: { suspend: false } }]);
    expect(notes()).toEqual(['already-resumed']);
    expect(h.kube.store.get('jobs', 'default', 'train-workers-0')?.spec).toMatchObject({ suspend: false });
  });

  it.each(['SuspendJob', 'ResumeJob'] as const)('counts %s of a Job that is gone (404) as done', async (type) => {
    const jobSet = aJobSet();
    h.kube.store.create('jobs', asStored(aChildJobManifest({ jobSet })));
    h.kube.failNext('PATCH', /\/jobs\/train-workers-0$/, 404);
    h.kube.store.update('jobs', 'default', 'train-workers-0', (job) => void ((job.spec as { suspend: boolean }).suspend = type === 'ResumeJob'));
    h.sqs.send(QUEUE, setJobSuspend(jobSet, 'train-workers-0', type));

    await eventually(queueEmpty);
    expect(notes()).toEqual(['not-found']);
    expect(deadLetters()).toEqual([]);
  });
});

describe('JobSet Condition Changed', () => {
  it('is deleted without a dead letter: it is not a command', async () => {
    h.sqs.send(QUEUE, asQueueMessage('JobSet Condition Changed', { clusterId: CLUSTER_ID, decision: 'JobSetCompleted' }));

    await eventually(queueEmpty);
    expect(deadLetters()).toEqual([]);
    expect(h.metrics.get('forwarder_commands_total', { type: 'JobSet Condition Changed', outcome: 'ignored' })).toBe(1);
  });
});

describe('Applying DeleteJobSet', () => {
  it('deletes the JobSet with Foreground propagation and a uid precondition', async () => {
    const jobSet = aJobSet();
    h.kube.store.create('jobsets', aStoredJobSet(jobSet));
    h.sqs.send(QUEUE, deleteJobSet(jobSet));

    await eventually(queueEmpty);
    const [request] = h.kube.requests.filter((r) => r.method === 'DELETE');
    expect(request?.path).toBe('/apis/jobset.x-k8s.io/v1alpha2/namespaces/default/jobsets/train');
    expect(request?.body).toMatchObject({ propagationPolicy: 'Foreground', preconditions: { uid: jobSet.uid } });
    expect(h.kube.store.get('jobsets', 'default', 'train')?.metadata.deletionTimestamp).toBeDefined();
    expect(notes()).toEqual(['deleted']);
  });

  it('leaves a JobSet recreated under the name alone, and counts a JobSet already gone as done', async () => {
    const jobSet = aJobSet();
    h.kube.store.create('jobsets', aStoredJobSet({ ...jobSet, uid: 'another-uid' }));
    h.sqs.send(QUEUE, deleteJobSet(jobSet));
    h.sqs.send(QUEUE, deleteJobSet(aJobSet('gone')));

    await eventually(queueEmpty);
    expect(h.kube.store.get('jobsets', 'default', 'train')?.metadata.deletionTimestamp).toBeUndefined();
    expect(notes()).toEqual(['jobset-replaced', 'jobset-gone']);
    expect(deadLetters()).toEqual([]);
  });
});
