import { setTimeout as delay } from 'node:timers/promises';
import { MAX_ENTRIES } from '../bus/put-events-request.ts';
import type { LocalBus } from '../bus/local-bus.ts';
import type { PlannedEntry } from './time-shift.ts';

/** An entry the bus refused, by trace line. */
export interface FeedFailure {
  readonly line: number;
  readonly errorCode: string;
  readonly errorMessage: string;
}

export interface FeedResult {
  readonly entries: number;
  readonly failed: readonly FeedFailure[];
}

/**
 * Puts the planned entries on the bus in order, each not before its time; consecutive entries
 * due at the same time go in one PutEvents call (at most 10), as a forwarder batches them.
 * Stops early when `signal` aborts.
 */
export async function feedTrace(
  bus: LocalBus, planned: readonly PlannedEntry[], signal?: AbortSignal, onFed?: (fed: number) => void,
): Promise<FeedResult> {
  const failed: FeedFailure[] = [];
  let fed = 0;
  for (let i = 0; i < planned.length && !signal?.aborted;) {
    const first = planned[i] as PlannedEntry;
    const batch = [first];
    while (batch.length < MAX_ENTRIES && planned[i + batch.length]?.atMs === first.atMs) batch.push(planned[i + batch.length] as PlannedEntry);
    const wait = first.atMs - Date.now();
    if (wait > 0) {
      try {
        await delay(wait, undefined, { signal });
      } catch {
        break; // aborted
      }
    }
    try {
      const output = bus.putEvents({ Entries: batch.map((p) => p.entry) });
      output.Entries.forEach((result, k) => {
        if (result.ErrorCode) failed.push({ line: (batch[k] as PlannedEntry).line, errorCode: result.ErrorCode, errorMessage: result.ErrorMessage ?? '' });
      });
    } catch (error) {
      for (const p of batch) failed.push({ line: p.line, errorCode: (error as { type?: string }).type ?? 'Error', errorMessage: (error as Error).message });
    }
    fed += batch.length;
    i += batch.length;
    onFed?.(fed);
  }
  return { entries: fed, failed };
}
