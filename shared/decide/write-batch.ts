import { VersionConflictError, type StreamId } from '../log/event-store.ts';
import { parkStalled, summaryOutdated } from './park-stalled.ts';
import { isDeterministicFailure, type Stall } from './stall.ts';
import { streamKey } from '../log/stream-key.ts';
import type { OutboundEvent } from '../contract/outbound.ts';
import { commitPlanned, LogShiftedError } from './commit-planned.ts';
import { decideAtEachPosition } from './decide-at-each-position.ts';
import type { Decider, LogEvent, Report } from './decider.ts';
import { loadForWrite, loadState, type LogStore } from './load-log.ts';
import { conflictCandidates, indexEvent, keepNews, storedFirsts, type RefusedObservation } from './keep-news.ts';
import { planEntries } from './plan-entries.ts';
import type { StateCache } from './state-cache.ts';
import { compareTimes } from '../k8s/time.ts';

export interface WriteDeps {
  readonly store: LogStore;
  /** The time the batch is recorded at (RFC 3339). Decisions are taken at log times, never this. */
  readonly clock: () => string;
  /** Warm states across batches (one per process); without it every batch loads from the store. */
  readonly cache?: StateCache;
  /** The fewest entries between snapshots (see the decider's snapshot cadence). */
  readonly snapshotEvery?: number;
  /** Attempts when another writer committed first (optimistic concurrency). */
  readonly maxAttempts?: number;
  /** Smaller decision pages and commit steps than the defaults, for tests of many of them. */
  readonly limits?: { readonly pageBytes?: number; readonly stepBytes?: number };
}

/** A report for another log, and the index in the batch of the observation after which it was made. */
export interface PlacedReport {
  readonly report: Report;
  /** -1: made before the batch's observations (the state the batch started on). */
  readonly after: number;
  /** It says what the report before it said (`Report.says`): sent for its counts only, which may ride on a later entry (fed-logs.ts). */
  readonly countsOnly?: true;
  /** The report of the state before the batch, sent again after a cold load: the other log most likely holds it already. */
  readonly resent?: true;
}

/** What writing one batch of a log did. */
export interface WriteOutcome<D = unknown, C = unknown, O = unknown> {
  readonly stream: StreamId;
  readonly head: number;
  readonly decisions: readonly D[];
  readonly commands: readonly C[];
  /** Outbound events the batch's syncs queued (built when decided, or published from the log). */
  readonly published: readonly OutboundEvent[];
  readonly wakeAt: string | undefined;
  readonly attempts: number;
  /** observedAt of the newest observation of the batch, for the decision latency. */
  readonly latestObservedAt: string | undefined;
  /** Bytes of a due snapshot that was over MAX_SNAPSHOT_STATE_BYTES and so not written. */
  readonly snapshotSkipped?: number;
  /** Set when the log could not be written and was parked (shared/decide/stall.ts). */
  readonly stalled?: Stall;
  /** Observations logged. */
  readonly logged: number;
  /** Observations not logged because the log or the fold already held them, by reason. */
  readonly dropped: Readonly<Record<string, number>>;
  /** Observations refused (a conflicting duplicate, a uid under another name), for the rejection sink. */
  readonly refused: readonly RefusedObservation<O>[];
  /** What other logs learn, in batch order, after the commit (a child Job's statuses, for its JobSet). */
  readonly reports: readonly PlacedReport[];
}

/**
 * The single writer of a log, for one batch of its observations in arrival order, with any
 * decider (shared/job and shared/jobset export theirs):
 *  1. load the state (warm from the cache, or snapshot + tail) and the archived records named;
 *  2. finish a sync a crash cut short (decided again where it was first decided:
 *     resume-cut-sync.ts), drop what the fold already holds (the decider's `known`), append
 *     the rest and decide at each log position (decide-at-each-position.ts); a decision that
 *     reads every archived record, taken on a state without them, is taken again after a load
 *     with the whole archive (the decider's `readsEveryRecord`);
 *  3. claim the uid of a new log (pod-archive.ts `claimUid`: refused when another namespace
 *     holds it), commit observations, decisions, outbox items and summary (and a snapshot when
 *     due) in conditioned steps on the head (commit-planned.ts), with first sightings marked;
 *  4. on VersionConflictError (another writer, a stale cache) reload and redo: what the other
 *     writer logged is then in the state, so nothing is logged or decided twice;
 *  5. return what other logs learn (reports), for the caller to write after the commit.
 * A failure that would fail again (a store limit, a corrupt entry) parks the log (stall.ts).
 */
export async function writeBatch<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, deps: WriteDeps, stream: StreamId, observations: readonly O[],
): Promise<WriteOutcome<D, C, O>> {
  const maxAttempts = deps.maxAttempts ?? 8;
  const skip = new Set<string>();
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeOnce(decider, deps, stream, observations.filter((o) => !skip.has(o.eventId)), attempt);
    } catch (error) {
      if (error instanceof LogShiftedError) for (const id of error.duplicates) skip.add(id);
      const retry = error instanceof VersionConflictError || error instanceof LogShiftedError;
      if (retry && attempt < maxAttempts) continue;
      if (!isDeterministicFailure(error)) throw error;
      const load = () => loadState(decider, deps.store, stream);
      const { stall, head } = await parkStalled(decider, deps.store, stream, error, deps.clock(), load, nameIn(decider, observations));
      return { ...nothingDone(stream, head, attempt), stalled: stall };
    }
  }
}

async function writeOnce<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, deps: WriteDeps, stream: StreamId, observations: readonly O[], attempt: number, wholeArchive = false,
): Promise<WriteOutcome<D, C, O>> {
  const { loaded, warm } = await loadForWrite(decider, deps, stream, observations, { wholeArchive });
  const { head } = loaded;
  const unseen = decider.archive?.unseen(loaded.state, observations);
  // What other logs know of this one before the batch: made again after a load from the store
  // or a batch that logged nothing, where a crash may have cut off the reports of its first delivery.
  const before = decider.report?.(loaded.state, undefined);
  const known = {
    index: loaded.eventIds,
    stored: await storedFirsts(decider, deps.store, stream, conflictCandidates(decider, loaded.eventIds, observations)),
    dropped: new Map<string, number>(),
    refused: [] as RefusedObservation<O>[],
    kept: new Map<string, number>(),
  };
  const decided = decideAtEachPosition(decider, loaded.state, observations, {
    stream,
    keep: keepNews(decider, known),
    ...(loaded.rest ? { rest: loaded.rest } : {}),
    ...(deps.limits?.pageBytes === undefined ? {} : { pageBytes: deps.limits.pageBytes }),
  });
  // A decision that read every record (a Job's interim condition and its instants), taken on a
  // state loaded from a snapshot with only the archived records its tail and batch name: decided
  // again, nothing committed yet, on a state with the whole archive back, as a warm state and a
  // replay decide it (issues 20, 21). Once in a Job's life, on a cold or partial state only.
  if (loaded.partial && decider.archive?.readsEveryRecord(decided.state, decided.entries)) {
    return writeOnce(decider, deps, stream, observations, attempt, true);
  }
  for (const event of decided.entries) indexEvent(decider, loaded.eventIds, event, known.kept);
  const droppedCounts = Object.fromEntries(known.dropped);
  const { refused } = known;
  const reports = placedReports(before, !warm, decided.syncs);
  if (decided.entries.length === 0) {
    // Nothing new; a log parked before is shown healthy again (its summary without the stall),
    // and a summary a crash kept from following its commit is put now.
    const state = decided.state;
    const now = deps.clock();
    const summary = decider.summary(state, now);
    if (await summaryOutdated(deps.store, stream, summary)) {
      await deps.store.commit(stream, { expectedHead: head, recordedAt: now, entries: [], outbox: [], summary });
    }
    deps.cache?.put(streamKey(stream), { ...loaded, state, rest: undefined, size: decider.size(state) });
    const again = before ? [{ report: before, after: -1 }] : [];
    return { ...nothingDone(stream, head, attempt), wakeAt: decided.wakeAt, dropped: droppedCounts, refused, reports: again };
  }
  if (head === 0) {
    // A new log: the object is its (cluster, uid), so the uid must not already be another namespace's.
    const holder = await deps.store.claimUid(stream);
    if (holder !== stream.namespace) return { ...nothingDone(stream, head, attempt), dropped: droppedCounts, refused: uidHeldElsewhere(stream, holder, observations) };
  }
  const now = deps.clock();
  const { state } = decided;
  const plan = {
    ...planEntries(decider, decided, { head, hash: loaded.headHash }, now),
    ...(unseen ? { firstSightings: decider.archive?.firstSightings(decided.entries, unseen) } : {}),
  };
  const committed = await commitPlanned(decider, deps, stream, state, loaded, plan, now);
  const newHead = decider.position(state);
  deps.cache?.put(streamKey(stream), {
    state,
    head: newHead,
    headHash: plan.lastHash,
    snapshotSeq: committed.snapshotSeq,
    summaryKey: committed.summaryKey,
    eventIds: loaded.eventIds,
    partial: loaded.partial,
    size: decider.size(state),
  });
  const decisions = decided.syncs.flatMap((s) => s.decisions);
  const commands = decided.syncs.flatMap((s) => s.commands);
  const published = decided.syncs.flatMap((s) => s.published);
  const logged = decided.entries.filter((event) => !decider.log.isDecision(event)).length;
  const latestObservedAt = observations.reduce<string | undefined>((latest, o) => {
    const at = decider.observedAt(o);
    return !latest || compareTimes(at, latest) > 0 ? at : latest;
  }, undefined);
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
    reports,
    ...(committed.snapshotSkipped === undefined ? {} : { snapshotSkipped: committed.snapshotSkipped }),
  };
}

/**
 * The syncs' reports, each once (a sync that changed nothing others read reports what the one
 * before it did), after the one made before the batch when that one must be sent again; one
 * that says what the report before it said (that of the state before the batch included) is
 * marked as sent for its counts only.
 */
function placedReports(before: Report | undefined, cold: boolean, syncs: readonly { report?: Report; lastObservation: number }[]): PlacedReport[] {
  const placed: PlacedReport[] = cold && before ? [{ report: before, after: -1, resent: true }] : [];
  let last = before?.entry.eventId;
  let said = before?.says;
  for (const sync of syncs) {
    if (!sync.report || sync.report.entry.eventId === last) continue;
    last = sync.report.entry.eventId;
    const { says } = sync.report;
    placed.push({ report: sync.report, after: sync.lastObservation, ...(says !== undefined && says === said ? { countsOnly: true as const } : {}) });
    said = says;
  }
  return placed;
}

function nothingDone(stream: StreamId, head: number, attempts: number): WriteOutcome<never, never, never> {
  return { stream, head, decisions: [], commands: [], published: [], wakeAt: undefined, attempts, latestObservedAt: undefined, logged: 0, dropped: {}, refused: [], reports: [] };
}

/** Every observation of a batch whose uid another namespace's log holds: refused, nothing logged (a log of its own would be a second object). */
function uidHeldElsewhere<O>(stream: StreamId, holder: string, observations: readonly O[]): RefusedObservation<O>[] {
  const message = `uid ${stream.uid} in cluster ${stream.clusterId} is a ${stream.kind} of namespace ${holder}; an event names it in namespace ${stream.namespace}: refused`;
  return observations.map((observation) => ({ observation, reason: 'UidReused', field: 'detail.object.metadata.namespace', message }));
}

/** The name the batch's observations give the object: a log parked before its first commit has one. */
function nameIn<O extends LogEvent>(decider: { nameInEntry: Decider<unknown, O, LogEvent, unknown>['nameInEntry'] } & Pick<Decider<unknown, O, LogEvent, unknown>, 'log'>, observations: readonly O[]): string | undefined {
  for (const observation of observations) {
    const name = decider.nameInEntry({ ...decider.log.observation(observation), seq: 0, recordedAt: '' });
    if (name !== undefined) return name;
  }
  return undefined;
}
