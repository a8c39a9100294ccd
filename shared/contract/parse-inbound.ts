import type * as z from 'zod';
import type { Observation } from '../job/events.ts';
import {
  ClusterSourceSchema,
  InboundEventSchema,
  inboundDetailSchemas,
  type InboundDetailType,
} from './inbound.ts';
import { owningJobUid, type StreamKey } from './routing.ts';
import { validateObjectMeta } from '../job/validation/object-meta.ts';
import type { ObjectMeta } from '../k8s/meta.ts';
import type { ObjectSequence } from '../k8s/object-sequence.ts';

/** One reason an inbound event was refused, naming the field. */
export interface InboundError {
  readonly path: string;
  readonly message: string;
}

export type InboundResult =
  | { readonly ok: true; readonly stream: StreamKey; readonly observation: Observation }
  | { readonly ok: false; readonly errors: readonly InboundError[] };

/** EventBridge refuses entries over 256 KiB; so does jobfold, whatever the transport. */
export const MAX_EVENT_BYTES = 256 * 1024;
/** Kubernetes objects are shallow; anything deeper is hostile input. */
export const MAX_JSON_DEPTH = 32;

/**
 * Parses an inbound EventBridge event into the observation it carries and the log it belongs
 * to. Never throws: every problem comes back with the path of the offending field.
 */
export function parseInbound(event: unknown): InboundResult {
  const checked = checkEnvelope(event, Object.keys(inboundDetailSchemas));
  if (!checked.ok) return checked;
  return toObservation(checked.clusterId, checked.detailType as InboundDetailType, checked.detail);
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

/** The observation a Job or Pod event's detail carries, once its envelope was checked. */
export function toObservation(clusterId: string, detailType: InboundDetailType, raw: unknown): InboundResult {
  switch (detailType) {
    case 'Pod Observed': {
      const parsed = inboundDetailSchemas[detailType].safeParse(raw);
      if (!parsed.success) return zodFail('detail', parsed.error);
      const { eventId, observedAt, object: pod, sequence } = parsed.data;
      const badMeta = refuseInvalidMetadata(pod.metadata);
      if (badMeta) return badMeta;
      const jobUid = owningJobUid(pod);
      if (!jobUid) {
        return fail('detail.object.metadata.ownerReferences', 'the pod names no owning Job (a controller ownerReference of kind Job, or the label batch.kubernetes.io/controller-uid)');
      }
      const stream = jobStream(clusterId, pod.metadata.namespace, jobUid);
      return { ok: true, stream, observation: { type: 'PodObserved', eventId, clusterId, observedAt, pod, ...stamped(sequence) } };
    }
    case 'Pod Deleted': {
      const parsed = inboundDetailSchemas[detailType].safeParse(raw);
      if (!parsed.success) return zodFail('detail', parsed.error);
      const { eventId, observedAt, object, sequence } = parsed.data;
      const badMeta = refuseInvalidMetadata(object.metadata);
      if (badMeta) return badMeta;
      const jobUid = owningJobUid(object);
      if (!jobUid) {
        return fail('detail.object.metadata.ownerReferences', 'the pod names no owning Job (a controller ownerReference of kind Job, or the label batch.kubernetes.io/controller-uid)');
      }
      const { uid, name, namespace } = object.metadata;
      return {
        ok: true,
        stream: jobStream(clusterId, namespace, jobUid),
        observation: { type: 'PodDeleted', eventId, clusterId, observedAt, uid, name, namespace, ...stamped(sequence) },
      };
    }
    case 'Job Observed': {
      const parsed = inboundDetailSchemas[detailType].safeParse(raw);
      if (!parsed.success) return zodFail('detail', parsed.error);
      const { eventId, observedAt, object: job, sequence } = parsed.data;
      if (!job.metadata.uid) return fail('detail.object.metadata.uid', 'a Job must carry its uid');
      const badMeta = refuseInvalidMetadata(job.metadata);
      if (badMeta) return badMeta;
      // The spec is not checked here: the fold validates it as the API server does and records
      // the rejection in the Job's log, in upstream's words (shared/job/validation).
      const stream = jobStream(clusterId, job.metadata.namespace, job.metadata.uid);
      return { ok: true, stream, observation: { type: 'JobObserved', eventId, clusterId, observedAt, job, ...stamped(sequence) } };
    }
    case 'Job Deleted': {
      const parsed = inboundDetailSchemas[detailType].safeParse(raw);
      if (!parsed.success) return zodFail('detail', parsed.error);
      const { eventId, observedAt, object } = parsed.data;
      const badMeta = refuseInvalidMetadata(object.metadata);
      if (badMeta) return badMeta;
      const { uid, namespace } = object.metadata;
      return { ok: true, stream: jobStream(clusterId, namespace, uid), observation: { type: 'JobDeleted', eventId, clusterId, observedAt, uid } };
    }
  }
}

/** The order stamp, when the forwarder sent one (entries without it stay as they were). */
const stamped = (sequence: ObjectSequence | undefined) => (sequence === undefined ? {} : { sequence });

const jobStream = (clusterId: string, namespace: string | undefined, uid: string): StreamKey => ({
  kind: 'Job',
  clusterId,
  namespace: namespace ?? 'default',
  uid,
});

/**
 * Metadata the API server would never have stored (a name with a NUL or a terminal escape, a
 * label key that is no qualified name, no namespace on a namespaced object, ...) cannot come
 * from a cluster: the event is refused before anything is stored, with upstream's error for
 * each field. Pods, Jobs and JobSets are namespaced: without a namespace an event would reach a
 * log its Job does not have (issue 24: a `Pod Deleted` routed to `default`).
 */
export function refuseInvalidMetadata(metadata: ObjectMeta): { ok: false; errors: InboundError[] } | undefined {
  if (metadata.namespace === undefined || metadata.namespace === '') {
    return fail('detail.object.metadata.namespace', 'Required value: a namespaced object names its namespace; without it the event would reach no Job\'s log');
  }
  const errors = validateObjectMeta(metadata);
  if (errors.length === 0) return undefined;
  return { ok: false, errors: errors.slice(0, 20).map((error) => ({ path: `detail.object.${error.field}`, message: error.message })) };
}

const fail = (path: string, message: string): { ok: false; errors: InboundError[] } => ({ ok: false, errors: [{ path, message }] });

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

/**
 * Size (UTF-8 bytes of its JSON text), depth, and the path of a forbidden key of a JSON value,
 * without recursion: hostile input may be very deep.
 */
export interface Measured {
  bytes: number;
  depth: number;
  forbiddenKey: string | undefined;
  /** The first key or string that is not well-formed UTF-16 (a lone surrogate). */
  illFormed?: { path: string; in: 'the key' | 'the value' };
}

export function measure(value: unknown): Measured {
  const quick = measureQuickly(value);
  return quick ?? measureWithPaths(value);
}

/**
 * measure without the paths (every inbound observation is measured, and building each node's
 * path was a fifth of parsing one): the same walk in the same order, so the same bytes and
 * depth. Undefined when it meets a forbidden key or an ill-formed string: measureWithPaths then
 * walks again to name where.
 */
function measureQuickly(value: unknown): Measured | undefined {
  let bytes = 0;
  let depth = 0;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop();
    const d = depths.pop() as number;
    if (d > depth) depth = d;
    if (depth > MAX_JSON_DEPTH || bytes > MAX_EVENT_BYTES) break;
    if (typeof v === 'string') {
      bytes += jsonStringBytes(v);
      if (!v.isWellFormed()) return undefined;
    }
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) bytes += 5;
    else if (Array.isArray(v)) {
      bytes += 2;
      v.forEach((item) => {
        values.push(item);
        depths.push(d + 1);
      });
    } else if (typeof v === 'object' && v !== null) {
      bytes += 2;
      for (const k of Object.keys(v)) {
        if (k === '__proto__' || !k.isWellFormed()) return undefined;
        bytes += jsonStringBytes(k) + 1;
        values.push((v as Record<string, unknown>)[k]);
        depths.push(d + 1);
      }
    }
  }
  return { bytes, depth, forbiddenKey: undefined, illFormed: undefined };
}

/** measure as it was first written, naming paths as it walks (exported for the test that compares the two). */
export function measureWithPaths(value: unknown): Measured {
  let bytes = 0;
  let depth = 0;
  let illFormed: Measured['illFormed'];
  const stack: Array<[unknown, number, string]> = [[value, 1, '']];
  while (stack.length > 0) {
    const [v, d, path] = stack.pop() as [unknown, number, string];
    if (d > depth) depth = d;
    if (depth > MAX_JSON_DEPTH || bytes > MAX_EVENT_BYTES) break;
    if (typeof v === 'string') {
      bytes += jsonStringBytes(v);
      if (!illFormed && !v.isWellFormed()) illFormed = { path: path.toWellFormed(), in: 'the value' };
    }
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) bytes += 5;
    else if (Array.isArray(v)) {
      bytes += 2;
      v.forEach((item, i) => stack.push([item, d + 1, `${path}[${i}]`]));
    } else if (typeof v === 'object' && v !== null) {
      bytes += 2;
      for (const [k, item] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        // JSON.parse makes "__proto__" an own key; refuse it rather than let it near any object.
        if (k === '__proto__') return { bytes, depth, forbiddenKey: at };
        if (!illFormed && !k.isWellFormed()) illFormed = { path: at.toWellFormed(), in: 'the key' };
        bytes += jsonStringBytes(k) + 1;
        stack.push([item, d + 1, at]);
      }
    }
  }
  return { bytes, depth, forbiddenKey: undefined, illFormed };
}

/** UTF-8 bytes of a string written as JSON (quotes and escapes included). */
function jsonStringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) bytes += 2;
    else if (c < 0x20) bytes += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}
