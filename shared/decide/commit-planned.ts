import { GENESIS_HASH } from '../log/hash-chain.ts';
import { commitSteps, stepOutboxItems } from '../outbox/commit-steps.ts';
import { MAX_SNAPSHOT_STATE_BYTES, textBytes, toJson } from '../log/event-store-limits.ts';
import type { NewEntry, StreamId } from '../log/event-store.ts';
import { stableHash } from '../job/stable-hash.ts';
import type { Decider, LogEvent } from './decider.ts';
import type { LogStore } from './load-log.ts';
import type { PlannedBatch } from './plan-entries.ts';
import type { CachedState } from './state-cache.ts';

/**
 * The store skipped entries as already logged (an eventId repeated within the commit): the log
 * is not where the plan put it. The writer reloads and redoes the batch without those events.
 */
export class LogShiftedError extends Error {
  override name = 'LogShiftedError';
  readonly duplicates: readonly string[];

  constructor(duplicates: readonly string[]) {
    super(`the store already held ${duplicates.length} of the batch's events: ${duplicates.slice(0, 3).join(', ')}`);
    this.duplicates = duplicates;
  }
}

export interface CommitDeps {
  readonly store: LogStore;
  readonly snapshotEvery?: number;
  readonly limits?: { readonly stepBytes?: number };
}

export interface Committed {
  readonly snapshotSeq: number;
  /** Bytes of a due snapshot that was over MAX_SNAPSHOT_STATE_BYTES and so not written. */
  readonly snapshotSkipped?: number;
  /** What the committed summary says (updatedAt aside), for the next batch. */
  readonly summaryKey: string | undefined;
}

/**
 * Commits a planned batch in steps (shared/outbox/commit-steps.ts), each conditioned on the head
 * the step before left, each with its outbox item; the last one with the snapshot when due; then
 * the fleet summary (when it changed since this writer's last commit). Entries go as log pages
 * (entries share page items): the writer deduplicated them against the whole log.
 */
export async function commitPlanned<S, O extends LogEvent, D extends LogEvent, C>(
  decider: Decider<S, O, D, C>, deps: CommitDeps, stream: StreamId, state: S, loaded: CachedState<S, D, C>, plan: PlannedBatch, now: string,
): Promise<Committed> {
  const { store } = deps;
  const head = decider.position(state);
  const due = decider.snapshot.due(state, head, loaded.snapshotSeq, deps.snapshotEvery);
  const taken = due ? decider.snapshot.take(state) : undefined;
  // Serialised once: measured here, then checked and written by the store as this text.
  const snapshotJson = taken ? toJson(taken.snapshot) : undefined;
  const snapshotBytes = snapshotJson === undefined ? 0 : textBytes(snapshotJson);
  const snapshot = taken && snapshotBytes <= MAX_SNAPSHOT_STATE_BYTES ? taken : undefined;
  const steps = commitSteps(loaded.head, plan.planned, now, deps.limits?.stepBytes);
  const target = decider.outboxTarget(state, stream);
  // The summary only when it says something new (a put of 1 write unit, and 1 per index entry
  // it changes, on DynamoDB: functions/adapters/dynamodb-projection.ts).
  const summary = decider.summary(state, now);
  const summaryKey = summary && stableHash({ ...summary, updatedAt: undefined });
  const newSummary = summaryKey === undefined || summaryKey !== loaded.summaryKey ? summary : undefined;
  // The hashes planEntries chained, handed to the store so it does not hash each entry again.
  const hashOf = new Map(plan.planned.map((p) => [p.entry, p.hash]));
  let at = loaded.head;
  // The chain hash at `at`, so the store writes without reading the head first (one round trip less per step).
  // An empty log's is GENESIS_HASH (a log's first batch, often its biggest).
  let atHash = loaded.headHash ?? (loaded.head === 0 ? GENESIS_HASH : undefined);
  const firstSightings = new Set(plan.firstSightings);
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1;
    const outbox = target ? stepOutboxItems(target.job, target.managedBy, step, now) : [];
    const committed = await store.commit(stream, {
      expectedHead: at,
      recordedAt: now,
      entries: step.entries,
      outbox,
      podFirstSightings: step.entries.flatMap((_, j) => (firstSightings.has(step.fromSeq + j) ? [j] : [])),
      ...(atHash === undefined ? {} : { expectedHeadHash: atHash, ...knownHashes(step.entries, hashOf) }),
      snapshot: last && snapshot ? { seq: head, state: snapshot.snapshot, json: snapshotJson } : undefined,
    });
    if (committed.duplicates.length > 0) throw new LogShiftedError(committed.duplicates);
    at = committed.head;
    atHash = committed.appended.at(-1)?.hash ?? atHash;
  }
  // The summary after the steps, as a commit of its own: a projection of the log, it need not land
  // with the last step, and the step's outbox is on its way (the table's stream) before it.
  if (newSummary) {
    await store.commit(stream, { expectedHead: at, recordedAt: now, entries: [], outbox: [], summary: newSummary, ...(atHash === undefined ? {} : { expectedHeadHash: atHash }) });
  }
  if (!snapshot) {
    return { snapshotSeq: loaded.snapshotSeq, summaryKey, ...(taken ? { snapshotSkipped: snapshotBytes } : {}) };
  }
  if (decider.archive) await decider.archive.save(store, stream, state, snapshot.archived);
  // The log's eventIds up to the snapshot, so a cold load reads them instead of the log.
  const { eventIds } = loaded;
  if (eventIds.through >= head && eventIds.persisted < head) {
    await store.saveEventIds(stream, eventIds.segment(eventIds.persisted, head));
    eventIds.persisted = head;
  }
  return { snapshotSeq: head, summaryKey };
}

/** `entryHashes` for a step whose every entry has its planned hash, else nothing (the store chains them). */
function knownHashes(entries: readonly NewEntry[], hashOf: ReadonlyMap<NewEntry, string | undefined>): { entryHashes?: string[] } {
  const hashes = entries.map((entry) => hashOf.get(entry));
  return hashes.every((hash) => hash !== undefined) ? { entryHashes: hashes as string[] } : {};
}
