import type { EventStore, LogEntry, StreamId } from '../log/event-store.ts';
import type { PodArchive } from '../log/pod-archive.ts';
import { streamKey } from '../log/stream-key.ts';
import type { Decider, LogEvent } from './decider.ts';
import { loadEventIds } from './keep-news.ts';
import { cutShort, foldResuming, type SyncRest } from './resume-cut-sync.ts';
import type { CachedState, StateCache } from './state-cache.ts';

export type LogStore = EventStore & PodArchive;

/** A log read from the store: the snapshot's state (tail not folded yet) and the tail after it. */
export interface Unfolded<S, O, D> {
  readonly state: S;
  readonly head: number;
  readonly snapshotSeq: number;
  readonly tail: (O | D)[];
  /** The chain hash of the tail's last entry, when the tail is not empty. */
  readonly headHash?: string;
  readonly lastEntry?: LogEntry;
  /** Loaded from a snapshot without every archived record (the archived records a batch names are put back before it). */
  readonly partial: boolean;
}

/**
 * The snapshot (with the archived records the tail names) and the tail after it, not yet folded:
 * for a caller that must stop inside the tail (the writer re-deciding a cut-short sync).
 */
export async function loadUnfolded<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, store: LogStore, stream: StreamId, options: LoadOptions = {},
): Promise<Unfolded<S, O, D>> {
  // A new log (the first batch of every object) is known empty after this one read.
  const start = options.fromStart ? { empty: false } : await store.loadStart(stream);
  if (start.empty) return { state: decider.initialState(), head: 0, snapshotSeq: 0, tail: [], partial: false };
  const { snapshot } = start;
  const state = snapshot ? decider.snapshot.restore(snapshot.state) : decider.initialState();
  const snapshotSeq = snapshot?.seq ?? 0;
  const { entries, head, podFirstSightings } = await store.read(stream, { afterSeq: snapshotSeq });
  const tail = entries.map((entry) => decider.log.event(entry));
  // Records first seen in the tail are in no archive (shared/job/first-sightings.ts): not looked up.
  const whole = snapshot && decider.archive ? await decider.archive.restoreForTail(store, stream, state, tail, new Set(podFirstSightings), options.wholeArchive) : true;
  const lastEntry = entries.at(-1);
  const headHash = lastEntry?.hash;
  return { state, head: Math.max(head, snapshotSeq), snapshotSeq, tail, partial: !whole, ...(headHash === undefined ? {} : { headHash }), ...(lastEntry ? { lastEntry } : {}) };
}

/**
 * `fromStart`: fold the whole log, for a view that needs every event (the tail is then the log).
 * `wholeArchive`: from a snapshot, put back every archived record (a batch decided again: write-batch.ts).
 */
export interface LoadOptions {
  readonly fromStart?: boolean;
  readonly wholeArchive?: boolean;
}

/** The state at the head of the log: the snapshot, the archived records the tail names, then the tail. */
export async function loadState<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, store: LogStore, stream: StreamId, options: LoadOptions = {},
): Promise<Unfolded<S, O, D>> {
  const loaded = await loadUnfolded(decider, store, stream, options);
  let state = loaded.state;
  for (const event of loaded.tail) state = decider.evolve(state, event);
  decider.settle?.(state);
  return { ...loaded, state };
}

/** The chain hash of the entry at `head` (undefined for an empty log), when no entry read after a snapshot carries it. */
export async function chainHeadAt(store: EventStore, stream: StreamId, head: number): Promise<string | undefined> {
  if (head === 0) return undefined;
  const { entries } = await store.read(stream, { afterSeq: head - 1, limit: 1 });
  return (entries[0] as { hash?: string } | undefined)?.hash;
}

export interface LoadDeps {
  readonly store: LogStore;
  readonly cache?: StateCache;
  /** Decision page size: a cut-short sync is paged again as it was first paged. */
  readonly limits?: { readonly pageBytes?: number };
}

/**
 * The state to write a batch on: the warm one from the cache when there is one (taken out, so
 * no one else uses it meanwhile), else snapshot + tail from the store, with a sync a crash cut
 * short decided again where it was first decided (its rest is logged first). Then the archived
 * records the batch names are put back, so a late event of a settled pod is judged against its record.
 */
export async function loadForWrite<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, deps: LoadDeps, stream: StreamId, observations: readonly O[], options: Pick<LoadOptions, 'wholeArchive'> = {},
): Promise<{ loaded: CachedState<S, D, C>; warm: boolean }> {
  const cached = options.wholeArchive ? undefined : deps.cache?.take<S, D, C>(streamKey(stream));
  let loaded = cached ?? (await loadFromStore(decider, deps, stream, options));
  if (loaded.partial && decider.archive && (await decider.archive.restoreForBatch(deps.store, stream, loaded.state, observations))) loaded = { ...loaded, partial: false };
  return { loaded, warm: cached !== undefined };
}

async function loadFromStore<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, deps: LoadDeps, stream: StreamId, options: Pick<LoadOptions, 'wholeArchive'>,
): Promise<CachedState<S, D, C>> {
  const { state: snapshotState, head, snapshotSeq, tail, headHash: tailHash, lastEntry, partial } = await loadUnfolded(decider, deps.store, stream, options);
  const eventIds = await loadEventIds(decider, deps.store, stream, snapshotSeq, tail);
  const cut = lastEntry && cutShort(decider, lastEntry, head, stream);
  let state = snapshotState;
  let rest: SyncRest<D, C> | undefined;
  if (cut) ({ state, rest } = foldResuming(decider, state, tail, cut, deps.limits?.pageBytes));
  else for (const event of tail) state = decider.evolve(state, event);
  // Nothing after the snapshot: the chain hash at the head is the snapshot position's entry's.
  const headHash = tailHash ?? (await chainHeadAt(deps.store, stream, head));
  const owed = !cut && lastEntry ? decider.owedSync?.(lastEntry) : undefined;
  if (owed) {
    const decided = decider.decide(state, owed.at, deps.limits?.pageBytes);
    const read = { ...decider.readRecord(state, head, headHash), decisions: decided.decisions.length };
    if (decided.decisions.length > 0) rest = { ...decided, at: owed.at, read };
  }
  return { state, head, headHash, snapshotSeq, eventIds, ...(rest ? { rest } : {}), partial, size: decider.size(state) };
}
