import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../shared/log/canonical-json.ts';
import { GENESIS_HASH, chainEntries, entryHash, verifyChain } from '../../../shared/log/hash-chain.ts';

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

  it('gives every JSON value the same text as the first implementation, so no stored hash changes', () => {
    // The first implementation (map/filter/join per level), kept as the reference.
    const reference = (value: unknown): string => {
      if (value === null || typeof value !== 'object') return JSON.stringify(value) as string;
      if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : reference(item))).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${reference(record[key])}`).join(',')}}`;
    };
    const withUndefined = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined),
        fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.string({ unit: 'grapheme' }), tie('value'), { maxKeys: 5 })),
    })).value;
    fc.assert(fc.property(fc.jsonValue(), (value) => canonicalJson(value) === reference(value)), { numRuns: 500 });
    fc.assert(fc.property(fc.dictionary(fc.string(), withUndefined), (value) => canonicalJson(value) === reference(value)), { numRuns: 300 });
    expect(canonicalJson({ 10: 'a', 9: 'b', é: [undefined, -0, 1e21] })).toBe('{"10":"a","9":"b","é":[null,0,1e+21]}');
  });

  it('refuses values that are not JSON data', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/not JSON data/);
    expect(() => canonicalJson(() => 1)).toThrow(/not JSON data/);
    expect(() => canonicalJson(undefined)).toThrow(/not JSON data/);
    expect(() => canonicalJson({ a: [Number.POSITIVE_INFINITY] })).toThrow(/not JSON data/);
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
