import type { StreamId } from '../log/event-store.ts';
import type { Decider, LogEvent } from './decider.ts';
import { contentFingerprint, contentHash, DECISION_CONTENT, EventIdIndex } from '../log/event-id-index.ts';
import type { LogStore } from './load-log.ts';

// Dedupe without per-event markers: the single writer of a log drops an observation the log
// already holds — by eventId against the whole log (event-id-index.ts), then what the fold
// already knows (the decider's `known`) — judged against the state at the position the
// observation would take. So what is dropped depends on the log alone, never on how deliveries
// were batched. The same eventId with another content is refused (the first stays) and, where
// the decider keeps a record of refusals (a Job's `ObservationRefused`), recorded in its place.

/** Why an observation is refused though it is not in the log: its reason and message, and for a conflict both contents. */
export interface RefusedObservation<O = unknown> {
  readonly observation: O;
  readonly reason: 'ConflictingDuplicate' | 'UidReused';
  /** The inbound field the refusal names (for the rejection's error path). */
  readonly field: 'detail.eventId' | 'detail.object.metadata.name' | 'detail.object.metadata.namespace';
  readonly message: string;
  /** A conflicting duplicate: where the eventId is first (in the log, or earlier in the batch), and SHA-256 of both contents. */
  readonly conflict?: { readonly firstSeq: number; readonly firstHash: string; readonly refusedHash: string };
}

/** The log's entries a repeated eventId may point at, read back to tell a conflict from a fingerprint collision. */
export type StoredFirsts = ReadonlyMap<number, { readonly eventId: string; readonly hash: string }>;

/** What keepNews judges a batch against, and what it reports. */
export interface KnownLog<O> {
  readonly index: EventIdIndex;
  readonly stored: StoredFirsts;
  readonly dropped: Map<string, number>;
  readonly refused: RefusedObservation<O>[];
  /** The content fingerprint of each observation kept, by eventId, for indexEvent (so each is serialised and hashed once). */
  readonly kept: Map<string, number>;
}

/**
 * Indexes the log's next entry: an observation by its content (its fingerprint as keepNews kept
 * it, when given), a decision as such.
 */
export function indexEvent<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, index: EventIdIndex, event: O | D, kept?: ReadonlyMap<string, number>,
): void {
  if (decider.log.isDecision(event)) index.add(event.eventId, DECISION_CONTENT);
  else index.add(event.eventId, kept?.get(event.eventId) ?? contentFingerprint(decider.content(event)));
}

/** The SHA-256 of what a logged entry says: an observation's content, a decision's whole body. */
function eventContentHash<S, O extends LogEvent, D extends LogEvent, C>(decider: Decider<S, O, D, C>, event: O | D): string {
  if (!decider.log.isDecision(event)) return contentHash(decider.content(event));
  const { seq: _seq, ...body } = event;
  return contentHash(body);
}

/** Log entries read at once to index positions no saved segment covers. */
const GAP_READ = 5000;

/**
 * The log's eventIds 1 … head: the saved segments, then the log itself for the positions up to
 * the snapshot that no segment covers (a log written before the index, a save a crash lost;
 * read once, then saved with the next snapshot), then the tail after the snapshot. Segments
 * only ever cover positions up to a snapshot: a log without one (every new log, every small
 * Job) is indexed from its tail alone, without asking the store for segments (a round trip).
 */
export async function loadEventIds<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, store: LogStore, stream: StreamId, snapshotSeq: number, tail: readonly (O | D)[],
): Promise<EventIdIndex> {
  const index = new EventIdIndex();
  for (const segment of snapshotSeq === 0 ? [] : await store.loadEventIds(stream)) {
    if (segment.from > index.through || index.through >= snapshotSeq) break;
    if (segment.to > index.through) index.addSegment(segment, snapshotSeq);
  }
  index.persisted = index.through;
  while (index.through < snapshotSeq) {
    const { entries } = await store.read(stream, { afterSeq: index.through, limit: Math.min(GAP_READ, snapshotSeq - index.through), skipHead: true });
    if (entries.length === 0) throw new Error(`log ${stream.uid}: no entries after ${index.through}, below its snapshot at ${snapshotSeq}`);
    for (const entry of entries) indexEvent(decider, index, decider.log.event(entry));
  }
  for (const event of tail) indexEvent(decider, index, event);
  return index;
}

/** The positions of `observations`' repeated eventIds whose content differs from the logged one's: to read back. */
export function conflictCandidates<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, index: EventIdIndex, observations: readonly O[],
): number[] {
  const seqs = new Set<number>();
  for (const observation of observations) {
    const hits = index.lookup(observation.eventId);
    if (hits.length === 0) continue;
    const content = contentFingerprint(decider.content(observation));
    if (hits.some((hit) => hit.content === content)) continue;
    for (const hit of hits) seqs.add(hit.seq);
  }
  return [...seqs].sort((a, b) => a - b);
}

/** The stored entries at `seqs` (eventId and content hash), to tell a conflicting duplicate from a fingerprint collision. */
export async function storedFirsts<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, store: LogStore, stream: StreamId, seqs: readonly number[],
): Promise<StoredFirsts> {
  const found = new Map<number, { eventId: string; hash: string }>();
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && (seqs[j + 1] as number) === (seqs[j] as number) + 1) j++;
    const from = seqs[i] as number;
    const { entries } = await store.read(stream, { afterSeq: from - 1, limit: j - i + 1, skipHead: true });
    for (const entry of entries) found.set(entry.seq, { eventId: entry.eventId, hash: eventContentHash(decider, decider.log.event(entry)) });
    i = j + 1;
  }
  return found;
}

/**
 * The `keep` of decideAtEachPosition for one batch: drops an eventId the log or the batch holds
 * with the same content and what the fold already holds (the decider's `known`), and refuses
 * one the log holds with another content, or an observation the decider refuses (a uid under
 * another name), logging the decider's record of it in its place (once per refused content)
 * when it keeps one. Counts what it drops, by reason.
 */
export function keepNews<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, known: KnownLog<O>,
): (state: S, observation: O) => boolean | D {
  const { index, stored, dropped, refused, kept } = known;
  /** This batch's logged observations by eventId: position and content fingerprint. */
  const batch = new Map<string, { seq: number; content: number; observation: O }>();
  const refusals = new Set<string>();
  const drop = (reason: string): false => {
    dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
    return false;
  };
  return (state, observation) => {
    const content = contentFingerprint(decider.content(observation));
    const earlier = batch.get(observation.eventId);
    if (earlier) {
      if (earlier.content === content) return drop('in-batch');
      const first = { seq: earlier.seq, hash: contentHash(decider.content(earlier.observation)) };
      return first.hash === contentHash(decider.content(observation)) ? drop('in-batch') : refuse(observation, first);
    }
    const hits = index.lookup(observation.eventId);
    if (hits.some((hit) => hit.content === content)) return drop('same-event');
    const first = hits.map((hit) => ({ seq: hit.seq, stored: stored.get(hit.seq) })).find((hit) => hit.stored?.eventId === observation.eventId);
    if (first?.stored) {
      return first.stored.hash === contentHash(decider.content(observation)) ? drop('same-event') : refuse(observation, { seq: first.seq, hash: first.stored.hash });
    }
    const reused = decider.refuses?.(state, observation);
    if (reused !== undefined) return record(observation, 'UidReused', reused);
    const reason = decider.known(state, observation);
    if (reason !== undefined) return drop(reason);
    batch.set(observation.eventId, { seq: decider.position(state) + 1, content, observation });
    kept.set(observation.eventId, content);
    return true;
  };

  function refuse(observation: O, first: { seq: number; hash: string }): D | false {
    const refusedHash = contentHash(decider.content(observation));
    return record(observation, 'ConflictingDuplicate',
      `eventId ${observation.eventId} is in the log at position ${first.seq} with content ${first.hash.slice(0, 16)}…; `
      + `this ${observation.type} has content ${refusedHash.slice(0, 16)}…: the first stays, this one is refused`,
      { firstSeq: first.seq, firstHash: first.hash, refusedHash });
  }

  /** Reports the refusal, and returns its record, or false when there is none or this very refusal is logged already. */
  function record(observation: O, reason: RefusedObservation['reason'], message: string, conflict?: RefusedObservation['conflict']): D | false {
    drop(reason === 'UidReused' ? 'uid-reused' : 'conflict');
    const field = reason === 'UidReused' ? 'detail.object.metadata.name' : 'detail.eventId';
    const refusal: RefusedObservation<O> = { observation, reason, field, message, ...(conflict ? { conflict } : {}) };
    refused.push(refusal);
    const logged = decider.refusal?.(refusal, (conflict?.refusedHash ?? contentHash(decider.content(observation))).slice(0, 16));
    if (logged === undefined || refusals.has(logged.eventId) || index.lookup(logged.eventId).length > 0) return false;
    refusals.add(logged.eventId);
    return logged;
  }
}
