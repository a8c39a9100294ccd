import type { LogEntry } from '../../shared/log/event-store.ts';
import { GENESIS_HASH } from '../../shared/log/hash-chain.ts';
import { readNumber, str } from './item-codec.ts';
import { itemFirstSightings, itemLastHash, itemLastSeq, logItemEntries } from './log-page-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, keys } from './table-layout.ts';

// Reads of a log whose positions are held by one-entry items and log pages alike (both keyed
// "e#<first seq>"). Every read is strongly consistent. A page may start before the position a
// read starts at, so a read first takes the item holding that position (the last one whose key
// is at or before it), then the items after it.

const LAST_KEY = keys.entry(1e12 - 1);

/** The log's last position (0 when empty) and the chain hash there (genesis when none). */
export type Tip = { head: number; hash: string };

/** Reads the head and its hash from the last log item (one Query). */
export async function readTip(table: MeteredTable, pk: string): Promise<Tip> {
  const output = await table.query({
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk, '#t': ATTR.type, '#seq': ATTR.seq, '#ls': ATTR.lastSeq, '#lh': ATTR.lastHash, '#hash': 'hash' },
    ExpressionAttributeValues: { ':pk': str(pk), ':prefix': str(keys.entryPrefix) },
    ProjectionExpression: '#t, #seq, #ls, #lh, #hash',
    ScanIndexForward: false,
    Limit: 1,
    ConsistentRead: true,
  });
  const last = output.Items?.[0];
  return last === undefined ? { head: 0, hash: GENESIS_HASH } : { head: itemLastSeq(last), hash: itemLastHash(last) ?? GENESIS_HASH };
}

/** Returns the stream's last seq, 0 when empty. */
export async function readHead(table: MeteredTable, pk: string): Promise<number> {
  return (await readTip(table, pk)).head;
}

/** What a read of the log found: the entries, the seqs among them marked as first sightings, and the head when the read saw it. */
export type EntriesRead = { entries: LogEntry[]; firstSightings: number[]; head?: number };

/**
 * Returns up to `limit` entries after `afterSeq` in seq order, following pages, with the seqs
 * among them their page marks as pods' first sightings (log-page-codec.ts). `head` is set when
 * the read reached the log's last item (so the caller need not read the head again).
 */
export async function readEntries(table: MeteredTable, pk: string, afterSeq: number, limit = Infinity): Promise<EntriesRead> {
  const from = afterSeq + 1;
  const entries: LogEntry[] = [];
  const firstSightings: number[] = [];
  const take = (item: Item, held: readonly LogEntry[]) => {
    entries.push(...held);
    firstSightings.push(...itemFirstSightings(item));
  };
  // The item holding `from`: the one-entry item at it, or a page that started before it. With
  // none, `from` is beyond the head (positions are contiguous): the last item ends the log.
  // A point read is this one Query, and what it holds sizes the Queries after it.
  const holding = await itemAtOrBefore(table, pk, from);
  if (holding === undefined) return { entries, firstSightings, head: 0 };
  if (itemLastSeq(holding) < from) return { entries, firstSightings, head: itemLastSeq(holding) };
  const held = logItemEntries(holding);
  take(holding, held.filter((e) => e.seq >= from));
  // Items read after the holding one and the entries they held, to size the next Query.
  const seen = { items: 0, entries: 0 };
  const next = itemLastSeq(holding) + 1;
  let start: Item | undefined;
  let head: number | undefined;
  while (entries.length < limit) {
    const output = await table.query({
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
      ExpressionAttributeValues: { ':pk': str(pk), ':from': str(keys.entry(next)), ':to': str(LAST_KEY) },
      ConsistentRead: true,
      ...(Number.isFinite(limit) ? { Limit: itemsFor(limit - entries.length, seen, held.length) } : {}),
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    const found = output.Items ?? [];
    for (const item of found) {
      const held = logItemEntries(item);
      take(item, held);
      seen.items += 1;
      seen.entries += held.length;
    }
    start = output.LastEvaluatedKey;
    if (start === undefined) {
      // No key after the last item read: it is the log's last.
      head = entries.at(-1)?.seq ?? next - 1;
      break;
    }
  }
  const kept = Number.isFinite(limit) ? entries.slice(0, limit) : entries;
  const last = kept.at(-1)?.seq ?? afterSeq;
  // The holding page's marks before `from`, and those cut with the entries past `limit`, go.
  const marked = firstSightings.filter((seq) => seq >= from && seq <= last);
  return { entries: kept, firstSightings: marked, ...(head === undefined ? {} : { head }) };
}

/** The chain hash of the entry at `seq` (the genesis hash before seq 1, or for an entry without one). */
export async function hashAt(table: MeteredTable, pk: string, seq: number): Promise<string> {
  if (seq < 1) return GENESIS_HASH;
  const item = await itemAtOrBefore(table, pk, seq);
  if (item === undefined || itemLastSeq(item) < seq) return GENESIS_HASH;
  if (itemLastSeq(item) === seq) return itemLastHash(item) ?? GENESIS_HASH;
  return logItemEntries(item).find((e) => e.seq === seq)?.hash ?? GENESIS_HASH;
}

/** The log item holding the position `seq` if any: the last one starting at or before it. */
async function itemAtOrBefore(table: MeteredTable, pk: string, seq: number): Promise<Item | undefined> {
  const output = await table.query({
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
    ExpressionAttributeValues: { ':pk': str(pk), ':from': str(keys.entry(1)), ':to': str(keys.entry(seq)) },
    ScanIndexForward: false,
    Limit: 1,
    ConsistentRead: true,
  });
  return output.Items?.[0];
}

/**
 * Items to ask for to get `wanted` more entries, from the entries per item seen so far. The
 * holding item alone is a poor guide (the log's first page may hold 3 entries, the next ones
 * 1,000 each; asking for 1,600 pages would read a whole 1 MB Query response), so the first
 * Query after it asks for at most 2 items, and the later ones go by the items after it.
 */
function itemsFor(wanted: number, seen: { readonly items: number; readonly entries: number }, holdingEntries: number): number {
  if (seen.items === 0) return Math.max(1, Math.min(2, Math.ceil(wanted / Math.max(1, holdingEntries))));
  return Math.max(1, Math.ceil(wanted / Math.max(1, seen.entries / seen.items)));
}
