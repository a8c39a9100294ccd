import { randomUUID } from 'node:crypto';
import { jobSetCommandEvent, type JobSetIdentity } from '../../shared/contract/outbound.ts';
import type { JobManifest, JobSetCommand } from '../../shared/jobset/commands.ts';
import { JOBSET_API_VERSION, LABELS } from '../../shared/jobset/constants.ts';
import { asQueueMessage } from './commands.ts';
import type { KubeObject } from './fake-kube-store.ts';
import { CLUSTER_ID } from './harness.ts';

export interface ChildJobOptions {
  readonly jobSet?: JobSetIdentity;
  readonly replicatedJob?: string;
  readonly jobIndex?: number;
  readonly restartAttempt?: number;
  readonly suspend?: boolean;
}

/** A JobSet in this cluster, as the service identifies it. */
export const aJobSet = (name = 'train'): JobSetIdentity => ({ clusterId: CLUSTER_ID, namespace: 'default', name, uid: randomUUID() });

/** A child Job as the JobSet controller constructs it (`constructJob`), labelled and owned. */
export function aChildJobManifest(options: ChildJobOptions = {}): JobManifest {
  const jobSet = options.jobSet ?? aJobSet();
  const replicatedJob = options.replicatedJob ?? 'workers';
  const jobIndex = options.jobIndex ?? 0;
  const name = `${jobSet.name}-${replicatedJob}-${jobIndex}`;
  const stamp = {
    [LABELS.jobSetName]: jobSet.name,
    [LABELS.replicatedJobName]: replicatedJob,
    [LABELS.jobIndex]: String(jobIndex),
    [LABELS.restartAttempt]: String(options.restartAttempt ?? 0),
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: jobSet.namespace,
      labels: { team: 'ml', ...stamp },
      annotations: stamp,
      ownerReferences: [{ apiVersion: JOBSET_API_VERSION, kind: 'JobSet', name: jobSet.name, uid: jobSet.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      parallelism: 1,
      completions: 1,
      suspend: options.suspend ?? false,
      template: {
        metadata: { labels: stamp, annotations: stamp },
        spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
      },
    },
  } as JobManifest;
}

/** The manifest as the API server stores it. */
export const asStored = (manifest: JobManifest): KubeObject => structuredClone(manifest) as unknown as KubeObject;

/** The SQS body for a JobSet command, built by shared/contract/outbound.ts. */
export function jobSetMessage(jobSet: JobSetIdentity, command: JobSetCommand): string {
  const event = jobSetCommandEvent(jobSet, command);
  return asQueueMessage(event.detailType, event.detail);
}

export function createJob(jobSet: JobSetIdentity, manifest: JobManifest, restartAttempt = 0): string {
  const labels = manifest.metadata.labels;
  return jobSetMessage(jobSet, {
    type: 'CreateJob',
    commandId: `${jobSet.uid}/${restartAttempt}/${manifest.metadata.name}/CreateJob/1`,
    namespace: jobSet.namespace,
    name: manifest.metadata.name,
    replicatedJob: labels[LABELS.replicatedJobName] ?? '',
    jobIndex: Number(labels[LABELS.jobIndex]),
    restartAttempt,
    suspend: manifest.spec.suspend ?? false,
    job: manifest,
  });
}

export function deleteJob(jobSet: JobSetIdentity, jobName: string): string {
  const commandId = `${jobSet.uid}/0/${jobName}/DeleteJob/2`;
  return jobSetMessage(jobSet, { type: 'DeleteJob', commandId, namespace: jobSet.namespace, name: jobName, propagationPolicy: 'Foreground' });
}

export function setJobSuspend(jobSet: JobSetIdentity, jobName: string, type: 'SuspendJob' | 'ResumeJob'): string {
  return jobSetMessage(jobSet, { type, commandId: `${jobSet.uid}/0/${jobName}/${type}/3`, namespace: jobSet.namespace, name: jobName });
}

export function deleteJobSet(jobSet: JobSetIdentity): string {
  const commandId = `${jobSet.uid}/DeleteJobSet/9`;
  return jobSetMessage(jobSet, { type: 'DeleteJobSet', commandId, namespace: jobSet.namespace, name: jobSet.name, propagationPolicy: 'Foreground' });
}

/** The JobSet as the API server stores it, under the identity the service knows. */
export const aStoredJobSet = (jobSet: JobSetIdentity): KubeObject => ({
  apiVersion: JOBSET_API_VERSION,
  kind: 'JobSet',
  metadata: { name: jobSet.name, namespace: jobSet.namespace, uid: jobSet.uid },
  spec: { replicatedJobs: [] },
});
