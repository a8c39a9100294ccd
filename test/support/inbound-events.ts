import { CLUSTER_SOURCE_PREFIX, InboundDetailType } from '../../shared/contract/inbound.ts';
import type { StreamId } from '../../shared/log/event-store.ts';
import type { Job } from '../../shared/k8s/job.ts';
import type { Pod } from '../../shared/k8s/pod.ts';
import type { EventBridgeEvent } from 'aws-lambda';

// Builders of inbound EventBridge events (docs/events.md) as a cluster's forwarder puts them on
// the bus and a rule delivers them: `source` names the cluster, `detail` is
// `{ eventId, observedAt, object }`. Event ids default to uid + state + time, stable per call.

export const SERVICE_CLUSTER = 'cluster-a';

/** An EventBridge event as a rule hands it to its target. */
export type InboundEnvelope = EventBridgeEvent<string, unknown>;

export interface InboundOptions {
  readonly clusterId?: string;
  readonly eventId?: string;
}

let bridgeIds = 0;

/** Wraps a detail in the EventBridge envelope; EventBridge's own `id` differs on every call. */
export function inboundEvent(detailType: string, detail: unknown, clusterId = SERVICE_CLUSTER): InboundEnvelope {
  bridgeIds++;
  return {
    version: '0',
    id: `eb-${String(bridgeIds).padStart(8, '0')}`,
    'detail-type': detailType,
    source: `${CLUSTER_SOURCE_PREFIX}${clusterId}`,
    account: '123456789012',
    time: '2026-01-01T00:00:00Z',
    region: 'eu-west-1',
    resources: [],
    detail,
  };
}

/** `Job Observed`: the Job as the cluster reports it at `observedAt`. */
export function jobObservedEvent(job: Job, observedAt: string, options: InboundOptions = {}): InboundEnvelope {
  const eventId = options.eventId ?? `${job.metadata.uid}/job/${observedAt}`;
  return inboundEvent(InboundDetailType.JobObserved, { eventId, observedAt, object: job }, options.clusterId);
}

/** `Job Deleted`: the Job left the cluster. */
export function jobDeletedEvent(job: Job, observedAt: string, options: InboundOptions = {}): InboundEnvelope {
  const eventId = options.eventId ?? `${job.metadata.uid}/deleted`;
  const object = { kind: 'Job', metadata: job.metadata };
  return inboundEvent(InboundDetailType.JobDeleted, { eventId, observedAt, object }, options.clusterId);
}

/** `Pod Observed`: the pod (owned by `job`) in its current state. */
export function podObservedEvent(pod: Pod, job: Job, observedAt: string, options: InboundOptions = {}): InboundEnvelope {
  const eventId = options.eventId ?? `${pod.metadata.uid}/${pod.status?.phase ?? 'Pending'}/${observedAt}`;
  const object = ownedBy(pod, job);
  return inboundEvent(InboundDetailType.PodObserved, { eventId, observedAt, object }, options.clusterId);
}

/** `Pod Deleted`: the pod's last known identity, with its owner. */
export function podDeletedEvent(pod: Pod, job: Job, observedAt: string, options: InboundOptions = {}): InboundEnvelope {
  const eventId = options.eventId ?? `${pod.metadata.uid}/deleted`;
  const { name, namespace, uid } = pod.metadata;
  const object = { kind: 'Pod', metadata: { name, namespace, uid, ownerReferences: ownerReferences(job) } };
  return inboundEvent(InboundDetailType.PodDeleted, { eventId, observedAt, object }, options.clusterId);
}

/** The pod with a controller ownerReference to the Job, as the Job controller creates pods. */
export function ownedBy(pod: Pod, job: Job): Pod {
  return { ...pod, metadata: { ...pod.metadata, ownerReferences: ownerReferences(job) } };
}

function ownerReferences(job: Job) {
  const uid = job.metadata.uid ?? '';
  return [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid, controller: true }];
}

/** The log a Job's events go to. */
export function jobStream(job: Job, clusterId = SERVICE_CLUSTER): StreamId {
  return { kind: 'Job', clusterId, namespace: job.metadata.namespace ?? 'default', uid: job.metadata.uid ?? '' };
}
