import { createHash } from 'node:crypto';
import { brotliCompressSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decompress } from '../../../functions/adapters/item-codec.ts';
import type { Item } from '../../../functions/adapters/metered-table.ts';
import { itemLastHash, logItemEntries, PAGE_FORM, PAGE_MAX_BYTES, pageItems } from '../../../functions/adapters/log-page-codec.ts';
import { itemBytes } from '../../../functions/adapters/metered-table.ts';
import { ATTR } from '../../../functions/adapters/table-layout.ts';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import { auditEntry } from '../../../shared/audit/audit-format.ts';
import { verifyEntryChain } from '../../../shared/audit/verify-chain.ts';
import { chainEntries, GENESIS_HASH } from '../../../shared/log/hash-chain.ts';

// A log page stores its entries without their chain hashes (they do not compress), and what
// anchors them: the hash it chains on from (ph), each entry's first 4 hash bytes (ht) and the
// last entry's hash (lh). Readers get every hash back; a changed entry is still named by verify.

const PK = 'Job#c1#default#uid-1';
const entry = (seq: number): Omit<LogEntry, 'hash'> => ({
  seq, eventId: `e${seq}`, type: 'PodObserved', observedAt: `2026-01-01T00:00:${String(seq % 60).padStart(2, '0')}Z`,
  recordedAt: '2026-01-01T00:01:00Z', body: { pod: { metadata: { name: `p${seq}`, uid: `u${seq}` } }, phase: 'Running' },
});
/** Entries first…last chained from the start of the log (the chain's hashes as the store writes them). */
const chained = (count: number): LogEntry[] => chainEntries(GENESIS_HASH, Array.from({ length: count }, (_, i) => entry(i + 1)));
const pageJson = (item: Item): Array<Record<string, unknown>> => JSON.parse(decompress(item[ATTR.data]!.B!).toString('utf8'));
const plain = (entries: readonly LogEntry[]) => entries.map((e) => ({ ...e }));

describe('log pages (functions/adapters/log-page-codec.ts)', () => {
  it('stores no chain hash in the compressed entries, and reads every one back', () => {
    const log = chained(40);
    const [page, ...more] = pageItems(PK, log.slice(10), { prevHash: log[9]!.hash });
    expect(more).toEqual([]);
    expect(pageJson(page!).some((e) => 'hash' in e)).toBe(false);
    expect(page![ATTR.prevHash]).toEqual({ S: log[9]!.hash });
    expect(page![ATTR.hashTags]!.B).toHaveLength(30 * 4);
    expect(itemLastHash(page!)).toBe(log[39]!.hash);
    expect(plain(logItemEntries(page!))).toEqual(log.slice(10));
  });

  it('chains each page of a split commit on from the one before it', () => {
    const big = chainEntries(GENESIS_HASH, Array.from({ length: 80 }, (_, i) => ({ ...entry(i + 1), body: { noise: randomText(12_000, i) } })));
    const pages = pageItems(PK, big, { prevHash: GENESIS_HASH });
    expect(pages.length).toBeGreaterThan(1);
    expect(plain(pages.flatMap(logItemEntries))).toEqual(big);
    expect(verifyEntryChain(pages.flatMap(logItemEntries).map(auditEntry))).toEqual([]);
  });

  it('refuses chained entries without the hash they chain on from', () => {
    expect(() => pageItems(PK, chained(3))).toThrow(/chain on from/);
  });

  it('names an entry changed inside a page, and the page whose last hash no longer follows', () => {
    const log = chained(12);
    const tampered = log.map((e) => (e.seq === 5 ? { ...e, observedAt: '2020-01-01T00:00:00Z' } : e));
    const [page] = pageItems(PK, tampered, { prevHash: GENESIS_HASH });
    const findings = verifyEntryChain(logItemEntries(page!).map(auditEntry));
    expect(findings.map((f) => `${f.kind}@${f.seq}`)).toEqual(['changed@5', 'changed@12']);
  });

  it('names the first entry when the hash a page chains on from was changed', () => {
    const log = chained(8);
    const [first] = pageItems(PK, log.slice(0, 4), { prevHash: GENESIS_HASH });
    const [second] = pageItems(PK, log.slice(4), { prevHash: log[3]!.hash });
    const forged = { ...second!, [ATTR.prevHash]: { S: 'f'.repeat(64) } };
    const findings = verifyEntryChain([...logItemEntries(first!), ...logItemEntries(forged)].map(auditEntry));
    expect(findings.map((f) => `${f.kind}@${f.seq}`)).toContain('changed@5');
  });

  it('reads a page written before pages left their hashes out (each hash in the JSON) as it is', () => {
    const log = chained(5);
    const older: Item = {
      ...pageItems(PK, log, { prevHash: GENESIS_HASH })[0]!,
      [ATTR.data]: { B: brotliCompressSync(Buffer.from(JSON.stringify(log))) },
    };
    delete older[ATTR.prevHash];
    delete older[ATTR.hashTags];
    delete older[ATTR.pageForm];
    expect(logItemEntries(older)).toEqual(log);
  });
});

// Page form 2 stores what a page derives as placeholders in place: each seq as 0, an eventId its
// body repeats as 0, a pod's body.sequence.jobSeq as the difference from the one before it in the
// page. Same log, same entries: every page reads back key for key what was written, in form 2 or,
// where a placeholder could be ambiguous, in form 1.
describe('log page form 2 (placeholders for seq, a repeated eventId, jobSeq as a difference)', () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  /** A pod event as the writer logs it: eventId in the entry and its body, the forwarder's stamp between the pod and arrivedAt. */
  const podEvent = (seq: number, jobSeq: number | undefined, options: { sequenceFirst?: boolean; ownId?: boolean } = {}): Omit<LogEntry, 'hash'> => {
    const eventId = `0b6f3c2e-8d1a-4f7e-9a55-${String(seq).padStart(12, '0')}/${1000 + seq}`;
    const sequence = { epoch: 1_795_945_114_362, seq: 1 + (seq % 3), ...(jobSeq === undefined ? {} : { jobSeq }) };
    const pod = { metadata: { name: `p-${seq}`, uid: eventId.slice(0, 36) }, status: { phase: 'Running' } };
    const body = options.sequenceFirst
      ? { type: 'PodObserved', sequence, eventId, clusterId: 'c1', pod, arrivedAt: '2026-01-01T00:00:01Z' }
      : { type: 'PodObserved', eventId, clusterId: 'c1', observedAt: '2026-01-01T00:00:00Z', pod, sequence, arrivedAt: '2026-01-01T00:00:01Z' };
    return { eventId: options.ownId ? `other-${seq}` : eventId, type: 'PodObserved', observedAt: '2026-01-01T00:00:00Z', body, seq, recordedAt: '2026-01-01T00:00:02Z' };
  };
  /** What a reader must give back: the entries as written, key for key (JSON text, so key order counts). */
  const text = (entries: readonly object[]) => JSON.stringify(entries.map((e) => plain([e as LogEntry])[0]));
  const readBack = (items: Item[]) => items.flatMap(logItemEntries);

  /** jobSeq runs as a Job's pod events carry them: consecutive, with gaps, absent (older forwarders), at the schema's extremes, going back (a new epoch). */
  const jobSeqs = fc.array(
    fc.oneof(
      fc.constant<'next'>('next'),
      fc.integer({ min: 2, max: 1_000 }).map((gap) => ({ gap })),
      fc.constant(undefined),
      fc.constantFrom(1, 2, MAX - 1, MAX),
      fc.integer({ min: 1, max: MAX }),
    ),
    { minLength: 1, maxLength: 60 },
  ).map((steps) => {
    let last = 0;
    return steps.map((step) => {
      if (step === undefined) return undefined;
      const value = step === 'next' ? last + 1 : typeof step === 'number' ? step : last + step.gap;
      last = Math.min(value, MAX);
      return last;
    });
  });

  it('reads back exactly what was written, in form 2, over jobSeq runs, gaps, absent jobSeqs and the extremes', () => {
    fc.assert(fc.property(jobSeqs, fc.integer({ min: 1, max: 1_000_000 }), fc.boolean(), fc.boolean(), (seqs, first, sequenceFirst, ownId) => {
      const written = chainEntries(GENESIS_HASH, seqs.map((jobSeq, i) => podEvent(first + i, jobSeq, { sequenceFirst: sequenceFirst && i % 2 === 0, ownId: ownId && i % 3 === 0 })));
      const items = pageItems(PK, written, { prevHash: GENESIS_HASH });
      expect(items.map((item) => item[ATTR.pageForm])).toEqual(items.map(() => ({ N: String(PAGE_FORM) })));
      const read = readBack(items);
      expect(text(read)).toBe(text(written));
      // With their hashes: computed from what was read and checked against the tags written, so an
      // entry read back otherwise would get a hash that chains from nothing.
      expect(plain(read)).toEqual(written);
    }));
  });

  it('stores a run of consecutive jobSeqs as 1s, every seq as 0, and an eventId its body repeats once', () => {
    const written = [40, 41, 42, 44].map((jobSeq, i) => podEvent(7 + i, jobSeq));
    const [page] = pageItems(PK, written as LogEntry[]);
    const stored = pageJson(page!);
    expect(stored.map((e) => (e['body'] as { sequence: { jobSeq: number } }).sequence.jobSeq)).toEqual([40, 1, 1, 2]);
    expect(stored.map((e) => e['seq'])).toEqual([0, 0, 0, 0]);
    expect(stored.map((e) => e['eventId'])).toEqual([0, 0, 0, 0]);
    expect(stored.map((e) => (e['body'] as { eventId: string }).eventId)).toEqual(written.map((e) => e.eventId));
    expect(text(logItemEntries(page!))).toBe(text(written));
  });

  it('reads back any JSON body exactly, writing form 1 where a placeholder could be ambiguous', () => {
    const jobSeq = fc.oneof(fc.jsonValue(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, MAX, MAX + 1, -MAX, 2 ** 60, 1.5));
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ eventId: fc.oneof(fc.string(), fc.jsonValue(), fc.constant(0)), sequence: fc.oneof(fc.jsonValue(), fc.record({ jobSeq })), rest: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({ rest: fc.jsonValue(), sequence: fc.record({ epoch: fc.nat(), jobSeq }), last: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
    );
    const entryOf = fc.record({ eventId: fc.oneof(fc.string({ minLength: 1 }), fc.constant(0)), body, sameId: fc.boolean() });
    fc.assert(fc.property(fc.array(entryOf, { minLength: 1, maxLength: 12 }), (drawn) => {
      const written = chainEntries(GENESIS_HASH, drawn.map(({ eventId, body: b, sameId }, i) => {
        const id = sameId && typeof b === 'object' && b !== null && !Array.isArray(b) && typeof (b as { eventId?: unknown }).eventId === 'string' ? (b as { eventId: string }).eventId : eventId;
        return { seq: i + 1, eventId: id as string, type: 'T', observedAt: 'o', recordedAt: 'r', body: b };
      }));
      const read = readBack(pageItems(PK, written, { prevHash: GENESIS_HASH }));
      // The oracle is form 1: the entries' JSON text (which has no -0, as no stored page has).
      expect(text(read)).toBe(text(written));
      expect(verifyEntryChain(read.map(auditEntry))).toEqual([]);
    }), { numRuns: 500 });
  });

  it('writes form 1 when a jobSeq or its difference is not a safe integer, or an eventId is the number 0', () => {
    for (const written of [
      [podEvent(1, 1), podEvent(2, 1.5)],
      [podEvent(1, MAX + 1)],
      [{ ...podEvent(1, 3), eventId: 0 as unknown as string }],
    ]) {
      const [page] = pageItems(PK, written as LogEntry[]);
      expect(page![ATTR.pageForm]).toBeUndefined();
      expect(text(logItemEntries(page!))).toBe(text(written));
    }
  });

  it('an older reader refuses a form 2 page (its seqs read 0), and this one refuses a form it does not know', () => {
    const [page] = pageItems(PK, [podEvent(5, 9), podEvent(6, 10)] as LogEntry[]);
    const older = { ...page! };
    delete older[ATTR.pageForm];
    expect(() => logItemEntries(older)).toThrow(/does not hold seqs 5\.\.6/);
    expect(() => logItemEntries({ ...page!, [ATTR.pageForm]: { N: '3' } })).toThrow(/of form 3, which this version does not read/);
  });

  it('splits a commit of over twice a page into pages within a DynamoDB item, each read alone', () => {
    // Pod events whose pods barely compress: ~1 MB of JSON, ~750 KB compressed, over twice PAGE_MAX_BYTES.
    const written = chainEntries(GENESIS_HASH, Array.from({ length: 120 }, (_, i) => {
      const event = podEvent(i + 1, i + 100);
      return { ...event, body: { ...(event.body as object), noise: randomText(13_000, i) } };
    }));
    const items = pageItems(PK, written, { prevHash: GENESIS_HASH });
    const compressed = items.reduce((n, item) => n + item[ATTR.data]!.B!.byteLength, 0);
    expect(compressed).toBeGreaterThan(2 * PAGE_MAX_BYTES);
    expect(items.length).toBeGreaterThanOrEqual(3);
    for (const item of items) {
      expect(item[ATTR.data]!.B!.byteLength).toBeLessThanOrEqual(PAGE_MAX_BYTES);
      expect(itemBytes(item)).toBeLessThan(400 * 1024);
      expect(item[ATTR.pageForm]).toEqual({ N: String(PAGE_FORM) });
    }
    // Each page's differences start from its own first jobSeq: a page reads alone, from any item.
    for (const item of items) expect(text(logItemEntries(item))).toBe(text(written.filter((e) => e.seq >= Number(item[ATTR.seq]!.N) && e.seq <= Number(item[ATTR.lastSeq]!.N))));
    expect(plain(readBack(items))).toEqual(written);
  });
});

/** Hex text that brotli cannot shrink below half (SHA-256 blocks), so a few entries fill a page. */
function randomText(length: number, seed: number): string {
  let text = '';
  for (let block = 0; text.length < length; block++) text += createHash('sha256').update(`${seed}/${block}`).digest('hex');
  return text.slice(0, length);
}
