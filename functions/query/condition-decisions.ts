import type { EventStore, LogEntry, StreamId } from '../../shared/log/event-store.ts';
import { entryEvent } from '../../shared/job/index.ts';
import type { JobCondition } from '../../shared/job/index.ts';
import type { DecisionOf } from '../../shared/job/index.ts';
import type { JobSnapshot } from '../../shared/job/index.ts';
import { readRange } from './log-reads.ts';
import type { LogWindow } from './log-window.ts';
import { bisectBySnapshots } from './snapshot-bisect.ts';

// Where in a long log the decision that set a condition lies, without reading the log from the
// start: a condition the head shows (same type, status, reason and transition time) is narrowed
// by snapshot-bisect.ts to the entries between two snapshots, which are read.

type ConditionDecision = DecisionOf<'JobConditionChanged'>;

/**
 * The JobConditionChanged decision that set `condition`, if the log holds one (a condition the
 * cluster reported before jobfold's log began has none). `head` is where the condition holds.
 */
export async function findConditionDecision(
  store: EventStore,
  stream: StreamId,
  condition: JobCondition,
  head: number,
  /** Windows already read by this request (conditions decided together share one). */
  windows: Map<string, Promise<LogEntry[]>> = new Map(),
  /** Where snapshots are loaded from (memoSnapshots: once per position for the request). */
  snapshots: Pick<EventStore, 'loadSnapshot'> = store,
): Promise<ConditionDecision | undefined> {
  const { without, holds } = await bisectBySnapshots(snapshots, stream, head, (state) => snapshotHolds(state as JobSnapshot, condition));
  let found: ConditionDecision | undefined;
  const key = `${without}-${holds}`;
  let window = windows.get(key);
  if (window === undefined) {
    window = readRange(store, stream, without, holds);
    windows.set(key, window);
  }
  for (const entry of await window) {
    if (entry.type !== 'JobConditionChanged') continue;
    const event = entryEvent(entry) as ConditionDecision;
    if (sameCondition(event.condition, condition)) found = event;
  }
  return found;
}

/**
 * The decision that set `condition` when `known` (consecutive entries ending at the head) holds
 * the last decision of its type, as explainJob over the whole log would take it; undefined
 * when that decision lies before `known` or set the condition differently. Only condition
 * decisions are parsed.
 */
export function conditionDecisionIn(known: LogWindow | undefined, condition: JobCondition): ConditionDecision | undefined {
  if (known === undefined) return undefined;
  for (let seq = known.last; seq >= known.from; seq--) {
    if (known.entry(seq)!.type !== 'JobConditionChanged') continue;
    const event = known.event(seq) as ConditionDecision;
    if (event.condition.type === condition.type) return sameCondition(event.condition, condition) ? event : undefined;
  }
  return undefined;
}

function snapshotHolds(snapshot: JobSnapshot, condition: JobCondition): boolean {
  const conditions = (snapshot.state as { status?: { conditions?: JobCondition[] } }).status?.conditions ?? [];
  return conditions.some((c) => sameCondition(c, condition));
}

/** As explainJob matches a decision to the condition it set. */
function sameCondition(a: JobCondition, b: JobCondition): boolean {
  return a.type === b.type && a.status === b.status && a.reason === b.reason && a.lastTransitionTime === b.lastTransitionTime;
}
