import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCommit, jsonBytes, MAX_COMMIT_BYTES, pagedEntryBytes, pagedEntryBytesWith } from '../../../shared/log/event-store-limits.ts';
import { StoreLimitError, type NewEntry } from '../../../shared/log/event-store.ts';

// A paged commit measures each body once: given any entry, the size derived from its body's
// size is the size of the whole entry as its page stores it, so the commit limit falls exactly
// where it did when every entry was measured whole.

const entry = fc.record({
  eventId: fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }),
  type: fc.string({ maxLength: 20 }),
  observedAt: fc.string({ maxLength: 30 }),
  body: fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.constant(null)),
}) as fc.Arbitrary<NewEntry>;

/** The entry as its page stores it (longest seq, a hash), measured whole: UTF-8 bytes of its JSON text. */
const wholeEntryBytes = ({ eventId, type, observedAt, body }: NewEntry, recordedAt: string) =>
  new TextEncoder().encode(JSON.stringify({ eventId, type, observedAt, body, seq: 999_999_999_999, recordedAt, hash: '0'.repeat(64) })).length;

describe('the size a paged commit counts for an entry', () => {
  it('is the size of the whole entry as its page stores it, whether the body was measured first or not', () => {
    fc.assert(fc.property(entry, fc.string({ maxLength: 30 }), (e, recordedAt) => {
      const whole = wholeEntryBytes(e, recordedAt);
      return pagedEntryBytesWith(e, recordedAt, jsonBytes(e.body)) === whole && pagedEntryBytes(e, recordedAt) === whole;
    }), { numRuns: 1000 });
  });

  it('counts a lone surrogate as the 3 bytes encoding makes of it', () => {
    expect(jsonBytes('a\ud800b')).toBe(new TextEncoder().encode(JSON.stringify('a\ud800b')).length);
    expect(jsonBytes({ k: '\udc00😀é' })).toBe(new TextEncoder().encode(JSON.stringify({ k: '\udc00😀é' })).length);
  });

  it('puts the commit limit exactly at MAX_COMMIT_BYTES, with multi-byte characters in the bodies', () => {
    const recordedAt = '2026-01-01T00:00:00.000Z';
    const at = (i: number, bytes: number): NewEntry => ({
      eventId: `e-${i}`, type: 'PodObserved', observedAt: '2026-01-01T00:00:00Z',
      body: { text: 'é'.repeat(Math.floor(bytes / 2)) + 'x'.repeat(bytes % 2) },
    });
    const overhead = pagedEntryBytes(at(0, 0), recordedAt);
    const share = Math.floor((MAX_COMMIT_BYTES - 9 * overhead) / 9);
    const entries = (extra: number) => Array.from({ length: 9 }, (_, i) =>
      at(i, i < 8 ? share : MAX_COMMIT_BYTES - 9 * overhead - 8 * share + extra));
    const commit = (extra: number) => ({ expectedHead: 0, entries: entries(extra), outbox: [], recordedAt });

    expect(entries(0).reduce((sum, e) => sum + pagedEntryBytes(e, recordedAt), 0)).toBe(MAX_COMMIT_BYTES);
    expect(() => checkCommit(commit(0))).not.toThrow();
    expect(() => checkCommit(commit(1))).toThrow(StoreLimitError);
  });
});
