import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, canonicalJson, chainEntries, entryHash, verifyChain } from '../../../shared/log/hash-chain.ts';

const entry = (seq: number, body: unknown) => ({
  seq,
  eventId: `e${seq}`,
  type: 'PodObserved',
  observedAt: '2026-01-01T00:00:00Z',
  recordedAt: '2026-01-01T00:00:01Z',
  body,
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined fields, so key order never changes a hash', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it('refuses values that are not JSON data', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/not JSON data/);
    expect(() => canonicalJson(() => 1)).toThrow(/not JSON data/);
  });
});

describe('entryHash', () => {
  it('is SHA-256 over the previous hash and the canonical bytes of the entry without its hash', () => {
    const e = entry(1, { pod: 'p' });
    const expected = createHash('sha256').update(GENESIS_HASH + canonicalJson(e)).digest('hex');
    expect(entryHash(GENESIS_HASH, e)).toBe(expected);
    expect(entryHash(GENESIS_HASH, { ...e, hash: 'ignored' })).toBe(expected);
  });

  it('changes when the previous hash or any byte of the entry changes', () => {
    const e = entry(1, { pod: 'p' });
    expect(entryHash('1'.repeat(64), e)).not.toBe(entryHash(GENESIS_HASH, e));
    expect(entryHash(GENESIS_HASH, entry(1, { pod: 'q' }))).not.toBe(entryHash(GENESIS_HASH, e));
  });

  it('refuses a previous hash that is not 64 lowercase hex characters', () => {
    expect(() => entryHash('abc', entry(1, {}))).toThrow(/prevHash/);
  });
});

describe('chainEntries and verifyChain', () => {
  const chained = chainEntries(GENESIS_HASH, [entry(1, { a: 1 }), entry(2, { a: 2 }), entry(3, { a: 3 })]);

  it('links each entry to the one before it', () => {
    expect(chained[1]?.hash).toBe(entryHash(chained[0]?.hash ?? '', entry(2, { a: 2 })));
    expect(verifyChain(GENESIS_HASH, chained)).toBeUndefined();
  });

  it('names the first entry whose bytes were changed, dropped or reordered', () => {
    const changed = chained.map((e) => (e.seq === 2 ? { ...e, body: { a: 20 } } : e));
    expect(verifyChain(GENESIS_HASH, changed)?.index).toBe(1);
    expect(verifyChain(GENESIS_HASH, [chained[0], chained[2]] as typeof chained)?.index).toBe(1);
    expect(verifyChain(GENESIS_HASH, [chained[1], chained[0]] as typeof chained)?.index).toBe(0);
  });

  it('continues a chain from a page boundary', () => {
    const tail = chainEntries(chained[2]?.hash ?? '', [entry(4, {})]);
    expect(verifyChain(GENESIS_HASH, [...chained, ...tail])).toBeUndefined();
  });
});
