import { evolve as evolveJobSet } from '../jobset/evolve.ts';
import { settle } from '../jobset/settle.ts';
import { initialState as initialJobSetState, type JobSetState } from '../jobset/state.ts';
import { JobSetObservationSchema, type JobSetEvent } from '../jobset/events.ts';
import { isJobSetDecisionType, type JobSetDecisionEvent } from '../jobset/decision-events.ts';
import type { JobSetCommand } from '../jobset/commands.ts';
import {
  isJobSetCommandDispatched,
  jobSetCommandEvent,
  jobSetConditionEvents,
  type JobSetIdentity,
} from '../contract/jobset-outbound.ts';
import type { OutboundEvent } from '../contract/outbound.ts';
import { VersionConflictError, type EventStore, type LogEntry, type NewEntry, type StreamId, type SummaryUpdate } from './event-store.ts';
import { MAX_COMMIT_ENTRIES } from './event-store-limits.ts';
import { outboxItems } from './outbox-items.ts';


export interface JobSetReconcileDeps {
  readonly store: EventStore;
  readonly clock: () => string;
  readonly maxAttempts?: number;
  /** Write a snapshot once this many entries follow the last one. */
  readonly snapshotEvery?: number;
}

export interface JobSetReconcileOutcome {
  readonly stream: StreamId;
  readonly head: number;
  readonly decisions: readonly JobSetDecisionEvent[];
  readonly commands: readonly JobSetCommand[];
  readonly published: readonly OutboundEvent[];
  readonly attempts: number;
  /** When to reconcile the JobSet again if nothing else happens (a finished JobSet's TTL). */
  readonly wakeAt: string | undefined;
}

/**
 * Reconciles one JobSet: fold its log (JobSet observations, child-Job statuses, past
 * decisions), settle at `clock()` — the JobSet controller requeues itself until nothing changes,
 * so one reconcile runs `decide` to its fixed point — and commit the decisions with their
 * outbox in one transaction conditioned on the head; start over on a conflict.
 */
export async function reconcileJobSet(deps: JobSetReconcileDeps, stream: StreamId): Promise<JobSetReconcileOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await reconcileOnce(deps, stream, attempt);
    } catch (error) {
      if (!(error instanceof VersionConflictError) || attempt >= (deps.maxAttempts ?? 8)) throw error;
    }
  }
}

async function reconcileOnce(deps: JobSetReconcileDeps, stream: StreamId, attempt: number): Promise<JobSetReconcileOutcome> {
  const { state, head, snapshotSeq, entries: tail } = await loadJobSetState(deps.store, stream);
  const rest = await cutSettleRest(deps.store, stream, tail, head);
  if (rest.length > 0) {
    const folded = rest.reduce((acc, entry) => evolveJobSet(acc, entry.body as JobSetDecisionEvent), state);
    await commitInSteps(deps.store, stream, head, rest, jobSetSummary(folded, deps.clock()));
    return reconcileOnce(deps, stream, attempt);
  }
  const now = deps.clock();
  const settled = settle(state, now);
  const decisions = settled.events;
  const entries = decisions.map((decision, i) => decisionEntry(stream, head, i, decision, now));
  const identity: JobSetIdentity = { ...stream, name: state.jobSet?.metadata.name ?? stream.uid };
  const finished = settled.state.terminalState !== '';
  const managedBy = state.jobSet?.spec.managedBy;
  const published = [
    ...settled.commands.filter((c) => isJobSetCommandDispatched(c, managedBy, finished)).map((c) => jobSetCommandEvent(identity, c)),
    ...jobSetConditionEvents(identity, entries.map((e, i) => ({ eventId: e.eventId, decision: decisions[i] as JobSetDecisionEvent }))),
  ];
  const outcome = { stream, head: head + entries.length, decisions, commands: settled.commands, published, attempts: attempt, wakeAt: settled.wakeAt };
  const snapshotDue = head + entries.length - snapshotSeq >= (deps.snapshotEvery ?? 50);
  if (entries.length === 0 && !snapshotDue) return outcome;
  let folded = state;
  for (const decision of decisions) folded = evolveJobSet(folded, decision);
  // At most MAX_COMMIT_ENTRIES decisions per commit, in conditioned steps; the commands go
  // with the first step, so no logged decision is ever without its commands (a crash in
  // between leaves the rest to the retry, which settles from the new head).
  const steps = Math.max(1, Math.ceil(entries.length / MAX_COMMIT_ENTRIES));
  let at = head;
  for (let step = 0; step < steps; step++) {
    const last = step === steps - 1;
    const committed = await deps.store.commit(stream, {
      expectedHead: at,
      recordedAt: now,
      entries: entries.slice(step * MAX_COMMIT_ENTRIES, (step + 1) * MAX_COMMIT_ENTRIES),
      outbox: step === 0 ? outboxItems(entries[0]?.eventId ?? 'none', published, now) : [],
      snapshot: last && snapshotDue ? { seq: head + entries.length, state: folded } : undefined,
      summary: last ? jobSetSummary(folded, now) : undefined,
    });
    at = committed.head;
  }
  return outcome;
}

/** A settle's decision as logged: its id names the position it settled at and its place there. */
function decisionEntry(stream: StreamId, head: number, i: number, decision: JobSetDecisionEvent, now: string): NewEntry {
  return { eventId: `${stream.uid}/${head}/${i}`, type: decision.type, observedAt: now, body: decision };
}

/**
 * The rest of the log's last settle when a crash cut its commit short. A settle commits its
 * decisions in steps of MAX_COMMIT_ENTRIES, all its commands with the first, so a cut one ends
 * after a whole number of steps. Settled again where it was first settled (the state at its
 * position, at its time), it gives the same decisions under the same ids: the rest is logged
 * with them and nothing is queued again. Settling again at the head instead would take the
 * rest under ids and commandIds of another position, and send its commands a second time.
 */
async function cutSettleRest(store: EventStore, stream: StreamId, tail: readonly LogEntry[], head: number): Promise<NewEntry[]> {
  const last = tail.at(-1);
  const place = last && isJobSetDecisionType(last.type) ? settlePlace(stream, last.eventId) : undefined;
  const logged = place ? place.index + 1 : 0;
  if (!last || !place || logged % MAX_COMMIT_ENTRIES !== 0 || head - place.position !== logged) return [];
  const before = await loadJobSetState(store, stream, { upTo: place.position });
  if (before.head !== place.position) return [];
  const again = settle(before.state, last.observedAt).events;
  return again.slice(logged).map((decision, j) => decisionEntry(stream, place.position, logged + j, decision, last.observedAt));
}

function settlePlace(stream: StreamId, eventId: string): { position: number; index: number } | undefined {
  const match = eventId.startsWith(`${stream.uid}/`) ? /^(\d+)\/(\d+)$/.exec(eventId.slice(stream.uid.length + 1)) : null;
  return match ? { position: Number(match[1]), index: Number(match[2]) } : undefined;
}

/** Decisions with no commands (those left with their settle's first step), in conditioned steps. */
async function commitInSteps(store: EventStore, stream: StreamId, head: number, entries: readonly NewEntry[], summary: SummaryUpdate | undefined): Promise<void> {
  let at = head;
  for (let i = 0; i < entries.length; i += MAX_COMMIT_ENTRIES) {
    const step = entries.slice(i, i + MAX_COMMIT_ENTRIES);
    const last = i + MAX_COMMIT_ENTRIES >= entries.length;
    at = (await store.commit(stream, { expectedHead: at, recordedAt: step[0]!.observedAt, entries: step, outbox: [], summary: last ? summary : undefined })).head;
  }
}

/**
 * The JobSet's state at the head of its log: the snapshot (the JobSet state is plain JSON) and
 * the entries after it. `fromStart` folds the whole log instead, for views that need every
 * decision; `upTo` stops at that position.
 */
export async function loadJobSetState(
  store: EventStore,
  stream: StreamId,
  options: { fromStart?: boolean; upTo?: number } = {},
): Promise<{ state: JobSetState; head: number; entries: LogEntry[]; snapshotSeq: number }> {
  const snapshot = options.fromStart ? undefined : await store.loadSnapshot(stream, options.upTo === undefined ? undefined : { atOrBefore: options.upTo });
  const snapshotSeq = snapshot?.seq ?? 0;
  const read = await store.read(stream, { afterSeq: snapshotSeq });
  const entries = options.upTo === undefined ? read.entries : read.entries.filter((e) => e.seq <= options.upTo!);
  const head = options.upTo === undefined ? read.head : Math.min(read.head, options.upTo);
  let state = snapshot ? (snapshot.state as JobSetState) : initialJobSetState();
  for (const entry of entries) state = evolveJobSet(state, jobSetEntryEvent(entry));
  return { state, head: Math.max(head, snapshotSeq), entries, snapshotSeq };
}

/** Reads a stored JobSet entry back; observations are parsed again, decisions are our own. */
export function jobSetEntryEvent(entry: LogEntry): JobSetEvent {
  if (isJobSetDecisionType(entry.type)) return entry.body as JobSetDecisionEvent;
  const parsed = JobSetObservationSchema.safeParse(entry.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`log entry ${entry.seq} (${entry.type}) is corrupt: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

function jobSetSummary(state: JobSetState, now: string): SummaryUpdate | undefined {
  const jobSet = state.jobSet;
  if (!jobSet) return undefined;
  const latest = state.conditions.at(-1);
  const finished = state.conditions.find((c) => (c.type === 'Completed' || c.type === 'Failed') && c.status === 'True');
  return {
    name: jobSet.metadata.name,
    createdAt: jobSet.metadata.creationTimestamp ?? now,
    updatedAt: now,
    latestCondition: latest && {
      type: latest.type,
      status: latest.status,
      reason: latest.reason,
      message: latest.message,
      lastTransitionTime: latest.lastTransitionTime,
    },
    finishedAt: finished?.lastTransitionTime,
  };
}
