import type { ObjectSequence } from '../k8s/object-sequence.ts';
import type { ArchivedPod } from './snapshot.ts';

/**
 * The stored form of archived pods (snapshot.ts ArchivedPod): one group of them — what a store
 * writes as one item — as positional tuples beside what the group's pods share. A big Job's
 * archive is most of what it stores (102,040 pods: 32.4 MB as objects), and every per-pod
 * field the restore needs (order, archivedAt, lastSeq, finishedAt, failure counts: qrestore2)
 * made each save write more units (issue 20). So a pod's tuple holds no key names, no field
 * equal to what the others or its own fields give (its namespace and `archivedAt`, the group's;
 * its `lastEventId`, `<uid>/<version>` as the forwarder builds it; its `counted`, its phase's),
 * and its instants as differences (epoch ms take 13 digits; a pod's lie within its Job's life).
 * Decoding gives back exactly the objects encoded, key for key. Groups stored before this form,
 * arrays of ArchivedPod objects, still read as they are.
 */

/** A group as stored: `p` the pods' tuples; the rest what they share. */
export interface EncodedArchivedPods {
  /** This form's version: a later one is refused, not misread. */
  readonly v: typeof ARCHIVE_FORM_VERSION;
  /** The namespace of every pod (a Job's pods share its namespace). */
  readonly ns?: string;
  /** The `archivedAt` of every pod (a save stores its pods at one position). */
  readonly at?: number;
  /** Epoch ms the first pod's instants are told from (its firstSeenAt). */
  readonly t?: number;
  /** The forwarder epoch of the first pod's order; a pod's order in it is its seq alone. */
  readonly e?: number;
  readonly p: readonly (readonly unknown[])[];
}

export const ARCHIVE_FORM_VERSION = 2;

const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;
const COUNTS = ['none', 'succeeded', 'failed', 'ignored'] as const satisfies readonly ArchivedPod['counted'][];
const GONE = 1;
const TRACKED_SEEN = 2;
const STRIPPED_LIVE = 4;
const RELEASED = 8;
const FINAL_OUTSIDE = 16;
const FINAL_OWED = 32;

// Tuple slots, the most often set first: trailing empty (null) slots are dropped. A pod of a
// finished Job usually ends at ORDER (forwarded pods: versioned, ordered) or EVENT_ID.
const UID = 0;
const NAME = 1;
const INDEX = 2;
const PHASE = 3;
const FLAGS = 4;
const SEQ = 5;
const LAST_SEQ = 6;
const FIRST_SEEN = 7;
const LAST_SEEN = 8;
const FINISHED = 9;
const FINISHED_TRACKED = 10;
const VERSION = 11;
const ORDER = 12;
const EVENT_ID = 13;
const COUNTED = 14;
const FAILURES = 15;
const IGNORED_FAILURES = 16;
const STRIPPED = 17;
const DELETION = 18;
const FINAL_COUNT_OF = 19;
const NAMESPACE = 20;
const ARCHIVED_AT = 21;
const SLOTS = 22;

/** One group of archived pods in the stored form. */
export function encodeArchivedPods(pods: readonly ArchivedPod[]): EncodedArchivedPods {
  const first = pods[0];
  const ns = first !== undefined && pods.every((pod) => pod.namespace === first.namespace) ? first.namespace : undefined;
  const at = first?.archivedAt !== undefined && pods.every((pod) => pod.archivedAt === first.archivedAt) ? first.archivedAt : undefined;
  const t = first?.firstSeenAt;
  const e = first?.order?.epoch;
  return {
    v: ARCHIVE_FORM_VERSION,
    ...(ns === undefined ? {} : { ns }),
    ...(at === undefined ? {} : { at }),
    ...(t === undefined ? {} : { t }),
    ...(e === undefined ? {} : { e }),
    p: pods.map((pod) => encodePod(pod, { ns, at, t, e })),
  };
}

/**
 * The archived pods of one stored group: the stored form, or the objects stored before it.
 * Anything else is refused with what was found: a store never hands on a group it misread.
 */
export function decodeArchivedPods(stored: unknown): ArchivedPod[] {
  if (Array.isArray(stored)) return stored as ArchivedPod[];
  const group = stored as Partial<EncodedArchivedPods> | null;
  if (group === null || typeof group !== 'object' || !Array.isArray(group.p)) {
    throw new Error(`archived pods: expected an array of pods or a group {v, p}, got ${describe(stored)}`);
  }
  if (group.v !== ARCHIVE_FORM_VERSION) throw new Error(`archived pods: group form v ${String(group.v)} is not ${ARCHIVE_FORM_VERSION}`);
  const shared = { ns: group.ns, at: group.at, t: group.t, e: group.e };
  return group.p.map((tuple, i) => {
    if (!Array.isArray(tuple) || typeof tuple[UID] !== 'string') throw new Error(`archived pods: p[${i}] is not a pod tuple: ${describe(tuple)}`);
    return decodePod(tuple, shared);
  });
}

interface Shared {
  readonly ns: string | undefined;
  readonly at: number | undefined;
  readonly t: number | undefined;
  readonly e: number | undefined;
}

function encodePod(pod: ArchivedPod, shared: Shared): unknown[] {
  const flags =
    (pod.gone ? GONE : 0) | (pod.trackedSeen === true ? TRACKED_SEEN : 0) | (pod.strippedLive === true ? STRIPPED_LIVE : 0) |
    (pod.released === true ? RELEASED : 0) | (pod.finalCount === 'outside' ? FINAL_OUTSIDE : 0) | (pod.finalCount === 'owed' ? FINAL_OWED : 0);
  const phase = PHASES.indexOf(pod.phase as (typeof PHASES)[number]);
  // The instants are told from the pod's first sighting, that one from the group's.
  const base = pod.firstSeenAt ?? shared.t;
  const tuple: unknown[] = new Array<unknown>(SLOTS).fill(null);
  tuple[UID] = pod.uid;
  tuple[NAME] = pod.name;
  tuple[INDEX] = pod.index;
  tuple[PHASE] = phase >= 0 ? phase : pod.phase;
  tuple[FLAGS] = flags;
  tuple[SEQ] = pod.seq;
  tuple[LAST_SEQ] = pod.lastSeq ?? null;
  tuple[FIRST_SEEN] = since(pod.firstSeenAt, shared.t);
  tuple[LAST_SEEN] = since(pod.lastSeenAt, base);
  tuple[FINISHED] = since(pod.finishedAt, base);
  tuple[FINISHED_TRACKED] = since(pod.finishedTrackedAt, pod.lastSeenAt ?? base);
  tuple[VERSION] = pod.version ?? null;
  tuple[ORDER] = orderCode(pod.order, shared.e);
  tuple[EVENT_ID] = eventIdCode(pod);
  tuple[COUNTED] = pod.counted === countedOf(pod.phase) ? null : COUNTS.indexOf(pod.counted);
  tuple[FAILURES] = pod.failureCount ?? null;
  tuple[IGNORED_FAILURES] = pod.ignoredFailureCount ?? null;
  tuple[STRIPPED] = since(pod.strippedAt, base);
  tuple[DELETION] = since(pod.deletionTimestamp, base);
  tuple[FINAL_COUNT_OF] = pod.finalCountOf ?? null;
  tuple[NAMESPACE] = shared.ns === undefined ? pod.namespace : null;
  tuple[ARCHIVED_AT] = shared.at === undefined ? (pod.archivedAt ?? null) : null;
  while (tuple.length > 0 && tuple.at(-1) === null) tuple.pop();
  return tuple;
}

function decodePod(tuple: readonly unknown[], shared: Shared): ArchivedPod {
  const at = <T>(slot: number): T | undefined => (tuple[slot] === undefined || tuple[slot] === null ? undefined : (tuple[slot] as T));
  const uid = tuple[UID] as string;
  const flags = at<number>(FLAGS) ?? 0;
  const code = tuple[PHASE];
  const phase = typeof code === 'number' ? (PHASES[code] as string) : (code as string);
  const firstSeenAt = from(tuple[FIRST_SEEN], shared.t);
  const base = firstSeenAt ?? shared.t;
  const lastSeenAt = from(tuple[LAST_SEEN], base);
  const version = at<string>(VERSION);
  const counted = at<number>(COUNTED);
  const finalCount = (flags & FINAL_OUTSIDE) !== 0 ? 'outside' : (flags & FINAL_OWED) !== 0 ? 'owed' : undefined;
  const eventId = eventIdOf(tuple[EVENT_ID], uid, version);
  const order = orderOf(tuple[ORDER], shared.e);
  const fields: Record<keyof ArchivedPod, unknown> = {
    uid,
    name: tuple[NAME],
    namespace: shared.ns ?? at<string>(NAMESPACE),
    phase,
    index: tuple[INDEX],
    counted: counted === undefined ? countedOf(phase) : COUNTS[counted],
    gone: (flags & GONE) !== 0,
    seq: tuple[SEQ],
    lastSeq: at<number>(LAST_SEQ),
    lastEventId: eventId,
    version,
    order,
    finalCount,
    finalCountOf: at<number>(FINAL_COUNT_OF),
    released: (flags & RELEASED) !== 0 ? true : undefined,
    trackedSeen: (flags & TRACKED_SEEN) !== 0 ? true : undefined,
    strippedLive: (flags & STRIPPED_LIVE) !== 0 ? true : undefined,
    strippedAt: from(tuple[STRIPPED], base),
    deletionTimestamp: from(tuple[DELETION], base),
    failureCount: at<number>(FAILURES),
    ignoredFailureCount: at<number>(IGNORED_FAILURES),
    finishedAt: from(tuple[FINISHED], base),
    finishedTrackedAt: from(tuple[FINISHED_TRACKED], lastSeenAt ?? base),
    firstSeenAt,
    lastSeenAt,
    archivedAt: shared.at ?? at<number>(ARCHIVED_AT),
  };
  // Only the fields the pod had: the object reads (and hashes) as the one encoded.
  for (const key of Object.keys(fields) as (keyof ArchivedPod)[]) if (fields[key] === undefined) delete fields[key];
  return fields as unknown as ArchivedPod;
}

/** What a pod in `phase` has counted unless it says otherwise (counting.ts: a finished pod counts as it ended). */
const countedOf = (phase: string): ArchivedPod['counted'] => (phase === 'Succeeded' ? 'succeeded' : phase === 'Failed' ? 'failed' : 'none');

/**
 * An instant as its difference from `base` (both whole epoch ms, so the sum gives it back
 * exactly); any other number whole, in a one-element array; none as null.
 */
function since(value: number | undefined, base: number | undefined): number | [number] | null {
  if (value === undefined) return null;
  return base !== undefined && Number.isSafeInteger(value) && Number.isSafeInteger(base) && Number.isSafeInteger(value - base) ? value - base : [value];
}

function from(code: unknown, base: number | undefined): number | undefined {
  if (code === undefined || code === null) return undefined;
  if (Array.isArray(code)) return code[0] as number;
  return (base as number) + (code as number);
}

/** The order: its seq alone in the group's epoch, else [epoch, seq]; an order with more than these two, whole. */
function orderCode(order: ObjectSequence | undefined, epoch: number | undefined): unknown {
  if (order === undefined) return null;
  if (Object.keys(order).length !== 2) return order;
  return order.epoch === epoch ? order.seq : [order.epoch, order.seq];
}

function orderOf(code: unknown, epoch: number | undefined): ObjectSequence | undefined {
  if (code === undefined || code === null) return undefined;
  if (typeof code === 'number') return { epoch: epoch as number, seq: code };
  if (Array.isArray(code)) return { epoch: code[0] as number, seq: code[1] as number };
  return code as ObjectSequence;
}

/**
 * The last eventId: null when it is the forwarder's `<uid>/<version>` (or there is neither), 0
 * when there is none beside a version, what follows `<uid>/` as a string, any other id in a
 * one-element array.
 */
function eventIdCode(pod: ArchivedPod): unknown {
  const { lastEventId: id, uid, version } = pod;
  if (id === undefined) return version === undefined ? null : 0;
  if (version !== undefined && id === `${uid}/${version}`) return null;
  return id.startsWith(`${uid}/`) ? id.slice(uid.length + 1) : [id];
}

function eventIdOf(code: unknown, uid: string, version: string | undefined): string | undefined {
  if (code === undefined || code === null) return version === undefined ? undefined : `${uid}/${version}`;
  if (code === 0) return undefined;
  if (Array.isArray(code)) return code[0] as string;
  return `${uid}/${code as string}`;
}

const describe = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};
