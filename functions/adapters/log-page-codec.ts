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
// Page form 2 (attribute pf = 2; docs/data-model.md): three values a page can derive are stored as
// placeholders in place, so a run of pod events costs ~8 bytes an entry less compressed (realistic
// pods ~78 -> ~70, lean ~30 -> ~22; bench/page-bytes.ts): each entry's seq as 0 (it is first + i),
// its eventId as 0 when its body's eventId is the same string, and a pod's body.sequence.jobSeq as
// the difference from the one before it in the page (0 before the first), so a run of consecutive
// counts is a run of 1s. Keys stay where they were, so a read gives back the entries key for key.
// A page whose entries a placeholder could make ambiguous (an eventId that is the number 0, a
// jobSeq that is not a safe integer) is written in form 1, as before. Form 1 pages (no pf) are read
// as they are. An older reader refuses a form 2 page (its seqs read 0, not first..last) and never
// misreads one.

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
/** The page form written (attribute pf): 2, placeholders for what a page derives (top of this file). Form 1 has no pf. */
export const PAGE_FORM = 2;

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
  const { text, form } = pageText(entries);
  const packed = compressPage(text);
  // Halve until each page fits; a single entry always fits (bodies are at most 350,000 bytes).
  if (packed.length <= PAGE_MAX_BYTES || entries.length === 1) return [pageItem(pk, entries, packed, form, options)];
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
  const form = item[ATTR.pageForm]?.N;
  // A page is written whole and never changed; a gap here is damage, not a race.
  const damaged = () => new Error(`log page ${item[ATTR.pk]?.S}/${item[ATTR.sk]?.S} does not hold seqs ${first}..${last}`);
  if (entries.length !== last - first + 1) throw damaged();
  if (form === String(PAGE_FORM)) {
    if (!fromForm2(entries, first)) throw damaged();
  } else if (form !== undefined) {
    throw new Error(`log page ${item[ATTR.pk]?.S}/${item[ATTR.sk]?.S} is of form ${form}, which this version does not read (it reads 1..${PAGE_FORM})`);
  } else if (entries.some((e, i) => e.seq !== first + i)) {
    throw damaged();
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

function pageItem(pk: string, entries: readonly LogEntry[], packed: Buffer, form: 1 | 2, options: PageOptions): Item {
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
    ...(form === 1 ? {} : { [ATTR.pageForm]: num(form) }),
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

function compressPage(text: string): Buffer {
  const raw = Buffer.from(text, 'utf8');
  return brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: PAGE_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}

/**
 * The page's JSON text and its form: form 2 when every entry can be stored with its placeholders
 * (top of this file), else form 1 (pageJson).
 */
function pageText(entries: readonly LogEntry[]): { readonly text: string; readonly form: 1 | 2 } {
  const text = form2Json(entries);
  return text === undefined ? { text: pageJson(entries), form: 1 } : { text, form: 2 };
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

/**
 * pageJson's text in form 2 (seq 0; eventId 0 when the body's is the same string; body.sequence.jobSeq
 * as the difference from the jobSeq before it in the page), or undefined when an entry cannot be
 * stored so and read back exactly: a seq that is not first + i, an eventId that is the number 0, a
 * jobSeq or its difference that is not a safe integer.
 */
function form2Json(entries: readonly LogEntry[]): string | undefined {
  const first = (entries[0] as LogEntry).seq;
  let jobSeq = 0;
  let text = '[';
  for (const [i, entry] of entries.entries()) {
    if (entry.seq !== first + i || (entry.eventId as unknown) === 0) return undefined;
    let object = '';
    let seqWritten = false;
    for (const key of Object.keys(entry)) {
      if (key === 'hash') continue;
      const value = entry[key as keyof LogEntry];
      if (leftOutOfJson(value)) continue;
      let json: string;
      if (key === 'seq') {
        json = '0';
        seqWritten = true;
      } else if (key === 'eventId') {
        json = sameEventId(entry) ? '0' : JSON.stringify(value);
      } else if (key === 'body') {
        const body = bodyWithJobSeqDifference(value, jobSeq);
        if (body === undefined) return undefined;
        json = body.text;
        jobSeq = body.jobSeq;
      } else {
        json = JSON.stringify(value);
      }
      object += `${object === '' ? '' : ','}${JSON.stringify(key)}:${json}`;
    }
    if (!seqWritten) return undefined;
    text += `${i === 0 ? '' : ','}{${object}}`;
  }
  return `${text}]`;
}

/** Reads form 2's placeholders back in place (see form2Json); false when the page cannot be read so (damage). */
function fromForm2(entries: LogEntry[], first: number): boolean {
  let jobSeq = 0;
  for (const [i, entry] of entries.entries()) {
    const stored = entry as { seq: unknown; eventId: unknown; body: unknown };
    if (stored.seq !== 0) return false;
    stored.seq = first + i;
    if (stored.eventId === 0) {
      const eventId = isObject(stored.body) ? stored.body['eventId'] : undefined;
      if (typeof eventId !== 'string') return false;
      stored.eventId = eventId;
    }
    const sequence = isObject(stored.body) ? stored.body['sequence'] : undefined;
    if (isObject(sequence) && typeof sequence['jobSeq'] === 'number') {
      jobSeq += sequence['jobSeq'];
      sequence['jobSeq'] = jobSeq;
    }
  }
  return true;
}

/** Whether the entry's eventId is its body's, which form 2 then stores once (the body's). */
function sameEventId(entry: LogEntry): boolean {
  return typeof entry.eventId === 'string' && isObject(entry.body) && entry.body['eventId'] === entry.eventId;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SEQUENCE_KEY = JSON.stringify('sequence');

/**
 * The body's JSON text with body.sequence.jobSeq as its difference from `before`, and the jobSeq
 * the next entry's difference is taken from (unchanged when the body has no numeric jobSeq), or
 * undefined when the jobSeq or the difference is not a safe integer. The text is the commit's
 * (bodyJson) with only the sequence's part made again: it is found by the text of the keys beside
 * it (the ones after it, else the ones before it, when their values are plain strings, numbers,
 * booleans or null), and checked; else the whole body is written again.
 */
function bodyWithJobSeqDifference(body: unknown, before: number): { readonly text: string; readonly jobSeq: number } | undefined {
  const sequence = isObject(body) ? body['sequence'] : undefined;
  const jobSeq = isObject(sequence) ? sequence['jobSeq'] : undefined;
  if (typeof jobSeq !== 'number') return { text: bodyJson(body), jobSeq: before };
  const difference = jobSeq - before;
  if (!Number.isSafeInteger(jobSeq) || !Number.isSafeInteger(difference)) return undefined;
  const stored = { ...(sequence as Record<string, unknown>), jobSeq: difference };
  const text = bodyJson(body);
  const part = `${SEQUENCE_KEY}:${JSON.stringify(sequence)}`;
  const at = partAt(body as Record<string, unknown>, text, part);
  const rewritten = at === undefined
    ? JSON.stringify({ ...(body as Record<string, unknown>), sequence: stored })
    : `${text.slice(0, at)}${SEQUENCE_KEY}:${JSON.stringify(stored)}${text.slice(at + part.length)}`;
  return { text: rewritten, jobSeq };
}

/** Where `part` (the sequence's `"sequence":…`) starts in the body's JSON `text`, found by the keys beside it; undefined when they cannot tell. */
function partAt(body: Record<string, unknown>, text: string, part: string): number | undefined {
  const keys = Object.keys(body).filter((key) => !leftOutOfJson(body[key]));
  const index = keys.indexOf('sequence');
  const plain = (key: string) => {
    const value = body[key];
    return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  };
  const json = (key: string) => `${JSON.stringify(key)}:${JSON.stringify(body[key])}`;
  const after = keys.slice(index + 1);
  const before = keys.slice(0, index);
  if (after.every(plain)) {
    const tail = `${part}${after.map((key) => `,${json(key)}`).join('')}}`;
    const mark = text[text.length - tail.length - 1];
    if (text.endsWith(tail) && (mark === ',' || mark === '{')) return text.length - tail.length;
  }
  if (before.every(plain)) {
    const head = `{${before.map((key) => `${json(key)},`).join('')}`;
    if (text.startsWith(`${head}${part}`)) return head.length;
  }
  return undefined;
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
