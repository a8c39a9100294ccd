import { describe, expect, it } from 'vitest';
import { validateIndexesFormat } from '../../../shared/indexes/index-set.ts';

// Upstream TestValidateIndexesString, plus strconv.Atoi edge cases.
describe('validateIndexesFormat', () => {
  it.each([
    ['empty is valid', '', 6, 0],
    ['single number is valid', '1', 6, 1],
    ['single interval is valid', '1-3', 6, 3],
    ['mixed intervals valid', '0,1-3,5,7-10', 12, 9],
    ['a plus sign is accepted by Atoi', '+2', 6, 1],
    ['leading zeros are accepted by Atoi', '007', 8, 1],
  ])('%s', (_name, text, completions, total) => {
    expect(validateIndexesFormat(text, completions)).toEqual({ ok: true, total });
  });

  it.each([
    ['invalid due to extra space', '1, 2', 6, 'cannot convert string to integer for index: " 2"'],
    ['invalid due to too large index', '1,3,5', 5, 'too large index: "5"'],
    ['invalid due to non-increasing order of intervals', '1-3,0,5', 6, 'non-increasing order, previous: 3, current: 0'],
    ['invalid due to non-increasing order between intervals', '0,0,5', 6, 'non-increasing order, previous: 0, current: 0'],
    ['invalid due to non-increasing order within interval', '0,1-1,5', 6, 'non-increasing order, previous: 1, current: 1'],
    ['invalid due to repeated interval', '0,,1,3', 6, 'cannot convert string to integer for index: ""'],
    ['invalid due to three parts', '1-2-3', 6, `the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'`],
    ['a negative index is an empty first part', '-1', 6, 'cannot convert string to integer for index: ""'],
    ['too large end of an interval', '1-9', 6, 'too large index: "9"'],
    ['a lone plus sign', '+', 6, 'cannot convert string to integer for index: "+"'],
    ['an int64 overflow', '9223372036854775808', 6, 'cannot convert string to integer for index: "9223372036854775808"'],
    ['int64 max is a number, too large', '9223372036854775807', 6, 'too large index: "9223372036854775807"'],
  ])('%s', (_name, text, completions, message) => {
    expect(validateIndexesFormat(text, completions)).toEqual({ ok: false, message });
  });

  it('checks a 64 KiB list quickly', () => {
    const text = Array.from({ length: 12_000 }, (_, i) => String(i * 2)).join(',').slice(0, 64 * 1024);
    const valid = text.slice(0, text.lastIndexOf(','));

    const started = performance.now();
    const result = validateIndexesFormat(valid, 1_000_000);
    const digitsOnly = validateIndexesFormat('1'.repeat(64 * 1024 + 1), 5);
    const elapsed = performance.now() - started;

    expect(result.ok).toBe(true);
    expect(digitsOnly.ok).toBe(false);
    expect(elapsed).toBeLessThan(200);
  });
});
