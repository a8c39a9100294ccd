import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTime, parseTime } from '../../../shared/k8s/time.ts';

// parseTime reads the API server's RFC 3339 form itself (faster than Date.parse) and remembers
// its last few answers; neither may change what it answers.

const instant = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
/** The forms a cluster writes: `Z` with or without a fraction (to the nanosecond), or an offset. */
const written = fc.tuple(instant, fc.constantFrom('Z', '.000Z', '.5Z', '.123456789Z', '+05:30', '-05:00', '+00:00')).map(([ms, zone]) => {
  const iso = new Date(ms).toISOString().slice(0, 19);
  return `${iso}${zone}`;
});

describe('parseTime', () => {
  it('reads every RFC 3339 form as Date.parse does, to the millisecond', () => {
    fc.assert(fc.property(written, (text) => { expect(parseTime(text)).toBe(Math.floor(Date.parse(text))); }));
  });

  it('answers the same when times come interleaved or repeated', () => {
    const texts = fc.sample(written, { seed: 7, numRuns: 10_000 });
    const first = texts.map((t) => parseTime(t));
    const again = [...texts].reverse().map((t) => parseTime(t)).reverse();
    expect(again).toEqual(first);
    expect(first).toEqual(texts.map((t) => Math.floor(Date.parse(t))));
  });

  it('answers each time its own instant when a few times recur in any order (hits and misses of every remembered one)', () => {
    const pools = fc.array(written, { minLength: 2, maxLength: 7 });
    fc.assert(fc.property(pools, fc.array(fc.nat(6), { minLength: 1, maxLength: 60 }), (pool, picks) => {
      for (const pick of picks) {
        const text = pool[pick % pool.length] as string;
        expect(parseTime(text)).toBe(Math.floor(Date.parse(text)));
      }
    }));
  });

  it('round-trips formatTime', () => {
    fc.assert(fc.property(instant, (ms) => { expect(parseTime(formatTime(ms))).toBe(ms); }));
  });
});
