import type { JobSummary, LogEntry } from '../../shared/log/event-store.ts';
import { readJson, str } from './item-codec.ts';
import { logItemEntries } from './log-page-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// Reads every stored log in one pass: a parallel Scan (segment k of n) instead of one Query per
// log. DynamoDB returns a segment's items one stream after another (an item collection is
// stored together, sorted by sort key), so a stream is complete when the next one starts. Each
// call stops at a stream boundary: its position is the key of the last item of the last whole
// stream, and the next call starts right after it. Only log items (an entry, or a compressed
// page of entries, both under "e#<seq>") and summaries are returned (FilterExpression); a
// stream's log items are in seq order, its summary comes last ("summary" sorts after "e#…").

/** One stream's log and summary, as the scan found them. */
export interface ScannedLog {
  readonly pk: string;
  readonly summary: JobSummary | undefined;
  readonly entries: readonly LogEntry[];
}

export interface LogScanQuery {
  readonly segment: number;
  readonly segments: number;
  /** Where the previous call stopped (its `next`). */
  readonly after?: string;
  /** Stop once this many whole streams are read (the last scan page's may add a few). */
  readonly streams: number;
  /** Also stop at the first stream boundary after this time (epoch ms), once a stream is read: a call's time stays bounded. */
  readonly until?: number;
}

export interface LogScanPage {
  readonly logs: readonly ScannedLog[];
  /** Absent when the segment is read to its end. */
  readonly next?: string;
}

/** Items a scan request reads at most (about 400 KB of small log items). */
const SCAN_PAGE_ITEMS = 400;

export async function scanLogs(table: MeteredTable, query: LogScanQuery): Promise<LogScanPage> {
  const logs: ScannedLog[] = [];
  const closed = new Set<string>();
  let open: { pk: string; lastKey: Item; summary?: JobSummary; entries: LogEntry[] } | undefined;
  let next: string | undefined = query.after;
  let start: Item | undefined = query.after === undefined ? undefined : JSON.parse(Buffer.from(query.after, 'base64url').toString('utf8'));
  const close = () => {
    if (!open) return;
    closed.add(open.pk);
    logs.push({ pk: open.pk, summary: open.summary, entries: open.entries });
    next = Buffer.from(JSON.stringify(open.lastKey), 'utf8').toString('base64url');
    open = undefined;
  };
  do {
    const output = await table.scan({
      Segment: query.segment,
      TotalSegments: query.segments,
      ConsistentRead: true,
      // Small scan pages keep each request short, so `until` is kept closely under load.
      Limit: SCAN_PAGE_ITEMS,
      FilterExpression: 'begins_with(#sk, :entry) OR #sk = :summary',
      ExpressionAttributeNames: { '#sk': ATTR.sk },
      ExpressionAttributeValues: { ':entry': str(keys.entryPrefix), ':summary': str(keys.summary) },
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    for (const item of output.Items ?? []) {
      const pk = item[ATTR.pk]?.S as string;
      if (open?.pk !== pk) {
        close();
        const late = query.until !== undefined && logs.length > 0 && Date.now() >= query.until;
        if (logs.length >= query.streams || late) return { logs, ...(next === undefined ? {} : { next }) };
        // A stream whose items come apart would be folded from half its log: refuse loudly.
        if (closed.has(pk)) throw new Error(`scan returned the items of ${pk} apart; the scan cannot read logs whole`);
        open = { pk, lastKey: {}, entries: [] };
      }
      open.lastKey = { [ATTR.pk]: item[ATTR.pk] as Item[string], [ATTR.sk]: item[ATTR.sk] as Item[string] };
      const type = item[ATTR.type]?.S;
      if (type === ITEM_TYPE.entry || type === ITEM_TYPE.page) open.entries.push(...logItemEntries(item));
      else if (type === ITEM_TYPE.summary) open.summary = readJson(item, ATTR.data) as JobSummary;
      else throw new Error(`scan found an item of type ${type} under ${pk}: this reader knows entries, log pages and summaries only`);
    }
    start = output.LastEvaluatedKey;
  } while (start !== undefined);
  close();
  return { logs };
}
