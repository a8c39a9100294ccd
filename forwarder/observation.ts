import { CLUSTER_SOURCE_PREFIX, InboundDetailType } from '../shared/contract/inbound.ts';
import type { PACKED_DETAIL_TYPE } from '../shared/contract/packed-observations.ts';
import { partitionKeyProblem } from '../shared/contract/partition-key.ts';
import { owningJobSetUid, owningJobUid } from '../shared/contract/routing.ts';
import type { ObjectSequence } from '../shared/k8s/object-sequence.ts';
import { trimObject } from './trim.ts';

export type WatchedKind = 'Pod' | 'Job';

/** Who an event is about: enough to report the object deleted if it vanishes later. */
export interface ObjectIdentity {
  readonly kind: WatchedKind;
  readonly uid: string;
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly Readonly<Record<string, unknown>>[];
}

/**
 * One event on its way to the bus (and, if sending fails, in the spool): the PutEvents entry
 * fields plus the identity of the object, which the known-objects file is kept from.
 */
export interface OutgoingEvent {
  readonly source: string;
  readonly detailType: InboundDetailType | typeof PACKED_DETAIL_TYPE;
  /** The JSON text of `{eventId, observedAt, partitionKey, object, sequence?}` (a pack's: send/pack.ts). */
  readonly detail: string;
  readonly time: string;
  readonly eventId: string;
  readonly deleted: boolean;
  readonly subject: ObjectIdentity;
  /** The ingest stream's partition key (the Job's uid), when the detail has one: what packs group by. */
  readonly partitionKey?: string;
  /** A pack's observations, in order: who each is about (the known-objects file is kept from them). */
  readonly packed?: readonly PackedObservation[];
}

/** What the forwarder keeps of one observation sent in a pack. */
export type PackedObservation = Pick<OutgoingEvent, 'eventId' | 'deleted' | 'subject'>;

/** The observations an event carries: a pack's, or the event itself. */
export const observationsIn = (event: OutgoingEvent): readonly PackedObservation[] => event.packed ?? [event];

export type ObservationResult =
  /** `partitionKeyDropped`: why the Job's uid could not be the partition key (sent without one). */
  | { readonly ok: true; readonly event: OutgoingEvent; readonly partitionKeyDropped?: string }
  | { readonly ok: false; readonly reason: string };

/** List items carry no apiVersion and kind; every event names them, so both paths agree. */
const typeMeta = { Pod: { apiVersion: 'v1', kind: 'Pod' }, Job: { apiVersion: 'batch/v1', kind: 'Job' } } as const;

const detailTypes = {
  Pod: { observed: InboundDetailType.PodObserved, deleted: InboundDetailType.PodDeleted },
  Job: { observed: InboundDetailType.JobObserved, deleted: InboundDetailType.JobDeleted },
} as const;

/**
 * The event for an added or updated object. `eventId` is `<uid>/<resourceVersion>`: the same
 * for every retry, replay and relist of one version, so the service drops duplicates.
 */
export function observedEvent(
  clusterId: string,
  kind: WatchedKind,
  raw: unknown,
  observedAt: string,
  sequence?: ObjectSequence,
): ObservationResult {
  const trimmed = trimObject(detailTypes[kind].observed, raw);
  if (!trimmed.ok) return trimmed;
  const meta = metadataOf(trimmed.object);
  if (!meta.uid || !meta.resourceVersion) return { ok: false, reason: 'metadata.uid and metadata.resourceVersion are required' };
  return build(clusterId, kind, false, `${meta.uid}/${meta.resourceVersion}`, { ...typeMeta[kind], ...trimmed.object }, observedAt, sequence);
}

/**
 * The event for a deleted object. `eventId` is `<uid>/deleted`, one per object whether the
 * deletion came from a watch event or was found by a relist, so the two never count twice.
 */
export function deletedEvent(
  clusterId: string,
  kind: WatchedKind,
  raw: unknown,
  observedAt: string,
  sequence?: ObjectSequence,
): ObservationResult {
  const trimmed = trimObject(detailTypes[kind].deleted, raw);
  if (!trimmed.ok) return trimmed;
  const meta = metadataOf(trimmed.object);
  return build(clusterId, kind, true, `${meta.uid}/deleted`, { ...trimmed.object, kind }, observedAt, sequence);
}

/** A deletion event from a remembered identity (the object is gone from the API server). */
export function tombstoneEvent(
  clusterId: string,
  identity: ObjectIdentity,
  observedAt: string,
  sequence?: ObjectSequence,
): ObservationResult {
  const { kind, ...metadata } = identity;
  return deletedEvent(clusterId, kind, { kind, metadata }, observedAt, sequence);
}

function build(
  clusterId: string,
  kind: WatchedKind,
  deleted: boolean,
  eventId: string,
  object: Readonly<Record<string, unknown>>,
  observedAt: string,
  sequence: ObjectSequence | undefined,
): ObservationResult {
  const meta = metadataOf(object);
  const subject: ObjectIdentity = {
    kind,
    uid: meta.uid ?? '',
    name: meta.name ?? '',
    ...(meta.namespace === undefined ? {} : { namespace: meta.namespace }),
    ...(meta.labels === undefined ? {} : { labels: meta.labels }),
    ...(meta.ownerReferences === undefined ? {} : { ownerReferences: meta.ownerReferences }),
  };
  const detailType = deleted ? detailTypes[kind].deleted : detailTypes[kind].observed;
  const wanted = partitionKeyOf(kind, meta);
  // A key Kinesis refuses would dead-letter the event at the bus's target: send it without one
  // (keyed by the event id, which costs only ordering) and say so.
  const problem = wanted === undefined ? undefined : partitionKeyProblem(wanted);
  const partitionKey = problem === undefined ? wanted : undefined;
  const detail = JSON.stringify({ eventId, observedAt, ...(partitionKey ? { partitionKey } : {}), object, ...(sequence ? { sequence } : {}) });
  const source = `${CLUSTER_SOURCE_PREFIX}${clusterId}`;
  const event: OutgoingEvent = { source, detailType, detail, time: observedAt, eventId, deleted, subject, ...(partitionKey ? { partitionKey } : {}) };
  return problem === undefined ? { ok: true, event } : { ok: true, event, partitionKeyDropped: `partitionKey ${problem}` };
}

/**
 * The ingest stream's partition key (the bus rule's PartitionKeyPath, `$.detail.partitionKey`):
 * the uid of the log the event goes to, so that all of one log's events reach one writer, in
 * order — a pod's is its owning Job's. A JobSet's child Jobs and their pods are keyed by the
 * JobSet's uid instead (`jobset.sigs.k8s.io/jobset-uid`, which the JobSet controller stamps on
 * both, or the Job's JobSet owner): the writer then reads a JobSet's Jobs in the cluster's order
 * and reports their statuses to the JobSet's log in that order. A pod with no owning Job
 * (refused by the service anyway) keys by its own uid. Without a uid there is none, and
 * EventBridge keys the record by the event's id.
 */
function partitionKeyOf(kind: WatchedKind, meta: TrimmedMeta): string | undefined {
  const uid = meta.uid || undefined;
  const jobSet = owningJobSetUid(meta);
  if (jobSet !== undefined) return jobSet;
  if (kind === 'Job') return uid;
  return owningJobUid({ metadata: meta } as Parameters<typeof owningJobUid>[0]) || uid;
}

interface TrimmedMeta {
  readonly uid?: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly resourceVersion?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly Readonly<Record<string, unknown>>[];
}

const metadataOf = (object: Readonly<Record<string, unknown>>): TrimmedMeta => (object.metadata ?? {}) as TrimmedMeta;
