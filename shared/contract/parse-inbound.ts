import type * as z from 'zod';
import type { NewEntry } from '../log/event-store.ts';
import { observationEntry } from '../job/log-codec.ts';
import type { Observation } from '../job/events.ts';
import { jobSetObservationEntry, type JobSetObservation } from '../jobset/events.ts';
import { utf8Bytes } from '../k8s/bounded-text.ts';
import type { ObjectMeta } from '../k8s/meta.ts';
import type { ObjectSequence } from '../k8s/object-sequence.ts';
import { validateObjectMeta } from '../job/validation/object-meta.ts';
import {
  ClusterSourceSchema,
  InboundEventSchema,
  inboundDetailSchemas,
  jobSetDetailSchemas,
  type InboundDetailType,
  type JobSetDetailType,
} from './inbound.ts';
import { MAX_EVENT_BYTES, MAX_JSON_DEPTH, measure } from './measure.ts';
import { creatorJobUid, owningJobUid, type StreamKey } from './routing.ts';

// The one inbound parser, for every kind: the envelope is checked the same way for all, the
// detail is parsed with its detail-type's schema (shared/contract/inbound.ts), and the detail-
// type's route (ROUTES below) says which logs the event goes to — its own object's, and the
// logs it is also news for. Each kind's observations have their own shape (the Job fold's
// Observation, the JobSet fold's JobSetObservation), so each route builds its kind's entry.

/** One reason an inbound event was refused, naming the field. */
export interface InboundError {
  readonly path: string;
  readonly message: string;
}

/** Where one inbound event goes: one entry per log it concerns. */
export interface InboundTarget {
  readonly stream: StreamKey;
  readonly entry: NewEntry;
}

export type InboundResult =
  | { readonly ok: true; readonly targets: readonly InboundTarget[] }
  | { readonly ok: false; readonly errors: readonly InboundError[] };

const DETAIL_SCHEMAS = { ...inboundDetailSchemas, ...jobSetDetailSchemas } as const;
type DetailType = InboundDetailType | JobSetDetailType;
type Detail<T extends DetailType> = z.infer<(typeof DETAIL_SCHEMAS)[T]>;

/** Every detail-type a single inbound event may have (a pack is read by parse-inbound-record.ts). */
export const ALL_DETAIL_TYPES = Object.keys(DETAIL_SCHEMAS) as DetailType[];

/**
 * Parses an inbound EventBridge event into the entries it adds, one per log it concerns: Job and
 * Pod events for the Job's log, JobSet events for the JobSet's log, a child Job's deletion also
 * for its JobSet's log, and a pod another Job controls now also for the log of the Job that
 * created it. `detailTypes`: the ones the caller takes (a Job trace takes no JobSet event). Never
 * throws: every problem comes back with the path of the offending field.
 */
export function parseInbound(event: unknown, detailTypes: readonly string[] = ALL_DETAIL_TYPES): InboundResult {
  const checked = checkEnvelope(event, detailTypes);
  if (!checked.ok) return checked;
  const detailType = checked.detailType as DetailType;
  const parsed = DETAIL_SCHEMAS[detailType].safeParse(checked.detail);
  if (!parsed.success) return zodFail('detail', parsed.error);
  const routed = route(detailType, checked.clusterId, parsed.data);
  if (!routed.ok) return routed;
  const oversized = checkStreamKey(routed.target.stream);
  if (oversized) return { ok: false, errors: [oversized] };
  const targets = [routed.target];
  for (const { target, oversizedPath } of routed.also ?? []) {
    const tooLong = checkStreamKey(target.stream);
    if (tooLong && oversizedPath !== undefined) return { ok: false, errors: [{ ...tooLong, path: oversizedPath }] };
    if (!tooLong) targets.push(target);
  }
  return { ok: true, targets };
}

/** The envelope of a valid inbound event: its cluster, detail-type and raw detail. */
export type CheckedEnvelope =
  | { readonly ok: true; readonly clusterId: string; readonly detailType: string; readonly detail: unknown }
  | { readonly ok: false; readonly errors: readonly InboundError[] };

/**
 * The checks every inbound event passes before its detail is read: size and depth limits, the
 * EventBridge envelope, the cluster source, a known detail-type, and no cluster named in the
 * payload.
 */
export function checkEnvelope(event: unknown, detailTypes: readonly string[]): CheckedEnvelope {
  const size = measure(event);
  if (size.forbiddenKey) return fail(size.forbiddenKey, 'the key "__proto__" is not allowed');
  if (size.illFormed) {
    return fail(size.illFormed.path, `${size.illFormed.in} holds a lone UTF-16 surrogate (not well-formed Unicode; the store keeps UTF-8)`);
  }
  if (size.depth > MAX_JSON_DEPTH) return fail('', `nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (size.bytes > MAX_EVENT_BYTES) return fail('', `event is ${size.bytes} bytes; the limit is ${MAX_EVENT_BYTES}`);
  const envelope = InboundEventSchema.safeParse(event);
  if (!envelope.success) return zodFail('', envelope.error);
  const source = ClusterSourceSchema.safeParse(envelope.data.source);
  if (!source.success) return zodFail('source', source.error);
  const detailType = envelope.data['detail-type'];
  if (!detailTypes.includes(detailType)) {
    return fail('detail-type', `unknown detail-type "${detailType}"; expected one of ${detailTypes.map((t) => `"${t}"`).join(', ')}`);
  }
  const rawDetail = envelope.data.detail;
  if (typeof rawDetail === 'object' && rawDetail !== null) {
    for (const key of ['clusterId', 'cluster', 'source']) {
      if (key in rawDetail) {
        return fail(`detail.${key}`, 'the cluster is taken from the event source; the payload must not name one');
      }
    }
  }
  return { ok: true, clusterId: source.data, detailType, detail: rawDetail };
}

/**
 * What a route makes of a parsed detail: the target of the event's own object, and `also`,
 * targets in other logs; one whose key is too long is refused as `oversizedPath`, or, without
 * one, not told.
 */
type Routed =
  | { readonly ok: true; readonly target: InboundTarget; readonly also?: readonly { readonly target: InboundTarget; readonly oversizedPath?: string }[] }
  | { readonly ok: false; readonly errors: InboundError[] };

/** Per detail-type: the checks its object passes beyond its schema, and the logs it goes to. */
const ROUTES: { readonly [T in DetailType]: (clusterId: string, detail: Detail<T>) => Routed } = {
  'Pod Observed': (clusterId, { eventId, observedAt, object: pod, sequence }) => {
    const jobUid = owningJob(pod.metadata, pod);
    if (typeof jobUid !== 'string') return jobUid;
    const stream = streamOf('Job', clusterId, pod.metadata.namespace, jobUid);
    const observation: Observation = { type: 'PodObserved', eventId, clusterId, observedAt, pod, ...stamped(sequence) };
    // The Job that created the pod is told it is another's now (routing.ts). A uid no Job can have
    // (over 128 bytes) names no log to tell.
    const creator = creatorJobUid(pod);
    const also = creator === undefined ? [] : [{ target: jobTarget({ ...stream, uid: creator }, { ...observation, controlledBy: jobUid }) }];
    return { ok: true, target: jobTarget(stream, observation), also };
  },
  'Pod Deleted': (clusterId, { eventId, observedAt, object, sequence }) => {
    const jobUid = owningJob(object.metadata, object);
    if (typeof jobUid !== 'string') return jobUid;
    const { uid, name, namespace } = object.metadata;
    const observation: Observation = { type: 'PodDeleted', eventId, clusterId, observedAt, uid, name, namespace, ...stamped(sequence) };
    return { ok: true, target: jobTarget(streamOf('Job', clusterId, namespace, jobUid), observation) };
  },
  'Job Observed': (clusterId, { eventId, observedAt, object: job, sequence }) => {
    const refused = refuseWithoutUid(job.metadata, 'a Job must carry its uid') ?? refuseInvalidMetadata(job.metadata);
    if (refused) return refused;
    // The spec is not checked here: the fold validates it as the API server does and records
    // the rejection in the Job's log, in upstream's words (shared/job/validation).
    const stream = streamOf('Job', clusterId, job.metadata.namespace, job.metadata.uid as string);
    return { ok: true, target: jobTarget(stream, { type: 'JobObserved', eventId, clusterId, observedAt, job, ...stamped(sequence) }) };
  },
  'Job Deleted': (clusterId, { eventId, observedAt, object, sequence }) => {
    const refused = refuseInvalidMetadata(object.metadata);
    if (refused) return refused;
    const { uid, name, namespace, ownerReferences } = object.metadata;
    const target = jobTarget(streamOf('Job', clusterId, namespace, uid), { type: 'JobDeleted', eventId, clusterId, observedAt, uid });
    // A child Job that left the cluster is also news for its JobSet. Child Job *statuses* reach
    // the JobSet from jobfold's own Job decisions (shared/job/child-job-status.ts), so that the
    // JobSet sees KEP-4443 reasons.
    const owner = ownerReferences?.find((r) => r.kind === 'JobSet');
    if (!owner) return { ok: true, target };
    const id = `${eventId}/jobset`;
    // Its `jobSetSeq` goes with it: the JobSet's log waits for each count (shared/jobset/child-counts.ts).
    const count = sequence !== undefined && 'jobSetSeq' in sequence ? (sequence.jobSetSeq as number | undefined) : undefined;
    const jobSetSeq = sequence === undefined || count === undefined ? {} : { jobSetSeq: { epoch: sequence.epoch, counts: [count] } };
    const child = jobSetTarget(streamOf('JobSet', clusterId, namespace, owner.uid), { type: 'JobDeleted', at: observedAt, eventId: id, name, uid, ...jobSetSeq });
    return { ok: true, target, also: [{ target: child, oversizedPath: 'detail.object.metadata.ownerReferences (JobSet uid)' }] };
  },
  'JobSet Observed': (clusterId, { eventId, observedAt, object: jobSet, sequence }) => {
    const refused = refuseWithoutUid(jobSet.metadata, 'a JobSet must carry its uid') ?? refuseInvalidMetadata(jobSet.metadata);
    if (refused) return refused;
    const stream = streamOf('JobSet', clusterId, jobSet.metadata.namespace, jobSet.metadata.uid as string);
    return { ok: true, target: jobSetTarget(stream, { type: 'JobSetObserved', at: observedAt, eventId, jobSet, ...stamped(sequence) }) };
  },
  'JobSet Deleted': (clusterId, { eventId, observedAt, object }) => {
    const refused = refuseInvalidMetadata(object.metadata);
    if (refused) return refused;
    const stream = streamOf('JobSet', clusterId, object.metadata.namespace, object.metadata.uid);
    return { ok: true, target: jobSetTarget(stream, { type: 'JobSetDeleted', at: observedAt, eventId }) };
  },
};

/** The route of a detail-type, called with the detail its schema parsed. */
function route<T extends DetailType>(detailType: T, clusterId: string, detail: Detail<T>): Routed {
  return (ROUTES[detailType] as (clusterId: string, detail: Detail<T>) => Routed)(clusterId, detail);
}

/** The uid of the Job a pod belongs to, once its metadata passed, or why it is refused. */
function owningJob(metadata: ObjectMeta, pod: Parameters<typeof owningJobUid>[0]): string | Routed {
  const refused = refuseInvalidMetadata(metadata);
  if (refused) return refused;
  return owningJobUid(pod) ?? fail('detail.object.metadata.ownerReferences', 'the pod names no owning Job (a controller ownerReference of kind Job, or the label batch.kubernetes.io/controller-uid)');
}

const refuseWithoutUid = (metadata: ObjectMeta, message: string) => (metadata.uid ? undefined : fail('detail.object.metadata.uid', message));

/** The order stamp, when the forwarder sent one (entries without it stay as they were). */
const stamped = (sequence: ObjectSequence | undefined) => (sequence === undefined ? {} : { sequence });

const streamOf = (kind: StreamKey['kind'], clusterId: string, namespace: string | undefined, uid: string): StreamKey => ({
  kind,
  clusterId,
  namespace: namespace ?? 'default',
  uid,
});

const jobTarget = (stream: StreamKey, observation: Observation): InboundTarget => ({ stream, entry: observationEntry(observation) });

const jobSetTarget = (stream: StreamKey, observation: JobSetObservation & { readonly eventId: string }): InboundTarget => ({ stream, entry: jobSetObservationEntry(observation) });

/**
 * Metadata the API server would never have stored (a name with a NUL or a terminal escape, a
 * label key that is no qualified name, no namespace on a namespaced object, ...) cannot come
 * from a cluster: the event is refused before anything is stored, with upstream's error for
 * each field. Pods, Jobs and JobSets are namespaced: without a namespace an event would reach a
 * log its Job does not have (issue 24: a `Pod Deleted` routed to `default`).
 */
function refuseInvalidMetadata(metadata: ObjectMeta): { ok: false; errors: InboundError[] } | undefined {
  if (metadata.namespace === undefined || metadata.namespace === '') {
    return fail('detail.object.metadata.namespace', 'Required value: a namespaced object names its namespace; without it the event would reach no Job\'s log');
  }
  const errors = validateObjectMeta(metadata);
  if (errors.length === 0) return undefined;
  return { ok: false, errors: errors.slice(0, 20).map((error) => ({ path: `detail.object.${error.field}`, message: error.message })) };
}

/**
 * The parts of a log's key, bounded in UTF-8 bytes so that the key, however encoded, fits the
 * store's partition key: namespace a DNS label (63), uid as the API server writes it (128). The
 * owning Job's uid may come from a label, which the schema bounds only at 65536.
 */
const STREAM_KEY_PART_BYTES = { namespace: 63, uid: 128 } as const;

function checkStreamKey(stream: StreamKey): InboundError | undefined {
  for (const [part, max] of Object.entries(STREAM_KEY_PART_BYTES) as [keyof typeof STREAM_KEY_PART_BYTES, number][]) {
    const bytes = utf8Bytes(stream[part]);
    if (bytes > max) {
      const field = part === 'uid' ? 'detail.object.metadata (owning uid)' : 'detail.object.metadata.namespace';
      return { path: field, message: `the ${stream.kind}'s ${part} is ${bytes} bytes of UTF-8; at most ${max} allowed` };
    }
  }
  return undefined;
}

const fail = (path: string, message: string): { ok: false; errors: InboundError[] } => ({ ok: false, errors: [{ path, message }] });

/** zod's issues as refusals, each path written as the field is (`a.b[0].c`), at most 20. */
function zodFail(prefix: string, error: z.ZodError): { ok: false; errors: InboundError[] } {
  const errors = error.issues.slice(0, 20).map((issue) => ({
    path: [prefix, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))]
      .filter((p) => p !== '')
      .join('.')
      .replace(/\.\[/g, '['),
    message: issue.message,
  }));
  return { ok: false, errors };
}
