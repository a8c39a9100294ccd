import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { toJson } from '../../shared/log/event-store-limits.ts';
import type { LogEntry, NewEntry } from '../../shared/log/event-store.ts';
import type { Item } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';
import { entryHash } from '../../shared/log/hash-chain.ts';

// JSON values (event bodies, summaries, commands, snapshots) are stored as JSON text, or as
// brotli-compressed JSON in a binary attribute when that is smaller. A ~1 KB pod event shrinks
// to ~500 bytes, which keeps its log item within one write unit (1 KB).

/** Below this many bytes compression rarely pays for its attribute `z`. */
const COMPRESS_MIN_BYTES = 200;
/**
 * Brotli quality up to 64 KiB, and above it (large snapshots). Measured on the bench's service
 * path (archived pods, outbox items, summaries): quality 7 is ~8% larger than 11 and ~18× faster
 * (the maximum quality took about a tenth of the service process's CPU), and above 64 KiB quality 5 is ~2×
 * faster than 7 at the same size. The extra bytes are a few write units per 10,000 pods.
 */
const SMALL_VALUE_QUALITY = 7;
const LARGE_VALUE_QUALITY = 5;
const SMALL_VALUE_MAX_BYTES = 64 * 1024;
/**
 * Brotli's window above 64 KiB: 2^18 bytes, not the default 2^22. A 10,000-pod Job's snapshot
 * (1.7–2.5 MB of JSON) is 10–13 % smaller with it (143.7 -> 128.6 KB, 165.6 -> 144.0 KB) and
 * compresses in 19–20 ms instead of 24–63 (erratic at the default window).
 */
const LARGE_VALUE_WINDOW_BITS = 18;
const BROTLI = 'br';

export const str = (value: string): AttributeValue => ({ S: value });
export const num = (value: number): AttributeValue => ({ N: String(value) });

/** Returns `{ [name]: value }`, compressed (with `z: "br"`) when that is smaller. */
export function jsonAttributes(name: string, value: unknown): Item {
  return jsonTextAttributes(name, toJson(value));
}

/** jsonAttributes of a value whose JSON text (toJson) the caller has already. */
export function jsonTextAttributes(name: string, text: string): Item {
  const raw = Buffer.from(text, 'utf8');
  if (raw.length < COMPRESS_MIN_BYTES) return { [name]: str(text) };
  const packed = compress(raw);
  return packed.length < raw.length ? { [name]: { B: packed }, [ATTR.encoding]: str(BROTLI) } : { [name]: str(text) };
}

/** Reads a value written by jsonAttributes. */
export function readJson(item: Item, name: string): unknown {
  const attribute = item[name];
  if (attribute?.S !== undefined) return JSON.parse(attribute.S);
  if (attribute?.B !== undefined && item[ATTR.encoding]?.S === BROTLI) {
    return JSON.parse(brotliDecompressSync(attribute.B).toString('utf8'));
  }
  throw new Error(`item ${item[ATTR.pk]?.S}/${item[ATTR.sk]?.S} has no readable ${name}`);
}

export function compress(raw: Buffer): Buffer {
  const small = raw.length <= SMALL_VALUE_MAX_BYTES;
  return brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: small ? SMALL_VALUE_QUALITY : LARGE_VALUE_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      ...(small ? {} : { [constants.BROTLI_PARAM_LGWIN]: LARGE_VALUE_WINDOW_BITS }),
    },
  });
}

export function decompress(packed: Uint8Array): Buffer {
  return brotliDecompressSync(packed);
}

export function readString(item: Item, name: string): string {
  const value = item[name]?.S;
  if (value === undefined) throw new Error(`item ${item[ATTR.pk]?.S}/${item[ATTR.sk]?.S} has no string ${name}`);
  return value;
}

export function readNumber(item: Item, name: string): number {
  const value = item[name]?.N;
  if (value === undefined) throw new Error(`item ${item[ATTR.pk]?.S}/${item[ATTR.sk]?.S} has no number ${name}`);
  return Number(value);
}

/** The entry's link in the log's hash chain (shared/log/hash-chain.ts), over the LogEntry read() returns. */
export const HASH_ATTR = 'hash';

/** The log item of an entry; with `prevHash`, it carries its chain hash (`hash`). */
export function entryItem(pk: string, entry: NewEntry, seq: number, recordedAt: string, writer: string, prevHash?: string): Item {
  const logged = { eventId: entry.eventId, type: entry.type, observedAt: entry.observedAt, body: entry.body, seq, recordedAt };
  return {
    ...(prevHash === undefined ? {} : { [HASH_ATTR]: str(entryHash(prevHash, logged)) }),
    [ATTR.pk]: str(pk),
    [ATTR.sk]: str(keys.entry(seq)),
    [ATTR.type]: str(ITEM_TYPE.entry),
    [ATTR.seq]: num(seq),
    [ATTR.eventId]: str(entry.eventId),
    [ATTR.eventType]: str(entry.type),
    [ATTR.observedAt]: str(entry.observedAt),
    [ATTR.recordedAt]: str(recordedAt),
    [ATTR.writer]: str(writer),
    ...jsonAttributes(ATTR.body, entry.body),
  };
}

export function entryFromItem(item: Item): LogEntry {
  return {
    eventId: readString(item, ATTR.eventId),
    type: readString(item, ATTR.eventType),
    observedAt: readString(item, ATTR.observedAt),
    body: readJson(item, ATTR.body),
    seq: readNumber(item, ATTR.seq),
    recordedAt: readString(item, ATTR.recordedAt),
    ...(item[HASH_ATTR]?.S === undefined ? {} : { hash: item[HASH_ATTR].S }),
  };
}
