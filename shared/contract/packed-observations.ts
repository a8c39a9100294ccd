import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import * as z from 'zod';
import { InboundDetailType, PartitionKeySchema } from './inbound.ts';

/**
 * `Pod Observations`: several pod observations of ONE Job in one bus event (docs/events.md).
 *
 * Why: the bus puts one Kinesis record per event and a Job's partition key maps to one shard,
 * which takes 1,000 records/s. A pack lifts one Job's ingest above that. Each observation in
 * the pack is `{ "detail-type", detail }` exactly as its single event would have it (eventId,
 * observedAt, partitionKey, object, sequence); the array is brotli-compressed and base64'd so a
 * pack of a few hundred pods fits one 256 KiB entry. The writer unpacks it at the boundary and
 * treats every observation as if it had come alone.
 */

export const PACKED_DETAIL_TYPE = 'Pod Observations';
/** What a pack may hold: pod events, the ones a big Job has many of. */
export const PACKABLE_DETAIL_TYPES: readonly string[] = [InboundDetailType.PodObserved, InboundDetailType.PodDeleted];
/** At most this many observations per pack. */
export const MAX_PACK_OBSERVATIONS = 1000;
/**
 * At most this many bytes of JSON once decompressed: bounds what one entry can make the writer
 * hold (pod JSON compresses up to ~60:1, so a 256 KiB entry could hold far more; a decompression
 * bomb is refused at this size, not inflated). 1,000 pods of ~1.1 KB take about half of it.
 */
export const MAX_PACK_DECODED_BYTES = 2 * 1024 * 1024;
export const PACK_ENCODING = 'br';
/** Brotli quality: 5 compresses pod JSON nearly as well as 11 at a small fraction of the CPU. */
const PACK_QUALITY = 5;

export const PackedObservationsDetailSchema = z.object({
  /** The Job's uid: every observation in the pack carries the same partitionKey. */
  partitionKey: PartitionKeySchema,
  /** `br`: brotli. The only encoding today; named so another can be added without guessing. */
  encoding: z.literal(PACK_ENCODING),
  /** How many observations the pack holds; checked against what it decodes to. */
  count: z.number().int().min(1).max(MAX_PACK_OBSERVATIONS),
  /** Base64 of the brotli-compressed JSON array `[{ "detail-type", "detail" }, ...]`. */
  observations: z.string().min(1),
});
export type PackedObservationsDetail = z.infer<typeof PackedObservationsDetailSchema>;

/** One observation as the forwarder packs it: its detail-type and its detail's JSON text. */
export interface PackMember {
  readonly detailType: string;
  readonly detail: string;
}

/** The uncompressed JSON text of a pack's members (built from their text, never re-serialised). */
export function packText(members: readonly PackMember[]): string {
  return `[${members.map((m) => `{"detail-type":${JSON.stringify(m.detailType)},"detail":${m.detail}}`).join(',')}]`;
}

/** A pack's detail as JSON text (what goes in the PutEvents entry's Detail). */
export function encodePack(partitionKey: string, members: readonly PackMember[]): string {
  const text = Buffer.from(packText(members), 'utf8');
  const compressed = brotliCompressSync(text, {
    params: { [constants.BROTLI_PARAM_QUALITY]: PACK_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  });
  const detail: PackedObservationsDetail = { partitionKey, encoding: PACK_ENCODING, count: members.length, observations: compressed.toString('base64') };
  return JSON.stringify(detail);
}

/** A problem with a pack as a whole, naming the field. */
export interface PackError {
  readonly path: string;
  readonly message: string;
}

export type DecodedPack =
  | { readonly ok: true; readonly partitionKey: string; readonly items: readonly unknown[]; readonly decodedBytes: number }
  | { readonly ok: false; readonly errors: readonly PackError[] };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes a pack's detail into its items, unchecked; never throws. */
export function decodePack(detail: unknown): DecodedPack {
  const parsed = PackedObservationsDetailSchema.safeParse(detail);
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.slice(0, 20).map((i) => ({ path: ['detail', ...i.path.map(String)].join('.'), message: i.message })) };
  }
  const { partitionKey, count, observations } = parsed.data;
  const fail = (path: string, message: string): DecodedPack => ({ ok: false, errors: [{ path: `detail.${path}`, message }] });
  if (observations.length % 4 !== 0 || !BASE64.test(observations)) return fail('observations', 'is not base64 (RFC 4648, with padding)');
  let inflated: Buffer;
  try {
    inflated = brotliDecompressSync(Buffer.from(observations, 'base64'), { maxOutputLength: MAX_PACK_DECODED_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      return fail('observations', `decompresses to more than ${MAX_PACK_DECODED_BYTES} bytes, the limit of a pack; refused without inflating it`);
    }
    return fail('observations', `is not brotli-compressed data (${(error as Error).message})`);
  }
  let items: unknown;
  try {
    items = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated));
  } catch (error) {
    return fail('observations', `does not decompress to JSON text in UTF-8 (${(error as Error).message})`);
  }
  if (!Array.isArray(items)) return fail('observations', 'must decompress to a JSON array of { "detail-type", "detail" }');
  if (items.length !== count) return fail('count', `is ${count}, but the pack holds ${items.length} observations`);
  return { ok: true, partitionKey, items, decodedBytes: inflated.length };
}
