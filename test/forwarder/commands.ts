import { randomUUID } from 'node:crypto';
import { commandEvent } from '../../shared/contract/outbound.ts';
import type { CreatePod, RemovePodFinalizer, TerminatePod, UpdateJobStatus } from '../../shared/job/commands.ts';
import type { TerminationCause } from '../../shared/job/decisions.ts';
import type { FinalizerRemovalCause } from '../../shared/job/finalizer-guard.ts';
import type { JobStatusView } from '../../shared/job/status.ts';
import type { KubeObject } from './fake-kube-store.ts';
import { CLUSTER_ID } from './harness.ts';

/** The SQS body a rule delivers for an event on the bus: the EventBridge event JSON. */
export function asQueueMessage(detailType: string, detail: unknown, source = 'jobfold.control'): string {
  return JSON.stringify({
    version: '0',
    id: randomUUID(),
    'detail-type': detailType,
    source,
    account: '000000000000',
    time: '2026-01-01T00:00:00Z',
    region: 'us-east-1',
    resources: [],
    detail,
  });
}

const target = (job: KubeObject) => ({
  clusterId: CLUSTER_ID,
  namespace: job.metadata.namespace ?? 'default',
  jobName: job.metadata.name,
  jobUid: job.metadata.uid ?? '',
});

/** A TerminatePod command as the service sends it (through shared/contract/outbound.ts). */
export function terminatePod(job: KubeObject, pod: KubeObject, cause: TerminationCause = 'JobFinishing'): string {
  const command: TerminatePod = {
    type: 'TerminatePod',
    commandId: `${job.metadata.uid}/terminate/${pod.metadata.uid}`,
    ...target(job),
    podName: pod.metadata.name,
    podUid: pod.metadata.uid ?? '',
    ...(cause === 'JobFinishing' ? { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' } : { reason: cause, message: `${cause} (jobfold)` }),
    cause,
  };
  const event = commandEvent(command);
  return asQueueMessage(event.detailType, event.detail);
}

export function createPod(job: KubeObject, index: number | undefined, templateHash: string, n = 0): string {
  const command: CreatePod = { type: 'CreatePod', commandId: `${job.metadata.uid}/create/${n}`, ...target(job), index, templateHash };
  const event = commandEvent(command);
  return asQueueMessage(event.detailType, event.detail);
}

export const A_STATUS: JobStatusView = {
  conditions: [{ type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods', lastTransitionTime: '2026-01-01T00:01:00Z' }],
  startTime: '2026-01-01T00:00:00Z',
  completionTime: '2026-01-01T00:01:00Z',
  active: 0,
  ready: 0,
  terminating: 0,
  succeeded: 2,
  failed: 0,
  completedIndexes: '0-1',
  failedIndexes: null,
};

export function updateJobStatus(job: KubeObject, status: JobStatusView = A_STATUS): string {
  const command: UpdateJobStatus = { type: 'UpdateJobStatus', commandId: `${job.metadata.uid}/status/1`, ...target(job), status };
  const event = commandEvent(command);
  return asQueueMessage(event.detailType, event.detail);
}

/**
 * A RemovePodFinalizer command as the service sends it, with its cause; `cause: null`, as a
 * jobfold before causes sent it (no `cause` in the detail).
 */
export function removePodFinalizer(job: KubeObject, pod: KubeObject, cause: FinalizerRemovalCause | null = 'PodSucceeded'): string {
  const command: RemovePodFinalizer = {
    type: 'RemovePodFinalizer',
    commandId: `${job.metadata.uid}/finalizer/${pod.metadata.uid}`,
    ...target(job),
    podName: pod.metadata.name,
    podUid: pod.metadata.uid ?? '',
    cause: cause ?? 'PodSucceeded',
  };
  const event = commandEvent(command);
  if (cause !== null) return asQueueMessage(event.detailType, event.detail);
  const { cause: _cause, ...before } = event.detail;
  return asQueueMessage(event.detailType, before);
}

/** A CreatePod of a Job with backoffLimitPerIndex: the new pod's failure counts. */
export function createPodWithCounts(job: KubeObject, index: number, templateHash: string, failures: number, ignored: number): string {
  const command: CreatePod = {
    type: 'CreatePod',
    commandId: `${job.metadata.uid}/create/${index}-${failures}-${ignored}`,
    ...target(job),
    index,
    templateHash,
    indexFailureCount: failures,
    indexIgnoredFailureCount: ignored,
  };
  const event = commandEvent(command);
  return asQueueMessage(event.detailType, event.detail);
}
