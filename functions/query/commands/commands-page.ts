import type { EventStore, LogEntry, StreamId } from '../../../shared/log/event-store.ts';
import { jsonBytes } from '../../../shared/log/event-store-limits.ts';
import { MAX_PAGE_BODY_BYTES } from '../history-page.ts';
import { refused, type CommandsPosition } from './commands-cursor.ts';

// One page of the commands a Job's (or JobSet's) decisions issued, oldest first, resuming where
// the previous page stopped: after a log position, possibly inside a decision. A page reads at
// most SCAN_BUDGET entries from there (so it answers quickly wherever the commands lie, and may
// hold fewer than asked for, even none, with a next page), lists at most `limit` commands —
// each pod a decision names counts as one, since each is one command published — and at most
// MAX_PAGE_BODY_BYTES of JSON. A decision naming more pods than the page has room for is
// split: the page ends inside it, and the next page starts at its next pod. Nothing is cut.

/** Entries one page reads at most. */
export const SCAN_BUDGET = 5000;
/**
 * Entries per store read; a page usually stops long before the budget. (Smaller first reads
 * cost more on DynamoDB, measured with bench/commands-list.ts: each read fetches again the log
 * page holding its start, and the store already sizes its Queries by the items it needs.)
 */
const READ_CHUNK = 1000;

/** The commands one log entry carries: `size` of them (each pod one; 0 lists nothing), listed by slices. */
export interface CommandGroup<Item> {
  readonly size: number;
  /** The item listing commands `from` (inclusive) to `to` (exclusive) of the group. */
  slice(from: number, to: number): Item;
}

/** What a kind of log says about commands: which entries carry them, and how. */
export interface CommandSource<Item> {
  /** True for the entry types that issue commands; other entries are passed over unparsed. */
  isCommand(type: string): boolean;
  group(entry: LogEntry): CommandGroup<Item>;
}

export interface CommandsPage<Item> {
  readonly items: Item[];
  readonly head: number;
  /** Where the next page starts, while commands may follow. */
  readonly next: CommandsPosition | undefined;
  /** Every command decided at or before this log position is on this page or an earlier one. */
  readonly through: number;
}

export async function commandsPage<Item>(
  store: EventStore,
  stream: StreamId,
  source: CommandSource<Item>,
  from: CommandsPosition,
  limit: number,
): Promise<CommandsPage<Item>> {
  const items: Item[] = [];
  let listed = 0;
  let bytes = 0;
  let position = from.after;
  let skip = from.pods;
  let scanned = 0;
  let head = position;
  while (scanned < SCAN_BUDGET) {
    const read = await store.read(stream, { afterSeq: position, limit: Math.min(READ_CHUNK, SCAN_BUDGET - scanned) });
    head = read.head;
    if (skip > 0 && read.entries[0]?.seq !== from.after + 1) throw notInside(from);
    for (const entry of read.entries) {
      scanned++;
      const group = source.isCommand(entry.type) ? source.group(entry) : undefined;
      // A cursor inside a decision must name one that has more pods than it says were listed.
      if (skip > 0 && (group === undefined || group.size <= skip)) throw notInside(from);
      if (group !== undefined) {
        for (let first = skip; first < group.size;) {
          const room = limit - listed;
          if (room === 0) return stopped(items, head, { after: entry.seq - 1, pods: first });
          const last = Math.min(group.size, first + room);
          const item = group.slice(first, last);
          const size = jsonBytes(item);
          if (items.length > 0 && bytes + size > MAX_PAGE_BODY_BYTES) return stopped(items, head, { after: entry.seq - 1, pods: first });
          items.push(item);
          listed += last - first;
          bytes += size;
          first = last;
        }
        skip = 0;
      }
      position = entry.seq;
      if (listed === limit) break;
    }
    if (listed === limit || read.entries.length === 0 || position >= head) break;
  }
  return stopped(items, head, position < head ? { after: position, pods: 0 } : undefined);
}

function stopped<Item>(items: Item[], head: number, next: CommandsPosition | undefined): CommandsPage<Item> {
  return { items, head, next, through: next?.after ?? head };
}

function notInside(from: CommandsPosition): Error {
  return refused(`points inside a decision at log position ${from.after + 1} that the log does not hold`);
}
