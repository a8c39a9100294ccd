import { createHash } from 'node:crypto';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decompress } from '../../../functions/adapters/item-codec.ts';
import type { Item } from '../../../functions/adapters/metered-table.ts';
import { itemLastHash, logItemEntries, pageItems } from '../../../functions/adapters/log-page-codec.ts';
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
    expect(logItemEntries(older)).toEqual(log);
  });
});

/** Hex text that brotli cannot shrink below half (SHA-256 blocks), so a few entries fill a page. */
function randomText(length: number, seed: number): string {
  let text = '';
  for (let block = 0; text.length < length; block++) text += createHash('sha256').update(`${seed}/${block}`).digest('hex');
  return text.slice(0, length);
}
