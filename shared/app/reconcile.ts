import { decide } from '../job/decide.ts';
import { evolve, type JobEvent } from '../job/evolve.ts';
import type { Decision } from '../job/decisions.ts';
import type { JobCommand } from '../job/commands.ts';
import { restoreArchived, restoreSnapshot, takeSnapshot, type JobSnapshot } from '../job/snapshot.ts';
import { initialState, type FoldConfig, type JobState } from '../job/state.ts';
import { outboundEvents, type OutboundEvent } from '../contract/outbound.ts';
import { VersionConflictError, type EventStore, type LogEntry, type StreamId } from './event-store.ts';
import { commitSteps, stepOutboxItem } from '../outbox/commit-steps.ts';
import { publishedFromLog } from '../outbox/outbox-page.ts';
import { pageDecisions } from '../reconcile/page-decisions.ts';
import { decisionEntry, entryEvent } from './log-codec.ts';
import { decisionRead, withRead } from '../audit/decision-read.ts';
import { jobSummary } from './job-summary.ts';
import { jsonBytes, MAX_SNAPSHOT_STATE_BYTES } from './event-store-limits.ts';
import type { PodArchive } from './pod-archive.ts';
import { childJobStatusEntry } from './child-job-status.ts';
import { podsToLookUp } from './first-sightings.ts';
import { isDeterministicFailure, type Stall } from './stall.ts';
import { parkStalled, stillParked } from './park-stalled.ts';
import { compareTimes } from '../k8s/time.ts';

export interface ReconcileDeps {
  readonly store: EventStore & PodArchive;
  /** The time decisions are taken at (RFC 3339); time is data, so it is passed in. */
  readonly clock: () => string;
  readonly config: FoldConfig;
  /** Write a snapshot once this many entries follow the last one. */
  readonly snapshotEvery?: number;
  /** Attempts when another reconciler commits first (optimistic concurrency). */
  readonly maxAttempts?: number;
  /** Smaller decision pages and commit steps than the defaults, for tests of many of them. */
  readonly limits?: { readonly pageBytes?: number; readonly stepBytes?: number };
}

export interface ReconcileOutcome {
  readonly stream: StreamId;
  readonly head: number;
  readonly decisions: readonly Decision[];
  readonly commands: readonly JobCommand[];
  /** Outbound events put in the outbox by this reconcile. */
  readonly published: readonly OutboundEvent[];
  readonly wakeAt: string | undefined;
  readonly attempts: number;
  /** observedAt of the newest observation folded, for the decision latency. */
  readonly latestObservedAt: string | undefined;
  /** Bytes of a due snapshot that was over MAX_SNAPSHOT_STATE_BYTES and so not written. */
  readonly snapshotSkipped?: number;
  /** Set when the Job could not be decided and was parked (shared/app/stall.ts). */
  readonly stalled?: Stall;
}

/**
 * Reconciles one Job: load snapshot + tail, fold, decide, and commit the decisions with their
 * outbox items, each commit conditioned on the log head. A decision over many pods is logged
 * in pages and committed in steps (shared/outbox/commit-steps.ts), each step with one outbox
 * item naming its pages, so no decision is too large for the store. When another reconciler
 * got there first, start over from the new head: the decisions it recorded are then part of
 * the state, so nothing is decided twice; a crash between steps is finished the same way (the
 * pods already requested are not requested again).
 *  1. restore the snapshot (or start empty) and the archived pods the tail names;
 *  2. fold the tail;
 *  3. decide at `clock()`, and page the decisions;
 *  4. commit them step by step with their outbox items (the last step: the snapshot when due,
 *     the fleet summary);
 *  5. on VersionConflictError, go back to 1;
 *  6. a Job owned by a JobSet reports its status to the JobSet's log.
 */
export async function reconcile(deps: ReconcileDeps, stream: StreamId): Promise<ReconcileOutcome> {
  const maxAttempts = deps.maxAttempts ?? 8;
  for (let attempt = 1; ; attempt++) {
    try {
      return await reconcileOnce(deps, stream, attempt);
    } catch (error) {
      if (error instanceof VersionConflictError && attempt < maxAttempts) continue;
      if (!isDeterministicFailure(error)) throw error;
      const now = deps.clock();
      const { stall, head } = await parkStalled(deps.store, stream, error, now, () => loadState(deps, stream));
      return { stream, head, decisions: [], commands: [], published: [], wakeAt: undefined, attempts: attempt, latestObservedAt: undefined, stalled: stall };
    }
  }
}

async function reconcileOnce(deps: ReconcileDeps, stream: StreamId, attempt: number): Promise<ReconcileOutcome> {
  const { store } = deps;
  const { state, head, snapshotSeq, tail, headHash } = await loadState(deps, stream);
  const latestObservedAt = tail.reduce<string | undefined>(
    (latest, e) => ('observedAt' in e && (!latest || compareTimes(e.observedAt, latest) > 0) ? e.observedAt : latest),
    undefined,
  );
  const now = deps.clock();
  const result = decide(state, now);
  const decisions = pageDecisions(result.decisions, deps.limits?.pageBytes);
  const snapshotDue = head + decisions.length - snapshotSeq >= (deps.snapshotEvery ?? 50);
  let seq = head;
  for (const decision of decisions) evolve(state, { ...decision, seq: ++seq });
  const managedBy = state.settings?.managedBy;
  const published = outboundEvents(state.identity, managedBy, result.decisions, result.commands);
  const outcome = { stream, head: seq, decisions, commands: result.commands, published, wakeAt: result.wakeAt, attempts: attempt, latestObservedAt };
  const child = tail.length > 0 || decisions.length > 0 ? childJobStatusEntry(state, now) : undefined;
  // Nothing to commit, unless the Job was parked: then its summary is written without the stall.
  if (decisions.length === 0 && !snapshotDue && !(await stillParked(store, stream, state))) {
    if (child) await store.append(child.stream, [child.entry], now);
    return outcome;
  }
  const { snapshot, archived } = takeSnapshot(state);
  const snapshotBytes = snapshotDue ? jsonBytes(snapshot) : 0;
  const snapshotFits = snapshotBytes <= MAX_SNAPSHOT_STATE_BYTES;
  // Terminations travel as log ranges; the other commands and condition changes go inline
  // with the first step, so no step lands a decision whose commands are not queued.
  const inline = outboundEvents(state.identity, managedBy, result.decisions, result.commands.filter((c) => c.type !== 'TerminatePod'));
  // Each decision records what it read (docs/audit.md): the head, its chain hash, fold version, gates.
  const read = decisionRead(head, tail.length > 0 ? headHash : await chainHeadAt(store, stream, head), deps.config);
  const planned = decisions.map((decision, i) => ({ entry: withRead(decisionEntry(decision), read), inline: i === 0 ? inline : [], fromLog: publishedFromLog(decision) }));
  const steps = commitSteps(head, planned, deps.limits?.stepBytes);
  let at = head;
  for (const [i, step] of (steps.length > 0 ? steps : [undefined]).entries()) {
    const last = i === Math.max(steps.length, 1) - 1;
    const item = step && state.identity ? stepOutboxItem(state.identity, managedBy, step, now) : undefined;
    const committed = await store.commit(stream, {
      expectedHead: at,
      recordedAt: now,
      entries: step?.entries ?? [],
      outbox: item ? [item] : [],
      snapshot: last && snapshotDue && snapshotFits ? { seq, state: snapshot } : undefined,
      summary: last ? jobSummary(state, now) : undefined,
    });
    at = committed.head;
  }
  if (snapshotDue && snapshotFits) {
    const fresh = archived.filter((pod) => !state.pods.get(pod.uid)?.fromArchive);
    if (fresh.length > 0) await store.saveArchivedPods(stream, fresh);
  }
  // After the commit: the JobSet must never see a status the Job's log does not hold.
  if (child) await store.append(child.stream, [child.entry], now);
  return snapshotFits ? outcome : { ...outcome, snapshotSkipped: snapshotBytes };
}

/** The state at the head of the log: snapshot, archived pods the tail names, then the tail. */
export async function loadState(
  deps: Pick<ReconcileDeps, 'store' | 'config'>,
  stream: StreamId,
): Promise<{ state: JobState; head: number; snapshotSeq: number; tail: JobEvent[]; headHash?: string; lastEntry?: LogEntry }> {
  const { state, tail, ...loaded } = await loadUnfolded(deps, stream);
  for (const event of tail) evolve(state, event);
  return { state, tail, ...loaded };
}

/**
 * The snapshot (with the archived pods the tail names) and the tail after it, not yet folded:
 * for a caller that must stop inside the tail (the log writer re-deciding a cut-short sync).
 */
export async function loadUnfolded(
  deps: Pick<ReconcileDeps, 'store' | 'config'>,
  stream: StreamId,
): Promise<{ state: JobState; head: number; snapshotSeq: number; tail: JobEvent[]; headHash?: string; lastEntry?: LogEntry }> {
  const snapshot = await deps.store.loadSnapshot(stream);
  const state = snapshot ? restoreSnapshot(snapshot.state as JobSnapshot) : initialState(deps.config);
  const snapshotSeq = snapshot?.seq ?? 0;
  const { entries, head, podFirstSightings } = await deps.store.read(stream, { afterSeq: snapshotSeq });
  const tail = entries.map(entryEvent);
  // Pods first seen in the tail are in no archive (first-sightings.ts): not looked up.
  const missing = podsToLookUp(state, tail, new Set(podFirstSightings));
  if (snapshot && missing.length > 0) {
    restoreArchived(state, await deps.store.loadArchivedPods(stream, missing));
  }
  const lastEntry = entries.at(-1);
  const headHash = lastEntry?.hash;
  return { state, head: Math.max(head, snapshotSeq), snapshotSeq, tail, ...(headHash === undefined ? {} : { headHash }), ...(lastEntry ? { lastEntry } : {}) };
}

/** The chain hash of the entry at `head` (undefined for an empty log), when no entry read after a snapshot carries it. */
export async function chainHeadAt(store: EventStore, stream: StreamId, head: number): Promise<string | undefined> {
  if (head === 0) return undefined;
  const { entries } = await store.read(stream, { afterSeq: head - 1, limit: 1 });
  return (entries[0] as { hash?: string } | undefined)?.hash;
}
