import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, measure, measureWithPaths } from '../../../shared/contract/measure.ts';

// Every inbound observation is measured (size, depth, forbidden keys, ill-formed strings) before
// zod reads it. The measure skips building paths unless it finds something to name; given any
// JSON value, hostile ones included, it says exactly what the walk that names every path says.

const loneSurrogate = fc.constantFrom('\ud800', '\udfff', 'a\udc00b', '\ud83d');
const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constant('__proto__'), loneSurrogate);
const text = fc.oneof(fc.string({ maxLength: 20, unit: 'grapheme' }), loneSurrogate);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text, fc.integer(), fc.boolean(), fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    // Built as JSON.parse builds it: "__proto__" as an own key.
    fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((pairs) => JSON.parse(`{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}`).join(',')}}`)),
  ),
}));

const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: [nested(depth - 1)] });

describe('measuring an inbound event without naming paths', () => {
  it('gives the same size, depth, forbidden key and ill-formed path as the walk that names them', () => {
    fc.assert(fc.property(value, (v) => {
      expect(measure(v)).toEqual(measureWithPaths(v));
    }), { numRuns: 2000 });
  });

  it('stops at the same place on a value nested past the limit', () => {
    const deep = nested(MAX_JSON_DEPTH);
    expect(measure(deep)).toEqual(measureWithPaths(deep));
    expect(measure(deep).depth).toBeGreaterThan(MAX_JSON_DEPTH);
  });

  it('names a forbidden key and a lone surrogate where they are', () => {
    expect(measure(JSON.parse('{"detail":{"object":{"__proto__":{}}}}')).forbiddenKey).toBe('detail.object.__proto__');
    expect(measure({ detail: { list: ['ok', 'bad\ud800'] } }).illFormed).toEqual({ path: 'detail.list[1]', in: 'the value' });
  });
});
