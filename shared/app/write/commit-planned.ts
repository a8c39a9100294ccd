import { takeSnapshot } from '../../job/snapshot.ts';
import { GENESIS_HASH } from '../../log/hash-chain.ts';
import type { JobState } from '../../job/state.ts';
import { commitSteps, stepOutboxItem } from '../../outbox/commit-steps.ts';
import { jsonBytes, MAX_SNAPSHOT_STATE_BYTES } from '../event-store-limits.ts';
import type { EventStore, NewEntry, StreamId } from '../event-store.ts';
import { jobSummary } from '../job-summary.ts';
import { stableHash } from '../../job/stable-hash.ts';
import type { PodArchive } from '../pod-archive.ts';
import type { PlannedBatch } from './plan-entries.ts';
import { snapshotDue } from './snapshot-cadence.ts';
import type { CachedState } from './state-cache.ts';

/**
 * The store skipped entries as already logged (a store that still keeps per-event markers, and
 * an event the fold could not tell it holds): the log is not where the plan put it. The writer
 * reloads and redoes the batch without those events.
 */
export class LogShiftedError extends Error {
  override name = 'LogShiftedError';
  readonly duplicates: readonly string[];

  constructor(duplicates: readonly string[]) {
    super(`the store already held ${duplicates.length} of the batch's events: ${duplicates.slice(0, 3).join(', ')}`);
    this.duplicates = duplicates;
  }
}

/**
 * Steps are cut for log pages (no entry cap, entries counted as pages store them), since every
 * store pages `pageEntries` commits. Off, they are cut like the reconcile's (≤ 32 entries,
 * bodies counted), for a store that would write an item and a marker per entry (DynamoDB
 * refuses a transaction of more than 100 items).
 */
export const PAGED_STEPS = true;

export interface CommitDeps {
  readonly store: EventStore & PodArchive;
  readonly snapshotEvery?: number;
  readonly limits?: { readonly stepBytes?: number };
}

export interface Committed {
  /** The state to keep warm. */
  readonly state: JobState;
  readonly snapshotSeq: number;
  /** Bytes of a due snapshot that was over MAX_SNAPSHOT_STATE_BYTES and so not written. */
  readonly snapshotSkipped?: number;
  /** What the committed summary says (updatedAt aside), for the next batch. */
  readonly summaryKey: string | undefined;
}

/**
 * Commits a planned batch in steps (shared/outbox/commit-steps.ts), each conditioned on the head
 * the step before left, each with its outbox item; the last one with the fleet summary (when it
 * changed since this writer's last commit) and, when due, the snapshot. Entries go as log pages
 * (`pageEntries`): the writer deduplicated them.
 */
export async function commitPlanned(
  deps: CommitDeps, stream: StreamId, state: JobState, loaded: CachedState, plan: PlannedBatch, now: string,
): Promise<Committed> {
  const { store } = deps;
  const head = state.position;
  const due = snapshotDue(state, head, loaded.snapshotSeq, deps.snapshotEvery);
  const taken = due ? takeSnapshot(state) : undefined;
  const snapshotBytes = taken ? jsonBytes(taken.snapshot) : 0;
  const snapshot = taken && snapshotBytes <= MAX_SNAPSHOT_STATE_BYTES ? taken : undefined;
  const steps = commitSteps(loaded.head, plan.planned, deps.limits?.stepBytes, PAGED_STEPS ? { recordedAt: now } : undefined);
  const managedBy = state.settings?.managedBy;
  // The summary only when it says something new: a step with one log page and nothing else is
  // a single conditional put, half the cost of a transaction (functions/adapters).
  const summary = jobSummary(state, now);
  const summaryKey = summary && stableHash({ ...summary, updatedAt: undefined });
  const newSummary = summaryKey === undefined || summaryKey !== loaded.summaryKey ? summary : undefined;
  // The hashes planEntries chained, handed to the store so it does not hash each entry again.
  const hashOf = new Map(plan.planned.map((p) => [p.entry, p.hash]));
  let at = loaded.head;
  // The chain hash at `at`, so the store writes without reading the head first (one round trip less per step).
  // An empty log's is GENESIS_HASH (a Job's first batch, often its biggest).
  let atHash = loaded.headHash ?? (loaded.head === 0 ? GENESIS_HASH : undefined);
  const firstSightings = new Set(plan.firstSightings);
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1;
    const item = state.identity ? stepOutboxItem(state.identity, managedBy, step, now) : undefined;
    const committed = await store.commit(stream, {
      expectedHead: at,
      recordedAt: now,
      entries: step.entries,
      outbox: item ? [item] : [],
      pageEntries: true,
      podFirstSightings: step.entries.flatMap((_, j) => (firstSightings.has(step.fromSeq + j) ? [j] : [])),
      ...(atHash === undefined ? {} : { expectedHeadHash: atHash, ...knownHashes(step.entries, hashOf) }),
      snapshot: last && snapshot ? { seq: head, state: snapshot.snapshot } : undefined,
      summary: last ? newSummary : undefined,
    });
    if (committed.duplicates.length > 0) throw new LogShiftedError(committed.duplicates);
    at = committed.head;
    atHash = committed.appended.at(-1)?.hash ?? atHash;
  }
  if (!snapshot) {
    return { state, snapshotSeq: loaded.snapshotSeq, summaryKey, ...(taken ? { snapshotSkipped: snapshotBytes } : {}) };
  }
  const fresh = snapshot.archived.filter((pod) => !state.pods.get(pod.uid)?.fromArchive);
  if (fresh.length > 0) await store.saveArchivedPods(stream, fresh);
  // The log's eventIds up to the snapshot, so a cold load reads them instead of the log.
  const { eventIds } = loaded;
  if (eventIds.through >= head && eventIds.persisted < head) {
    await store.saveEventIds(stream, eventIds.segment(eventIds.persisted, head));
    eventIds.persisted = head;
  }
  // The warm state keeps its settled pods (no archive read for them while warm), marked as
  // stored so the next snapshot does not archive them again.
  for (const pod of fresh) {
    const record = state.pods.get(pod.uid);
    if (record) record.fromArchive = true;
  }
  return { state, snapshotSeq: head, summaryKey };
}

/** `entryHashes` for a step whose every entry has its planned hash, else nothing (the store chains them). */
function knownHashes(entries: readonly NewEntry[], hashOf: ReadonlyMap<NewEntry, string | undefined>): { entryHashes?: string[] } {
  const hashes = entries.map((entry) => hashOf.get(entry));
  return hashes.every((hash) => hash !== undefined) ? { entryHashes: hashes as string[] } : {};
}
