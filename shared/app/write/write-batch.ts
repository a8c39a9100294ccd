import { outboundEvents } from '../../contract/outbound.ts';
import type { Observation } from '../../job/events.ts';
import type { FoldConfig } from '../../job/state.ts';
import { decideAtEachPosition } from '../../reconcile/decide-at-each-position.ts';
import { VersionConflictError, type EventStore, type StreamId } from '../event-store.ts';
import type { PodArchive } from '../pod-archive.ts';
import { loadState, type ReconcileOutcome } from '../reconcile.ts';
import { parkStalled, stillParked } from '../park-stalled.ts';
import { jobSummary } from '../job-summary.ts';
import { isDeterministicFailure } from '../stall.ts';
import { streamKey } from '../stream-key.ts';
import { childJobStatusEntry } from '../child-job-status.ts';
import { firstSightingSeqs, unseenPods } from '../first-sightings.ts';
import { conflictCandidates, keepNews, type KnownReason, type RefusedObservation, type StoredFirsts } from './known-observation.ts';
import { eventContentHash, isObservation } from './event-id-index.ts';
import { entryEvent } from '../log-codec.ts';
import { loadForWrite } from './load-for-write.ts';
import { planEntries } from './plan-entries.ts';
import { commitPlanned, LogShiftedError } from './commit-planned.ts';
import type { StateCache } from './state-cache.ts';
import { compareTimes } from '../../k8s/time.ts';

export interface WriteDeps {
  readonly store: EventStore & PodArchive;
  /** The time the batch is recorded at (RFC 3339). Decisions are taken at log times, never this. */
  readonly clock: () => string;
  readonly config: FoldConfig;
  /** Warm states across batches (one per process); without it every batch loads from the store. */
  readonly cache?: StateCache;
  /** The fewest entries between snapshots (see snapshot-cadence.ts). */
  readonly snapshotEvery?: number;
  /** Attempts when another writer committed first (optimistic concurrency). */
  readonly maxAttempts?: number;
  /** Smaller decision pages and commit steps than the defaults, for tests of many of them. */
  readonly limits?: { readonly pageBytes?: number; readonly stepBytes?: number };
}

/** What writing one batch of a Job did, in the reconcile's shape (metrics read both alike). */
export interface WriteOutcome extends ReconcileOutcome {
  /** Observations logged. */
  readonly logged: number;
  /** Observations not logged because the log or the fold already held them, by reason. */
  readonly dropped: Readonly<Partial<Record<KnownReason | 'in-batch', number>>>;
  /** Observations refused and recorded in the log (ObservationRefused), for the rejection sink. */
  readonly refused: readonly RefusedObservation[];
}

/**
 * The single writer of a Job's log, for one batch of its observations in arrival order:
 *  1. load the state (warm from the cache, or snapshot + tail) and the archived pods named;
 *  2. finish a sync a crash cut short (load-for-write.ts `cutShort`, decided again where it
 *     was first decided: resume-cut-sync.ts), drop what the fold
 *     already holds (known-observation.ts), append the rest and decide at each log position
 *     (decide-at-each-position.ts);
 *  3. commit observations, decisions, outbox items and summary (and a snapshot when due) in
 *     conditioned steps on the head (commit-planned.ts), with the pods' first sightings marked
 *     (../first-sightings.ts);
 *  4. on VersionConflictError (another writer, a stale cache) reload and redo: what the other
 *     writer logged is then in the state, so nothing is logged or decided twice;
 *  5. a Job owned by a JobSet reports its status to the JobSet's log after the commit.
 * A failure that would fail again (a store limit, a corrupt entry) parks the Job (stall.ts).
 */
export async function writeBatch(deps: WriteDeps, stream: StreamId, observations: readonly Observation[]): Promise<WriteOutcome> {
  const maxAttempts = deps.maxAttempts ?? 8;
  const skip = new Set<string>();
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeOnce(deps, stream, observations.filter((o) => !skip.has(o.eventId)), attempt);
    } catch (error) {
      if (error instanceof LogShiftedError) for (const id of error.duplicates) skip.add(id);
      const retry = error instanceof VersionConflictError || error instanceof LogShiftedError;
      if (retry && attempt < maxAttempts) continue;
      if (!isDeterministicFailure(error)) throw error;
      const { stall, head } = await parkStalled(deps.store, stream, error, deps.clock(), () => loadState(deps, stream), jobNameIn(observations));
      return { ...nothingDone(stream, head, attempt), stalled: stall };
    }
  }
}

async function writeOnce(deps: WriteDeps, stream: StreamId, observations: readonly Observation[], attempt: number): Promise<WriteOutcome> {
  const loaded = await loadForWrite(deps, stream, observations);
  const { state, head } = loaded;
  const unseen = unseenPods(state, observations);
  const known = {
    index: loaded.eventIds,
    stored: await storedFirsts(deps.store, stream, conflictCandidates(loaded.eventIds, observations)),
    dropped: new Map<KnownReason | 'in-batch', number>(),
    refused: [] as RefusedObservation[],
  };
  const decided = decideAtEachPosition(state, observations, {
    keep: keepNews(known),
    rest: loaded.rest,
    pageBytes: deps.limits?.pageBytes,
  });
  for (const event of decided.entries) loaded.eventIds.addEvent(event);
  const droppedCounts = Object.fromEntries(known.dropped);
  const refused = known.refused;
  if (decided.entries.length === 0) {
    // Nothing new; a Job parked before is shown healthy again (its summary without the stall).
    if (await stillParked(deps.store, stream, state)) {
      const now = deps.clock();
      await deps.store.commit(stream, { expectedHead: head, recordedAt: now, entries: [], outbox: [], summary: jobSummary(state, now) });
    }
    deps.cache?.put(streamKey(stream), { ...loaded, rest: undefined });
    return { ...nothingDone(stream, head, attempt), wakeAt: decided.wakeAt, dropped: droppedCounts, refused };
  }
  const now = deps.clock();
  const plan = { ...planEntries(state, decided, { head, hash: loaded.headHash }, now), firstSightings: firstSightingSeqs(decided.entries, unseen) };
  const committed = await commitPlanned(deps, stream, state, loaded, plan, now);
  const newHead = state.position;
  deps.cache?.put(streamKey(stream), {
    state: committed.state,
    head: newHead,
    headHash: plan.lastHash,
    snapshotSeq: committed.snapshotSeq,
    summaryKey: committed.summaryKey,
    eventIds: loaded.eventIds,
    partial: loaded.partial,
  });
  const child = childJobStatusEntry(state, now);
  // After the commit: the JobSet must never see a status the Job's log does not hold.
  if (child) await deps.store.append(child.stream, [child.entry], now);
  const decisions = decided.syncs.flatMap((s) => s.decisions);
  const commands = decided.syncs.flatMap((s) => s.commands);
  // What this batch queued: a cut-short sync's notifications left with its start.
  const published = decided.syncs.flatMap((s) => outboundEvents(state.identity, state.settings?.managedBy, s.resumed ? [] : s.decisions, s.commands));
  const logged = decided.entries.filter(isObservation).length;
  const latestObservedAt = observations.reduce<string | undefined>((latest, o) => (!latest || compareTimes(o.observedAt, latest) > 0 ? o.observedAt : latest), undefined);
  return {
    stream,
    head: newHead,
    decisions,
    commands,
    published,
    wakeAt: decided.wakeAt,
    attempts: attempt,
    latestObservedAt,
    logged,
    dropped: droppedCounts,
    refused,
    ...(committed.snapshotSkipped === undefined ? {} : { snapshotSkipped: committed.snapshotSkipped }),
  };
}

function nothingDone(stream: StreamId, head: number, attempts: number): WriteOutcome {
  return { stream, head, decisions: [], commands: [], published: [], wakeAt: undefined, attempts, latestObservedAt: undefined, logged: 0, dropped: {}, refused: [] };
}

/** The name the batch's first Job observation carries: a Job parked before its log has one. */
function jobNameIn(observations: readonly Observation[]): string | undefined {
  for (const observation of observations) if (observation.type === 'JobObserved') return observation.job.metadata.name;
  return undefined;
}

/** The stored entries at `seqs` (eventId and content hash), to tell a conflicting duplicate from a fingerprint collision. */
async function storedFirsts(store: WriteDeps['store'], stream: StreamId, seqs: readonly number[]): Promise<StoredFirsts> {
  const found = new Map<number, { eventId: string; hash: string }>();
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && (seqs[j + 1] as number) === (seqs[j] as number) + 1) j++;
    const from = seqs[i] as number;
    const { entries } = await store.read(stream, { afterSeq: from - 1, limit: j - i + 1, skipHead: true });
    for (const entry of entries) found.set(entry.seq, { eventId: entry.eventId, hash: eventContentHash(entryEvent(entry)) });
    i = j + 1;
  }
  return found;
}
