import type { EventStore, StreamId } from '../../shared/app/event-store.ts';
import { entryEvent } from '../../shared/app/log-codec.ts';
import type { DecisionOf } from '../../shared/job/decisions.ts';
import { validIndex } from '../../shared/job/explain-evidence.ts';
import type { TerminatedPod } from '../../shared/job/explain.ts';

// The pods jobfold asked to delete, one page at a time, in log order: a Job of 100,000 pods can
// have that many, more than a response holds, so the list is paged by log position instead of
// cut. A page reads at most SCAN_BUDGET entries, so it answers quickly wherever the
// terminations lie; it may then hold fewer pods than asked for (even none) and still have a
// next page. Each decision's pods stay together on one page (a log entry is at most 350 KB).

/** Entries one page reads at most. */
export const SCAN_BUDGET = 5000;
const READ_PAGE = 1000;

export interface TerminatedPodsPage {
  readonly items: TerminatedPod[];
  /** The log position to continue after (`podsAfter`), while the log goes on. */
  readonly nextAfter: number | undefined;
}

/** The terminated pods decided after position `after`: at least `limit` unless the log or the budget ends first. */
export async function terminatedPodsPage(
  store: EventStore,
  stream: StreamId,
  after: number,
  limit: number,
): Promise<TerminatedPodsPage> {
  const items: TerminatedPod[] = [];
  let position = after;
  let scanned = 0;
  let head = after;
  while (items.length < limit && scanned < SCAN_BUDGET) {
    const page = await store.read(stream, { afterSeq: position, limit: Math.min(READ_PAGE, SCAN_BUDGET - scanned) });
    head = page.head;
    for (const entry of page.entries) {
      position = entry.seq;
      scanned++;
      if (entry.type === 'PodsTerminationRequested') items.push(...podsOf(entryEvent(entry) as DecisionOf<'PodsTerminationRequested'>));
      if (items.length >= limit) break;
    }
    if (page.entries.length === 0 || position >= head) break;
  }
  return { items, nextAfter: position < head ? position : undefined };
}

function podsOf(decision: DecisionOf<'PodsTerminationRequested'>): TerminatedPod[] {
  return decision.pods.map((pod) => ({
    name: pod.name,
    uid: pod.uid,
    index: validIndex(pod.index),
    cause: decision.cause,
    reason: decision.reason,
    requestedAt: decision.at,
    decidedBy: decision.seq,
  }));
}
