import type { EventStore, LogEntry, StreamId } from '../../shared/log/event-store.ts';
import { parseTime } from '../../shared/k8s/time.ts';

// Reads of a log by position, for queries that must not replay it from the start.

/**
 * Entries per store read when a range is long. Each read first decodes the log page holding its
 * start, so bigger reads decode fewer pages twice (a 1,000-entry read of 1,000-entry pages
 * decoded nearly every page twice).
 */
const RANGE_PAGE = 10_000;

/** Above every position a log reaches (store keys hold 12 digits). */
const BEYOND_EVERY_SEQ = 999_999_999_998;

/** The log's head (0 when empty): every read answers it, and one past every entry reads nothing. */
export async function logHead(store: EventStore, stream: StreamId): Promise<number> {
  return (await store.read(stream, { afterSeq: BEYOND_EVERY_SEQ, limit: 1 })).head;
}

/** The entry at `seq`, or undefined beyond the head (one read of the item holding it). */
export async function entryAt(store: EventStore, stream: StreamId, seq: number): Promise<LogEntry | undefined> {
  if (seq < 1) return undefined;
  return (await store.read(stream, { afterSeq: seq - 1, limit: 1, skipHead: true })).entries[0];
}

/** A run of consecutive entries, with the seqs among them marked as pods' first sightings. */
export interface LogRun {
  readonly entries: LogEntry[];
  readonly firstSightings: ReadonlySet<number>;
}

/** Entries `after + 1 … to` in seq order (fewer when the log ends first). */
export async function readRange(store: EventStore, stream: StreamId, after: number, to: number): Promise<LogEntry[]> {
  return (await readRun(store, stream, after, to)).entries;
}

/**
 * Entries `after + 1 … to` in seq order (fewer when the log ends first), and their marks. The
 * reads skip the head (`skipHead`): none of it is needed here, and on DynamoDB a read that fills
 * its limit would otherwise Query the last log item for it (a page's worth of read units).
 */
export async function readRun(store: EventStore, stream: StreamId, after: number, to: number): Promise<LogRun> {
  const entries: LogEntry[] = [];
  const firstSightings = new Set<number>();
  let from = after;
  while (from < to) {
    const wanted = Math.min(RANGE_PAGE, to - from);
    const page = await store.read(stream, { afterSeq: from, limit: wanted, skipHead: true });
    entries.push(...page.entries);
    for (const seq of page.podFirstSightings ?? []) firstSightings.add(seq);
    const last = page.entries.at(-1);
    if (last === undefined || page.entries.length < wanted) break;
    from = last.seq;
  }
  return { entries, firstSightings };
}

/** Below this many positions, the search reads them at once instead of point by point. */
const SEARCH_READ_BELOW = 2000;

/** Where the last position recorded by a time lies: (`lo`, `hi`], `lo` itself when none of them was. */
export interface TimeSpan {
  readonly lo: number;
  readonly hi: number;
}

/**
 * The last position whose entry was recorded at or before `time` (0: none was), by binary
 * search over 1…head: about log2(head) single-entry reads instead of a scan, and once the span
 * is under SEARCH_READ_BELOW positions (a log page or two, which the last ten point reads would
 * each have decoded again) one read of the span. It relies on `recordedAt` not decreasing along
 * the log, which holds for one writer per log; where two appenders interleaved within the same
 * instants, the answer is one of the positions between them.
 */
export async function lastSeqRecordedBy(store: EventStore, stream: StreamId, time: string, head: number): Promise<number> {
  const span = await timeSpan(store, stream, time, head);
  return lastRecordedIn(await readRange(store, stream, span.lo, span.hi), time, span.lo);
}

/** The binary search of lastSeqRecordedBy, down to a span of at most SEARCH_READ_BELOW positions. */
export async function timeSpan(store: EventStore, stream: StreamId, time: string, head: number): Promise<TimeSpan> {
  const limit = parseTime(time);
  let lo = 0;
  let hi = head;
  while (hi - lo > SEARCH_READ_BELOW) {
    const mid = Math.ceil((lo + hi) / 2);
    const entry = await entryAt(store, stream, mid);
    if (entry !== undefined && parseTime(entry.recordedAt) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return { lo, hi };
}

/** The last of `entries` (consecutive, in seq order) after `lo` recorded at or before `time`; `lo` when none is. */
export function lastRecordedIn(entries: readonly LogEntry[], time: string, lo: number): number {
  const limit = parseTime(time);
  let last = lo;
  for (const entry of entries) {
    if (entry.seq <= lo) continue;
    if (parseTime(entry.recordedAt) > limit) break;
    last = entry.seq;
  }
  return last;
}
