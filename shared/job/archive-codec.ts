import type { ObjectSequence } from '../k8s/object-sequence.ts';
import type { ArchivedPod } from './snapshot.ts';
import { eventIdCode, eventIdOf, nameCode, nameOf, namePrefix, packUid, unpackUid, UUID, versionCode, versionOf, type Previous } from './pod-field-codes.ts';

/**
 * The stored form of archived pods (snapshot.ts ArchivedPod): one group of them — what a store
 * writes as one item — as positional tuples beside what the group's pods share. A big Job's
 * archive is most of what it stores (102,040 pods: 32.4 MB as objects), and every per-pod
 * field the restore needs (order, archivedAt, lastSeq, finishedAt, failure counts: qrestore2)
 * made each save write more units (issue 20). So a pod's tuple holds no key names, no field
 * equal to what the others or its own fields give (its namespace and `archivedAt`, the group's;
 * its `lastEventId`, `<uid>/<version>` as the forwarder builds it; its `counted`, its phase's;
 * its name's `<job>-<index>-`, upstream's generateName for an Indexed Job's pod), its instants as
 * differences (epoch ms take 13 digits; a pod's lie within its Job's life), its log positions
 * and resourceVersion as differences from the pod before it (a save's pods settled about
 * together), and its uid, when a UUID as the API server makes them, as its 16 bytes in base64url
 * (22 characters instead of 36: the uid is most of what does not compress). Decoding gives back
 * exactly the objects encoded, key for key. Groups stored before this form (v 2, without the
 * differences between pods, the name prefix and packed uids; arrays of ArchivedPod objects
 * before that) still read as they are.
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
  /** What the pods' names start with before `<index>-` (the first pod's; v 3). */
  readonly np?: string;
  /** 1: a uid that is a UUID is stored as its bytes in base64url (v 3). */
  readonly u?: 1;
  readonly p: readonly (readonly unknown[])[];
}

/** v 3; v 2 (one session of main, 2026-11-29) had no differences between pods, `np` or `u`. */
export const ARCHIVE_FORM_VERSION = 3;
const READ_VERSIONS: readonly number[] = [2, ARCHIVE_FORM_VERSION];

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
  const np = first === undefined ? undefined : namePrefix(first.name, first.index);
  const u = first !== undefined && UUID.test(first.uid);
  const shared: Shared = { ns, at, t, e, np, u, deltas: true };
  const previous = { lastSeq: 0, version: 0 };
  return {
    v: ARCHIVE_FORM_VERSION,
    ...(ns === undefined ? {} : { ns }),
    ...(at === undefined ? {} : { at }),
    ...(t === undefined ? {} : { t }),
    ...(e === undefined ? {} : { e }),
    ...(np === undefined ? {} : { np }),
    ...(u ? { u: 1 as const } : {}),
    p: pods.map((pod) => encodePod(pod, shared, previous)),
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
  if (!READ_VERSIONS.includes(group.v as number)) throw new Error(`archived pods: group form v ${String(group.v)} is not one of ${READ_VERSIONS.join(', ')}`);
  const later = (group.v as number) !== 2;
  const shared: Shared = { ns: group.ns, at: group.at, t: group.t, e: group.e, np: later ? group.np : undefined, u: later && group.u === 1, deltas: later };
  const previous = { lastSeq: 0, version: 0 };
  return group.p.map((tuple, i) => {
    if (!Array.isArray(tuple) || (typeof tuple[UID] !== 'string' && !Array.isArray(tuple[UID]))) {
      throw new Error(`archived pods: p[${i}] is not a pod tuple: ${describe(tuple)}`);
    }
    return decodePod(tuple, shared, previous);
  });
}

/** What a group's pods share, and how its tuples are told (v 2: no differences between pods, no `np`, no `u`). */
interface Shared {
  readonly ns: string | undefined;
  readonly at: number | undefined;
  readonly t: number | undefined;
  readonly e: number | undefined;
  readonly np: string | undefined;
  readonly u: boolean;
  readonly deltas: boolean;
}


function encodePod(pod: ArchivedPod, shared: Shared, previous: Previous): unknown[] {
  const flags =
    (pod.gone ? GONE : 0) | (pod.trackedSeen === true ? TRACKED_SEEN : 0) | (pod.strippedLive === true ? STRIPPED_LIVE : 0) |
    (pod.released === true ? RELEASED : 0) | (pod.finalCount === 'outside' ? FINAL_OUTSIDE : 0) | (pod.finalCount === 'owed' ? FINAL_OWED : 0);
  const phase = PHASES.indexOf(pod.phase as (typeof PHASES)[number]);
  // The instants are told from the pod's first sighting, that one from the group's.
  const base = pod.firstSeenAt ?? shared.t;
  const tuple: unknown[] = new Array<unknown>(SLOTS).fill(null);
  tuple[UID] = shared.u ? packUid(pod.uid) : pod.uid;
  tuple[NAME] = nameCode(pod.name, pod.index, shared.np);
  tuple[INDEX] = pod.index;
  tuple[PHASE] = phase >= 0 ? phase : pod.phase;
  tuple[FLAGS] = flags;
  // Upstream numbers an Indexed Job's pods about as their indexes; jobfold its first sightings.
  tuple[SEQ] = pod.seq - pod.index;
  tuple[LAST_SEQ] = pod.lastSeq === undefined ? null : pod.lastSeq - previous.lastSeq;
  if (pod.lastSeq !== undefined) previous.lastSeq = pod.lastSeq;
  tuple[FIRST_SEEN] = since(pod.firstSeenAt, shared.t);
  tuple[LAST_SEEN] = since(pod.lastSeenAt, base);
  tuple[FINISHED] = since(pod.finishedAt, base);
  tuple[FINISHED_TRACKED] = since(pod.finishedTrackedAt, pod.lastSeenAt ?? base);
  tuple[VERSION] = versionCode(pod.version, previous);
  tuple[ORDER] = orderCode(pod.order, shared.e);
  tuple[EVENT_ID] = eventIdCode(pod.lastEventId, pod.uid, pod.version);
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

function decodePod(tuple: readonly unknown[], shared: Shared, previous: Previous): ArchivedPod {
  const at = <T>(slot: number): T | undefined => (tuple[slot] === undefined || tuple[slot] === null ? undefined : (tuple[slot] as T));
  const uid = shared.u ? unpackUid(tuple[UID]) : (tuple[UID] as string);
  const index = tuple[INDEX] as number;
  const flags = at<number>(FLAGS) ?? 0;
  const code = tuple[PHASE];
  const phase = typeof code === 'number' ? (PHASES[code] as string) : (code as string);
  const firstSeenAt = from(tuple[FIRST_SEEN], shared.t);
  const base = firstSeenAt ?? shared.t;
  const lastSeenAt = from(tuple[LAST_SEEN], base);
  const version = shared.deltas ? versionOf(tuple[VERSION], previous) : at<string>(VERSION);
  let lastSeq = at<number>(LAST_SEQ);
  if (shared.deltas && lastSeq !== undefined) lastSeq = previous.lastSeq += lastSeq;
  const counted = at<number>(COUNTED);
  const finalCount = (flags & FINAL_OUTSIDE) !== 0 ? 'outside' : (flags & FINAL_OWED) !== 0 ? 'owed' : undefined;
  const eventId = eventIdOf(tuple[EVENT_ID], uid, version);
  const order = orderOf(tuple[ORDER], shared.e);
  const fields: Record<keyof ArchivedPod, unknown> = {
    uid,
    name: nameOf(tuple[NAME], index, shared.np),
    namespace: shared.ns ?? at<string>(NAMESPACE),
    phase,
    index,
    counted: counted === undefined ? countedOf(phase) : COUNTS[counted],
    gone: (flags & GONE) !== 0,
    seq: shared.deltas ? (tuple[SEQ] as number) + index : tuple[SEQ],
    lastSeq,
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

const describe = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};
