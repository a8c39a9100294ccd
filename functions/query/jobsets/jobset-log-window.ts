import type { EventStore, JobSummary, LogEntry, StreamId } from '../../../shared/log/event-store.ts';
import { jobSetEntryEvent } from '../../../shared/jobset/index.ts';
import type { JobSetCondition } from '../../../shared/jobset/index.ts';
import { evolve as evolveJobSet } from '../../../shared/jobset/index.ts';
import { conditionEvidence, explainJobSet, type JobSetExplanation, type LoggedJobSetDecision } from '../../../shared/jobset/index.ts';
import { initialState as initialJobSetState, type JobSetState } from '../../../shared/jobset/index.ts';
import { entryAt, logHead, readRange } from '../log-reads.ts';
import { bisectBySnapshots } from '../snapshot-bisect.ts';
import { objectIdentity } from '../object-log.ts';
import { commandViews, jobSetView, type JobSetView } from '../views.ts';
import { loggedJobSetDecisions } from './jobset-entries.ts';

// What the JobSet routes read, without replaying the log from the start (as the Job routes,
// stored-job-view.ts): the state from the newest snapshot at or before the head and its tail;
// the decisions of the last DECISIONS_WINDOW entries (every one, for nearly every JobSet; on a
// longer log `decisionsFrom` says where the list starts and /history holds the rest); and, for
// each condition whose decision lies before that window, that decision (with the correction
// logged right before it, if any), found by a binary search over the snapshots kept at their
// positions (a condition as it stands holds in every snapshot from its decision on and in none
// before).

/** Entries whose decisions the JobSet view and explanation list at most. */
export const DECISIONS_WINDOW = 5000;

export interface JobSetLogWindow {
  readonly state: JobSetState;
  readonly head: number;
  readonly lastRecordedAt: string | undefined;
  /** The decisions from `decisionsFrom` on, in log order. */
  readonly decisions: readonly LoggedJobSetDecision[];
  /** The first log position `decisions` covers (1: the whole log). */
  readonly decisionsFrom: number;
  /** The decisions the conditions cite, wherever they lie (older ones included), in log order. */
  readonly cited: readonly LoggedJobSetDecision[];
}

/** `GET …/jobsets/{name}`: the JobSet view over its state at the head and its window of decisions. */
export async function storedJobSetView(store: EventStore, summary: JobSummary, stream: StreamId): Promise<JobSetView> {
  const window = await readJobSetWindow(store, stream);
  const listed = { commands: commandViews(window.decisions), commandsFrom: window.decisionsFrom };
  return jobSetView(summary, window.state, explainWindow(window), listed, window);
}

/**
 * `GET …/jobsets/{name}/explain`: why the JobSet completed, failed or restarted. The explanation
 * names the JobSet by its namespace and name; the API names it as every response does, with the
 * cluster and uid; `eventsFrom` says where its list of decisions starts.
 */
export async function explainStoredJobSet(
  store: EventStore, summary: JobSummary, stream: StreamId,
): Promise<Omit<JobSetExplanation, 'jobSet'> & { jobSet: JobSetView['jobSet']; eventsFrom: number }> {
  const window = await readJobSetWindow(store, stream);
  return { ...explainWindow(window), eventsFrom: window.decisionsFrom, jobSet: objectIdentity(summary) };
}

/**
 * The explanation over the window's decisions and those the conditions cite from before it;
 * `events` lists the window's only (from `decisionsFrom`), as the view's `commands` do.
 */
function explainWindow(window: JobSetLogWindow): JobSetExplanation {
  const older = window.cited.filter((decision) => decision.seq < window.decisionsFrom);
  const explanation = explainJobSet(window.state, [...older, ...window.decisions]);
  return { ...explanation, events: explanation.events.filter((event) => event.seq >= window.decisionsFrom) };
}

export async function readJobSetWindow(store: EventStore, stream: StreamId, window = DECISIONS_WINDOW): Promise<JobSetLogWindow> {
  const head = await logHead(store, stream);
  const snapshot = head < 1 ? undefined : await store.loadSnapshot(stream, { atOrBefore: head });
  const snapshotSeq = snapshot?.seq ?? 0;
  const after = Math.max(0, head - window);
  const entries = await readRange(store, stream, Math.min(after, snapshotSeq), head);
  let state = snapshot ? (structuredClone(snapshot.state) as JobSetState) : initialJobSetState();
  for (const entry of entries) if (entry.seq > snapshotSeq) state = evolveJobSet(state, jobSetEntryEvent(entry));
  const decisions = loggedJobSetDecisions(entries.filter((entry) => entry.seq > after));
  const cited = new Map<number, LoggedJobSetDecision>();
  for (const condition of state.conditions) {
    const inWindow = conditionEvidence(condition, decisions);
    const found = inWindow !== undefined ? [inWindow] : after > 0 ? await olderEvidence(store, stream, condition, after) : [];
    for (const decision of found) cited.set(decision.seq, decision);
  }
  return {
    state,
    head,
    lastRecordedAt: entries.at(-1)?.recordedAt,
    decisions,
    decisionsFrom: after + 1,
    cited: [...cited.values()].sort((a, b) => a.seq - b.seq),
  };
}

/**
 * The decision before position `before` + 1 that set `condition` as it stands, if the log holds
 * one, and the correction logged right before it, if it replaced what one took back
 * (shared/decide/outcome-correction.ts): the explanation lists that correction too.
 */
async function olderEvidence(store: EventStore, stream: StreamId, condition: JobSetCondition, before: number): Promise<LoggedJobSetDecision[]> {
  const { without, holds } = await bisectBySnapshots(store, stream, before, (state) => holdsIn(state as JobSetState, condition));
  const entries: LogEntry[] = await readRange(store, stream, without, holds);
  const found = conditionEvidence(condition, loggedJobSetDecisions(entries));
  if (found === undefined) return [];
  const previous = entries.find((entry) => entry.seq === found.seq - 1) ?? (found.seq > 1 ? await entryAt(store, stream, found.seq - 1) : undefined);
  const correction = previous?.type === 'JobSetOutcomeCorrected' ? loggedJobSetDecisions([previous]) : [];
  return [...correction, found];
}

function holdsIn(state: JobSetState, condition: JobSetCondition): boolean {
  return state.conditions.some((c) => c.type === condition.type && c.status === condition.status
    && c.reason === condition.reason && c.message === condition.message && c.lastTransitionTime === condition.lastTransitionTime);
}
