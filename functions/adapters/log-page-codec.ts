import { brotliCompressSync, constants } from 'node:zlib';
import type { LogEntry } from '../../shared/app/event-store.ts';
import { decompress, entryFromItem, HASH_ATTR, num, readNumber, str } from './item-codec.ts';
import type { Item } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// Log pages: the single writer's format. One item holds a run of consecutive entries, exactly
// as read() returns them (seq, eventId, type, observedAt, recordedAt, body, hash), as one
// brotli-compressed JSON array. Its key is the log key of its FIRST entry, "e#<first seq>", so
// a page and a one-entry item compete for the same position: every writer puts its first item
// at head + 1 with attribute_not_exists, and an item always starts right after some head, so
// that put fails exactly when the head moved — whatever format the other writer used.
// Attributes: seq (first), ls (last seq), lh (hash of the last entry, read with the head), and
// fs when the writer marked pods' first sightings (CommitInput.podFirstSightings): a bitmap,
// bit i (of byte i >> 3, least significant first) for entry first + i, about 125 bytes for
// 1,000 entries. It sits outside the compressed entries, so the hash chain does not cover it.
// 500 pod events of ~1.4 KB are ~690 KB of JSON and ~32 KB in a page (two thirds of it are the
// entries' SHA-256 hashes, which do not compress), 63 bytes per event instead of ~500.

/** Largest compressed page; a DynamoDB item is at most 400 KB with its keys and attributes. */
export const PAGE_MAX_BYTES = 350_000;
/** Brotli quality 6: as small as 5–9 on log entries (the hashes dominate) and ~4× faster than 5. */
const PAGE_QUALITY = 6;
const BROTLI = 'br';

/**
 * The page items of consecutive entries, as many as their compressed size needs, in seq order;
 * `firstSightings`: the seqs among them marked as a pod's first sighting.
 */
export function pageItems(pk: string, entries: readonly LogEntry[], firstSightings: ReadonlySet<number> = new Set()): Item[] {
  if (entries.length === 0) return [];
  const packed = compressPage(entries);
  // Halve until each page fits; a single entry always fits (bodies are at most 350,000 bytes).
  if (packed.length <= PAGE_MAX_BYTES || entries.length === 1) return [pageItem(pk, entries, packed, firstSightings)];
  const middle = splitPoint(entries);
  return [...pageItems(pk, entries.slice(0, middle), firstSightings), ...pageItems(pk, entries.slice(middle), firstSightings)];
}

/** The seqs a log item marks as a pod's first sighting, ascending (none for a one-entry item). */
export function itemFirstSightings(item: Item): number[] {
  const bits = item[ATTR.firstSightings]?.B;
  if (!isPage(item) || bits === undefined) return [];
  const first = readNumber(item, ATTR.seq);
  const count = readNumber(item, ATTR.lastSeq) - first + 1;
  const seqs: number[] = [];
  for (let i = 0; i < count; i++) if (((bits[i >> 3] ?? 0) & (1 << (i & 7))) !== 0) seqs.push(first + i);
  return seqs;
}

export function isPage(item: Item): boolean {
  return item[ATTR.type]?.S === ITEM_TYPE.page;
}

/** The entries of a log item (one entry, or a page's), in seq order. */
export function logItemEntries(item: Item): LogEntry[] {
  if (!isPage(item)) return [entryFromItem(item)];
  const entries = JSON.parse(decompress(item[ATTR.data]?.B ?? new Uint8Array()).toString('utf8')) as LogEntry[];
  const first = readNumber(item, ATTR.seq);
  const last = readNumber(item, ATTR.lastSeq);
  // A page is written whole and never changed; a gap here is damage, not a race.
  if (entries.length !== last - first + 1 || entries.some((e, i) => e.seq !== first + i)) {
    throw new Error(`log page ${item[ATTR.pk]?.S}/${item[ATTR.sk]?.S} does not hold seqs ${first}..${last}`);
  }
  return entries;
}

/** The last seq a log item holds. */
export function itemLastSeq(item: Item): number {
  return isPage(item) ? readNumber(item, ATTR.lastSeq) : readNumber(item, ATTR.seq);
}

/** The chain hash of the last entry a log item holds (undefined for an entry stored before the chain). */
export function itemLastHash(item: Item): string | undefined {
  return isPage(item) ? item[ATTR.lastHash]?.S : item[HASH_ATTR]?.S;
}

function pageItem(pk: string, entries: readonly LogEntry[], packed: Buffer, firstSightings: ReadonlySet<number>): Item {
  const first = entries[0] as LogEntry;
  const last = entries.at(-1) as LogEntry;
  const bits = sightingBits(entries, firstSightings);
  return {
    [ATTR.pk]: str(pk),
    [ATTR.sk]: str(keys.entry(first.seq)),
    [ATTR.type]: str(ITEM_TYPE.page),
    [ATTR.seq]: num(first.seq),
    [ATTR.lastSeq]: num(last.seq),
    ...(last.hash === undefined ? {} : { [ATTR.lastHash]: str(last.hash) }),
    [ATTR.data]: { B: packed },
    [ATTR.encoding]: str(BROTLI),
    ...(bits === undefined ? {} : { [ATTR.firstSightings]: { B: bits } }),
  };
}

/** The page's first-sighting bitmap, or undefined when none of its entries is marked. */
function sightingBits(entries: readonly LogEntry[], firstSightings: ReadonlySet<number>): Uint8Array | undefined {
  if (firstSightings.size === 0) return undefined;
  const bits = new Uint8Array(Math.ceil(entries.length / 8));
  let any = false;
  entries.forEach((entry, i) => {
    if (!firstSightings.has(entry.seq)) return;
    bits[i >> 3] = (bits[i >> 3] ?? 0) | (1 << (i & 7));
    any = true;
  });
  return any ? bits : undefined;
}

function compressPage(entries: readonly LogEntry[]): Buffer {
  const raw = Buffer.from(JSON.stringify(entries), 'utf8');
  return brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: PAGE_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}

/** The index that splits entries into two runs of about equal JSON size (each non-empty). */
function splitPoint(entries: readonly LogEntry[]): number {
  const sizes = entries.map((e) => JSON.stringify(e).length);
  const half = sizes.reduce((a, b) => a + b, 0) / 2;
  let sum = 0;
  for (const [i, size] of sizes.entries()) {
    sum += size;
    if (sum >= half) return Math.min(Math.max(i, 1), entries.length - 1);
  }
  return entries.length - 1;
}
