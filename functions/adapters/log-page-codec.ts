import { createHash } from 'node:crypto';
import { brotliCompressSync, constants } from 'node:zlib';
import type { LogEntry } from '../../shared/log/event-store.ts';
import { bodyJson, leftOutOfJson } from '../../shared/log/event-store-limits.ts';
import { entryHash } from '../../shared/log/hash-chain.ts';
import { decompress, entryFromItem, HASH_ATTR, num, readNumber, str } from './item-codec.ts';
import type { Item } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// Log pages: the single writer's format. One item holds a run of consecutive entries, exactly
// as read() returns them (seq, eventId, type, observedAt, recordedAt, body) but their chain
// hashes, as one brotli-compressed JSON array. Its key is the log key of its FIRST entry,
// "e#<first seq>", so a page and a one-entry item compete for the same position: every writer
// puts its first item at head + 1 with attribute_not_exists, and an item always starts right
// after some head, so that put fails exactly when the head moved — whatever format the other
// writer used.
// Attributes: seq (first), ls (last seq), lh (hash of the last entry, read with the head), and
// fs when the writer marked pods' first sightings (CommitInput.podFirstSightings): a bitmap,
// bit i (of byte i >> 3, least significant first) for entry first + i, about 125 bytes for
// 1,000 entries. It sits outside the compressed entries, so the hash chain does not cover it.
// The chain hashes: a SHA-256 does not compress, and held two thirds of a page (500 pod events
// of ~1.4 KB: ~32 KB with them, ~12.5 KB without, tags included). The chain is a function of the entries, so a
// page stores only what anchors it: ph, the hash the page chains on from (the entry before its
// first), lh, and ht, the first HASH_TAG_BYTES bytes of each entry's hash. A reader gives each
// entry its hash when asked (a getter, computed once per page up to the entry asked for), so a
// read that never looks at hashes (the fold, the views) hashes nothing. An entry whose hash does
// not match its tag was changed after it was written: from there on the page's hashes cannot be
// known, so it gets a hash that chains from nothing (the audit names it changed), the entries
// after it chain on from that, and the last one keeps lh, the page's stored seal (whose link
// then breaks too). Pages written before ph existed carry each entry's hash in the JSON, and are
// read as they are.

/** Largest compressed page; a DynamoDB item is at most 400 KB with its keys and attributes. */
export const PAGE_MAX_BYTES = 350_000;
/**
 * Brotli quality 5. Pages without their hashes are as small at 5 as at 6 (lean pods 20.8 bytes an
 * entry either way, realistic 59.4), and 6 was slow and erratic on the pages a busy writer makes
 * (2,048 entries, ~2.6 MB of JSON: 23–51 µs an entry at 6, 6–13 at 5).
 */
const PAGE_QUALITY = 5;
const BROTLI = 'br';
/** Bytes of each entry's hash a page keeps (ht), to name the entry changed: a 1 in 4 billion chance to miss it. */
const HASH_TAG_BYTES = 4;

/** What a page is written with besides its entries. */
export type PageOptions = {
  /** The seqs among the entries marked as a pod's first sighting. */
  readonly firstSightings?: ReadonlySet<number>;
  /** The chain hash of the entry before the first one (the genesis hash at seq 1); required when the entries carry hashes. */
  readonly prevHash?: string;
};

/** The page items of consecutive entries, as many as their compressed size needs, in seq order. */
export function pageItems(pk: string, entries: readonly LogEntry[], options: PageOptions = {}): Item[] {
  if (entries.length === 0) return [];
  const chained = (entries[0] as LogEntry).hash !== undefined;
  if (chained && options.prevHash === undefined) throw new Error(`log page ${pk}/${keys.entry((entries[0] as LogEntry).seq)}: chained entries need the hash they chain on from`);
  const packed = compressPage(entries);
  // Halve until each page fits; a single entry always fits (bodies are at most 350,000 bytes).
  if (packed.length <= PAGE_MAX_BYTES || entries.length === 1) return [pageItem(pk, entries, packed, options)];
  const middle = splitPoint(entries);
  const second = { ...options, ...(chained ? { prevHash: (entries[middle - 1] as LogEntry).hash } : {}) };
  return [...pageItems(pk, entries.slice(0, middle), options), ...pageItems(pk, entries.slice(middle), second)];
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
  const prevHash = item[ATTR.prevHash]?.S;
  const first = readNumber(item, ATTR.seq);
  const last = readNumber(item, ATTR.lastSeq);
  // A page is written whole and never changed; a gap here is damage, not a race.
  if (entries.length !== last - first + 1 || entries.some((e, i) => e.seq !== first + i)) {
    throw new Error(`log page ${item[ATTR.pk]?.S}/${item[ATTR.sk]?.S} does not hold seqs ${first}..${last}`);
  }
  if (prevHash !== undefined) withChainHashes(entries, prevHash, item[ATTR.lastHash]?.S, item[ATTR.hashTags]?.B);
  return entries;
}

/**
 * Gives the entries of a page their chain hashes, computed when first asked for (up to the entry
 * asked) from the hash before the page, checked against their tags (see the top of this file).
 */
function withChainHashes(entries: LogEntry[], prevHash: string, lastHash: string | undefined, tags: Uint8Array | undefined): void {
  const hashes: string[] = [];
  let changed = false;
  const hashOf = (index: number): string => {
    for (let i = hashes.length; i <= index; i++) {
      const prev = i === 0 ? prevHash : (hashes[i - 1] as string);
      const entry = entries[i] as LogEntry;
      if (i === entries.length - 1 && lastHash !== undefined) {
        hashes.push(lastHash);
        continue;
      }
      const hash = entryHash(prev, withoutHash(entry));
      if (!changed && tags !== undefined && !hasTag(hash, tags, i)) {
        changed = true;
        hashes.push(createHash('sha256').update(`changed after it was written: ${hash}`).digest('hex'));
      } else {
        hashes.push(hash);
      }
    }
    return hashes[index] as string;
  };
  const first = (entries[0] as LogEntry).seq;
  const link: PropertyDescriptor = { value: (entry: LogEntry) => hashOf(entry.seq - first), configurable: true };
  for (const entry of entries) {
    Object.defineProperty(entry, PAGE_CHAIN, link);
    Object.defineProperty(entry, 'hash', CHAIN_HASH);
  }
}

/**
 * Each page entry's way to its hash: its page's chain, under a symbol that is not enumerable (no
 * copy, comparison or JSON of an entry sees it), read by one getter for all, so entries keep one
 * shape (a getter per entry made V8 reads of their fields ~2× slower). A WeakMap from entry to
 * chain cost twice the install (JSON.parse of a 1,000-entry page 2.5-3.4 ms; WeakMap.set and the
 * getter +0.85-1.2 ms, this +0.23-0.54 ms) and an ephemeron per entry read for the collector.
 */
const PAGE_CHAIN = Symbol('page chain');
const CHAIN_HASH: PropertyDescriptor = {
  get(this: LogEntry & { readonly [PAGE_CHAIN]: (entry: LogEntry) => string }): string {
    return this[PAGE_CHAIN](this);
  },
  enumerable: true,
  configurable: true,
};

function hasTag(hash: string, tags: Uint8Array, index: number): boolean {
  const tag = Buffer.from(tags.buffer, tags.byteOffset + index * HASH_TAG_BYTES, HASH_TAG_BYTES).toString('hex');
  return hash.startsWith(tag);
}

/** The entry as the chain hashes it, and as a page stores it: without its hash (never reading it: it may be the getter). */
function withoutHash(entry: LogEntry): Omit<LogEntry, 'hash'> {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(entry)) if (key !== 'hash') rest[key] = entry[key as keyof LogEntry];
  return rest as Omit<LogEntry, 'hash'>;
}

/** The last seq a log item holds. */
export function itemLastSeq(item: Item): number {
  return isPage(item) ? readNumber(item, ATTR.lastSeq) : readNumber(item, ATTR.seq);
}

/** The chain hash of the last entry a log item holds (undefined for an entry stored before the chain). */
export function itemLastHash(item: Item): string | undefined {
  return isPage(item) ? item[ATTR.lastHash]?.S : item[HASH_ATTR]?.S;
}

function pageItem(pk: string, entries: readonly LogEntry[], packed: Buffer, options: PageOptions): Item {
  const first = entries[0] as LogEntry;
  const last = entries.at(-1) as LogEntry;
  const bits = sightingBits(entries, options.firstSightings ?? new Set());
  return {
    [ATTR.pk]: str(pk),
    [ATTR.sk]: str(keys.entry(first.seq)),
    [ATTR.type]: str(ITEM_TYPE.page),
    [ATTR.seq]: num(first.seq),
    [ATTR.lastSeq]: num(last.seq),
    ...(last.hash === undefined ? {} : { [ATTR.lastHash]: str(last.hash), [ATTR.prevHash]: str(options.prevHash as string), [ATTR.hashTags]: { B: hashTags(entries) } }),
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

/** The first HASH_TAG_BYTES bytes of each entry's hash, in order. */
function hashTags(entries: readonly LogEntry[]): Uint8Array {
  const tags = new Uint8Array(entries.length * HASH_TAG_BYTES);
  entries.forEach((entry, i) => tags.set(Buffer.from((entry.hash as string).slice(0, HASH_TAG_BYTES * 2), 'hex'), i * HASH_TAG_BYTES));
  return tags;
}

function compressPage(entries: readonly LogEntry[]): Buffer {
  const raw = Buffer.from(pageJson(entries), 'utf8');
  return brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: PAGE_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}

/**
 * JSON.stringify of the entries without their hashes, each body's text made once per commit
 * (bodyJson: the commit's size checks made it already). Same text, key for key.
 */
function pageJson(entries: readonly LogEntry[]): string {
  let text = '[';
  for (const [i, entry] of entries.entries()) {
    let object = '';
    for (const key of Object.keys(entry)) {
      if (key === 'hash') continue;
      const value = entry[key as keyof LogEntry];
      if (leftOutOfJson(value)) continue;
      object += `${object === '' ? '' : ','}${JSON.stringify(key)}:${key === 'body' ? bodyJson(value) : JSON.stringify(value)}`;
    }
    text += `${i === 0 ? '' : ','}{${object}}`;
  }
  return `${text}]`;
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
