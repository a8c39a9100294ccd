import type * as z from 'zod';
import type { EventStore, JobSummary, LogEntry, StreamId } from '../../shared/log/event-store.ts';
import { jsonBytes } from '../../shared/log/event-store-limits.ts';
import { objectIdentity } from './object-log.ts';
import type { HistoryQuery } from './params.ts';
import type { EntryCategorySchema, HistoryEntrySchema, HistoryPageSchema } from './schemas/history-schemas.ts';

export type EntryCategory = z.output<typeof EntryCategorySchema>;
export type HistoryEntry = z.output<typeof HistoryEntrySchema>;
export type HistoryPage = z.output<typeof HistoryPageSchema>;

/**
 * Bodies per page, in bytes of JSON. A Lambda response is at most 6 MB and an entry's body up to
 * 350 KB, so a page of large entries (a Job spec with a big pod template) ends early instead.
 */
export const MAX_PAGE_BODY_BYTES = 4_000_000;

/**
 * One page of a log, paged by seq: the entries after `query.after`, at most `query.limit` (and
 * fewer when their bodies pass MAX_PAGE_BODY_BYTES, but never none), and `nextAfter` while the
 * head lies beyond the page. `categoryOf` says which entry types are observations, decisions,
 * or decisions that issue commands (Jobs and JobSets differ).
 */
export async function historyPage(
  store: EventStore,
  stream: StreamId,
  summary: JobSummary,
  query: HistoryQuery,
  categoryOf: (type: string) => EntryCategory,
): Promise<HistoryPage> {
  const read = await store.read(stream, { afterSeq: query.after, limit: query.limit });
  const entries: HistoryEntry[] = [];
  let bytes = 0;
  for (const entry of read.entries) {
    bytes += jsonBytes(entry.body);
    if (entries.length > 0 && bytes > MAX_PAGE_BODY_BYTES) break;
    entries.push(historyEntry(entry, categoryOf(entry.type)));
  }
  const last = entries.at(-1);
  return {
    object: objectIdentity(summary),
    head: read.head,
    entries,
    ...(last !== undefined && last.seq < read.head ? { nextAfter: last.seq } : {}),
  };
}

/** A log entry as the API shows it: observations keep `observedAt`, decisions say `at`. */
export function historyEntry(entry: LogEntry, category: EntryCategory): HistoryEntry {
  const time = category === 'observation' ? { observedAt: entry.observedAt } : { at: entry.observedAt };
  const body = typeof entry.body === 'object' && entry.body !== null ? (entry.body as Record<string, unknown>) : { value: entry.body };
  return { seq: entry.seq, eventId: entry.eventId, type: entry.type, category, ...time, recordedAt: entry.recordedAt, body };
}
