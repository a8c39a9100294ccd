import type { EventStore, StreamId } from '../../shared/log/event-store.ts';
import { entryEvent } from '../../shared/job/index.ts';
import type { JobCondition } from '../../shared/job/index.ts';
import type { DecisionOf } from '../../shared/job/index.ts';
import type { JobSnapshot } from '../../shared/job/index.ts';
import { readRange } from './log-reads.ts';
import { SCAN_WINDOW } from './snapshot-bisect.ts';

// Every JobConditionChanged decision of a long log without reading it from the start. A
// condition change shows in the status' conditions (a new type, or a new status, reason,
// message or transition time), so where two positions have equal conditions nothing changed
// between them; where they differ, a snapshot between them splits the span, down to spans
// without a snapshot inside, which are read. The cost is about log2(snapshots) snapshot loads
// per change, plus the entries between the two snapshots around it.

type ConditionDecision = DecisionOf<'JobConditionChanged'>;
/** A known position: its seq and the conditions that hold there. */
type Point = { readonly seq: number; readonly conditions: readonly JobCondition[] };

/** The JobConditionChanged decisions at positions 1…`head`, in log order; `conditions` hold at `head`. */
export async function conditionTransitions(
  store: EventStore,
  stream: StreamId,
  head: number,
  conditions: readonly JobCondition[],
): Promise<ConditionDecision[]> {
  return between(store, stream, { seq: 0, conditions: [] }, { seq: head, conditions });
}

async function between(store: EventStore, stream: StreamId, from: Point, to: Point): Promise<ConditionDecision[]> {
  if (to.seq <= from.seq || sameConditions(from.conditions, to.conditions)) return [];
  const inside = to.seq - from.seq > SCAN_WINDOW ? await snapshotInside(store, stream, from.seq, to.seq) : undefined;
  if (inside === undefined) {
    return (await readRange(store, stream, from.seq, to.seq))
      .filter((entry) => entry.type === 'JobConditionChanged')
      .map((entry) => entryEvent(entry) as ConditionDecision);
  }
  return [...(await between(store, stream, from, inside)), ...(await between(store, stream, inside, to))];
}

/** A snapshot strictly between `from` and `to`, near the middle when there is one there. */
async function snapshotInside(store: EventStore, stream: StreamId, from: number, to: number): Promise<Point | undefined> {
  for (const atOrBefore of [Math.floor((from + to) / 2), to - 1]) {
    const snapshot = await store.loadSnapshot(stream, { atOrBefore });
    if (snapshot !== undefined && snapshot.seq > from) return { seq: snapshot.seq, conditions: conditionsOf(snapshot.state as JobSnapshot) };
  }
  return undefined;
}

function conditionsOf(snapshot: JobSnapshot): JobCondition[] {
  return (snapshot.state as { status?: { conditions?: JobCondition[] } }).status?.conditions ?? [];
}

function sameConditions(a: readonly JobCondition[], b: readonly JobCondition[]): boolean {
  const key = (c: JobCondition) => [c.type, c.status, c.reason, c.message, c.lastTransitionTime].join('\u0000');
  return a.length === b.length && a.map(key).sort().join('\u0001') === b.map(key).sort().join('\u0001');
}
