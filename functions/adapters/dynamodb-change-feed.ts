import { createHash } from 'node:crypto';
import { checkLimit } from '../../shared/log/event-store-limits.ts';
import type { StreamId } from '../../shared/log/event-store.ts';
import { MAX_CHANGES_PER_PAGE, type ChangePage, type ChangeQuery, type LogChange } from '../../shared/log/change-feed.ts';
import { readNumber, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, CHANGE_BUCKETS, INDEX, keys } from './table-layout.ts';

// The change feed on DynamoDB: every log item (an entry, or a page of the log writer) carries
// the keys of the sparse `log-changes` index: partition "<kind>#<cluster>#<bucket>" (a hash of
// the uid picks one of CHANGE_BUCKETS, so a busy cluster's writes spread over 16 partitions),
// sort key "<recorded ms>#<namespace>#<uid>#<first seq>". The index projects the table's keys
// (the log's stream key, the item's first seq) and a page's last seq, about 150 bytes: one
// more write unit per log item, a share of a page's 30-odd. A page of changes reads every
// bucket from the same position and merges them in sort-key order; the cursor is the sort key
// of the last change returned, which is a position in every bucket.

/** The index attributes of a log item holding `stream`'s positions from `firstSeq`, recorded at `recordedAt`. */
export function changeKeys(stream: StreamId, firstSeq: number, recordedAt: string): Item {
  const recordedMs = Date.parse(recordedAt);
  if (Number.isNaN(recordedMs)) throw new RangeError(`recordedAt ${JSON.stringify(recordedAt)} is not a time`);
  return {
    [ATTR.changeKey]: str(keys.changePartition(stream.kind, stream.clusterId, bucketOf(stream.uid))),
    [ATTR.changeSort]: str(keys.changeSort(recordedMs, stream.namespace, stream.uid, firstSeq)),
  };
}

export async function logChanges(table: MeteredTable, query: ChangeQuery): Promise<ChangePage> {
  checkLimit(query.limit);
  if (query.limit > MAX_CHANGES_PER_PAGE) throw new RangeError(`limit must be at most ${MAX_CHANGES_PER_PAGE}`);
  const since = keys.changeSince(query.sinceMs);
  const after = query.cursor === undefined ? since : checkedCursor(query.cursor);
  const from = after < since ? since : after;
  const buckets = await Promise.all(Array.from({ length: CHANGE_BUCKETS }, (_, bucket) => readBucket(table, query, bucket, from)));
  const merged = buckets.flatMap((bucket) => bucket.items).sort((a, b) => compare(sortKey(a), sortKey(b)));
  const page = merged.slice(0, query.limit);
  // More may follow where a bucket was cut short or the merge left changes out.
  const more = merged.length > page.length || buckets.some((bucket) => bucket.more);
  const last = page.at(-1);
  return {
    changes: page.map((item) => toChange(query, item)),
    ...(more && last !== undefined ? { cursor: sortKey(last) } : {}),
  };
}

async function readBucket(table: MeteredTable, query: ChangeQuery, bucket: number, after: string): Promise<{ items: Item[]; more: boolean }> {
  const output = await table.query({
    IndexName: INDEX.changes,
    KeyConditionExpression: '#p = :p AND #s > :after',
    ExpressionAttributeNames: { '#p': ATTR.changeKey, '#s': ATTR.changeSort },
    ExpressionAttributeValues: { ':p': str(keys.changePartition(query.kind, query.clusterId, bucket)), ':after': str(after) },
    Limit: query.limit,
  });
  return { items: output.Items ?? [], more: output.LastEvaluatedKey !== undefined };
}

function toChange(query: ChangeQuery, item: Item): LogChange {
  const [ms = '', namespace = '', uid = '', first = ''] = sortKey(item).split('#');
  const firstSeq = Number(first);
  return {
    stream: { kind: query.kind, clusterId: query.clusterId, namespace: decodeURIComponent(namespace), uid: decodeURIComponent(uid) },
    firstSeq,
    lastSeq: item[ATTR.lastSeq] === undefined ? firstSeq : readNumber(item, ATTR.lastSeq),
    recordedAt: new Date(Number(ms)).toISOString(),
  };
}

function sortKey(item: Item): string {
  const value = item[ATTR.changeSort]?.S;
  if (value === undefined) throw new Error(`change index item ${item[ATTR.pk]?.S}/${item[ATTR.sk]?.S} has no ${ATTR.changeSort}`);
  return value;
}

/** A cursor is a sort key this index returned: "<15 digits>#<ns>#<uid>#<12 digits>". */
function checkedCursor(cursor: string): string {
  if (!/^\d{15}#[^#]+#[^#]+#\d{12}$/.test(cursor)) throw new RangeError('invalid logChanges cursor');
  return cursor;
}

function bucketOf(uid: string): number {
  return (createHash('sha256').update(uid).digest()[0] ?? 0) % CHANGE_BUCKETS;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
