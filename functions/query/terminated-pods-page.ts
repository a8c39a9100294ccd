import type { EventStore, StreamId } from '../../shared/log/event-store.ts';
import { entryEvent } from '../../shared/job/index.ts';
import type { DecisionOf } from '../../shared/job/index.ts';
import { terminatedPod, type TerminatedPod } from '../../shared/job/index.ts';

// The pods jobfold asked to delete, one page at a time, in log order: a Job of 100,000 pods can
// have that many, more than a response holds, so the list is paged by log position instead of
// cut. A page reads at most SCAN_BUDGET entries, so it answers quickly wherever the
// terminations lie; it may then hold fewer pods than asked for (even none) and still have a
// next page. Each decision's pods stay together on one page (a log entry is at most 350 KB).

/** Entries one page reads at most. */
export const SCAN_BUDGET = 5000;

export interface TerminatedPodsPage {
  readonly items: TerminatedPod[];
  /** The log position to continue after (`podsAfter`), while the log goes on. */
  readonly nextAfter: number | undefined;
}

/**
 * The terminated pods decided after position `after`: at least `limit` unless the log or the
 * budget ends first. The budget is read at once: a log page holds ~1,000 entries, and reading
 * it in smaller steps would read the page holding each step's start again.
 */
export async function terminatedPodsPage(
  store: EventStore,
  stream: StreamId,
  after: number,
  limit: number,
): Promise<TerminatedPodsPage> {
  const items: TerminatedPod[] = [];
  const { entries, head } = await store.read(stream, { afterSeq: after, limit: SCAN_BUDGET });
  let position = after;
  for (const entry of entries) {
    position = entry.seq;
    if (entry.type === 'PodsTerminationRequested') items.push(...podsOf(entryEvent(entry) as DecisionOf<'PodsTerminationRequested'>));
    if (items.length >= limit) break;
  }
  return { items, nextAfter: position < head ? position : undefined };
}

function podsOf(decision: DecisionOf<'PodsTerminationRequested'>): TerminatedPod[] {
  const why = { cause: decision.cause, reason: decision.reason, requestedAt: decision.at, decidedBy: decision.seq };
  return decision.pods.map((pod) => terminatedPod(pod, why));
}
