import type { OutgoingEvent } from '../observation.ts';

/**
 * PutEvents limits: 10 entries per call, 256 KiB per entry, and "the total entry size must be
 * less than 256KB" per call (EventBridge's "Calculating PutEvents event entry size"; the local
 * bus refuses a bigger call as a whole, as EventBridge does). A full pack goes alone.
 */
export const MAX_ENTRIES_PER_REQUEST = 10;
export const MAX_REQUEST_BYTES = 256 * 1024;
export const MAX_ENTRY_BYTES = 256 * 1024;
/**
 * jobfold measures the whole delivered event (envelope included) against 256 KiB, so an entry
 * keeps this much room for the envelope EventBridge wraps around it.
 */
export const ENVELOPE_HEADROOM_BYTES = 2 * 1024;

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The size EventBridge charges an entry ("Calculating PutEvents event entry size"): 14 bytes
 * for Time, then the UTF-8 bytes of Source, DetailType, Detail and each of Resources.
 */
export function entrySize(event: OutgoingEvent): number {
  return 14 + utf8Bytes(event.source) + utf8Bytes(event.detailType) + utf8Bytes(event.detail);
}

/** Whether an entry can ever be sent; one that cannot is refused before it is queued. */
export function fitsOneEntry(event: OutgoingEvent): boolean {
  return entrySize(event) <= MAX_ENTRY_BYTES - ENVELOPE_HEADROOM_BYTES;
}

/**
 * How many events from the head of `events` go in the next PutEvents call: at most
 * MAX_ENTRIES_PER_REQUEST and MAX_REQUEST_BYTES, and always at least one.
 */
export function nextBatchLength(events: readonly OutgoingEvent[]): number {
  let bytes = 0;
  let count = 0;
  for (const event of events) {
    if (count === MAX_ENTRIES_PER_REQUEST) break;
    const size = entrySize(event);
    if (count > 0 && bytes + size > MAX_REQUEST_BYTES) break;
    bytes += size;
    count++;
  }
  return count;
}

/** Splits events into PutEvents-sized batches, in order. */
export function toBatches(events: readonly OutgoingEvent[]): OutgoingEvent[][] {
  const batches: OutgoingEvent[][] = [];
  let rest = events;
  while (rest.length > 0) {
    const n = nextBatchLength(rest);
    batches.push(rest.slice(0, n));
    rest = rest.slice(n);
  }
  return batches;
}
