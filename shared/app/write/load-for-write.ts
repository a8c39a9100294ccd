import type { Observation } from '../../job/events.ts';
import type { DecisionRead } from '../../audit/decision-read.ts';
import { evolve, type JobEvent } from '../../job/evolve.ts';
import type { FoldConfig } from '../../job/state.ts';
import { restoreArchived } from '../../job/snapshot.ts';
import type { EventStore, LogEntry, StreamId } from '../event-store.ts';
import type { PodArchive } from '../pod-archive.ts';
import { foldResuming, type CutSync } from '../../reconcile/resume-cut-sync.ts';
import { chainHeadAt, loadUnfolded } from '../reconcile.ts';
import type { CachedState, StateCache } from './state-cache.ts';
import { streamKey } from '../stream-key.ts';
import { entryEvent } from '../log-codec.ts';
import { EventIdIndex } from './event-id-index.ts';

export interface LoadDeps {
  readonly store: EventStore & PodArchive;
  readonly config: FoldConfig;
  readonly cache?: StateCache;
  /** Termination page size: a cut-short sync is paged again as it was first paged. */
  readonly limits?: { readonly pageBytes?: number };
}

/**
 * The state to write a batch on: the warm one from the cache when there is one (taken out, so
 * no one else uses it meanwhile), else snapshot + tail from the store. Then the archived pods
 * the batch names are put back, so a late event of a settled pod is judged against its record.
 */
export async function loadForWrite(deps: LoadDeps, stream: StreamId, observations: readonly Observation[]): Promise<CachedState> {
  const loaded = deps.cache?.take(streamKey(stream)) ?? (await loadFromStore(deps, stream));
  if (loaded.partial) {
    const missing = [...new Set(observations.flatMap(podUid))].filter((uid) => !loaded.state.pods.has(uid));
    if (missing.length > 0) {
      const archived = await deps.store.loadArchivedPods(stream, missing);
      restoreArchived(loaded.state, archived);
      // Already in the archive: the next snapshot does not store them again.
      for (const pod of archived) {
        const record = loaded.state.pods.get(pod.uid);
        if (record) record.fromArchive = true;
      }
    }
  }
  return loaded;
}

async function loadFromStore(deps: LoadDeps, stream: StreamId): Promise<CachedState> {
  const { state, head, snapshotSeq, tail, headHash: tailHash, lastEntry } = await loadUnfolded(deps, stream);
  const eventIds = await loadEventIds(deps.store, stream, snapshotSeq, tail);
  const cut = lastEntry && cutShort(lastEntry, head);
  const rest = cut ? foldResuming(state, tail, cut, deps.limits?.pageBytes) : undefined;
  if (!cut) for (const event of tail) evolve(state, event);
  // Nothing after the snapshot: the chain hash at the head is the snapshot position's entry's.
  const headHash = tailHash ?? (await chainHeadAt(deps.store, stream, head));
  return { state, head, headHash, snapshotSeq, eventIds, ...(rest ? { rest } : {}), partial: snapshotSeq > 0 };
}

/** Log entries read at once to index positions no saved segment covers. */
const GAP_READ = 5000;

/**
 * The log's eventIds 1 … head: the saved segments, then the log itself for the positions up to
 * the snapshot that no segment covers (a log written before the index, a save a crash lost;
 * read once, then saved with the next snapshot), then the tail after the snapshot.
 */
async function loadEventIds(store: LoadDeps['store'], stream: StreamId, snapshotSeq: number, tail: readonly JobEvent[]): Promise<EventIdIndex> {
  const index = new EventIdIndex();
  for (const segment of await store.loadEventIds(stream)) {
    if (segment.from > index.through || index.through >= snapshotSeq) break;
    if (segment.to > index.through) index.addSegment(segment, snapshotSeq);
  }
  index.persisted = index.through;
  while (index.through < snapshotSeq) {
    const { entries } = await store.read(stream, { afterSeq: index.through, limit: Math.min(GAP_READ, snapshotSeq - index.through), skipHead: true });
    if (entries.length === 0) throw new Error(`log ${stream.uid}: no entries after ${index.through}, below its snapshot at ${snapshotSeq}`);
    for (const entry of entries) index.addEvent(entryEvent(entry));
  }
  for (const event of tail) index.addEvent(event);
  return index;
}

function podUid(observation: Observation): string[] {
  if (observation.type === 'PodObserved') return [observation.pod.metadata.uid];
  if (observation.type === 'PodDeleted') return [observation.uid];
  return [];
}

/**
 * The log's last sync when a crash cut it short, else undefined. The writer records in each
 * decision what it read (`read.head`, the sync's position) and how many decisions its sync
 * logged (`read.decisions`), and commits the observation that ends a run in the same step as
 * its sync's first decision. So a log that ends with an observation, or with a decision whose
 * sync logged all of its decisions after `read.head`, is complete; one that ends part-way
 * through a sync is not. Entries of earlier writers (no `read.decisions`) count as complete.
 */
export function cutShort(last: LogEntry, head: number): CutSync | undefined {
  const read = (last.body as { read?: DecisionRead } | null)?.read;
  if (read?.decisions === undefined) return undefined;
  return head - read.head < read.decisions ? { at: last.observedAt, read } : undefined;
}
