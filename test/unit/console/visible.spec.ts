import { describe, expect, it } from 'vitest';
import { visible } from '../../../console/src/visible.ts';
import { indexStates, countStates, ACTIVE, FAILED, PENDING, SUCCEEDED, TERMINATING } from '../../../console/src/parts/index-states.ts';

// The console's two pure pieces: how text from clusters is shown, and how the index grid reads
// the API's interval lists.

describe('visible', () => {
  it('writes control, bidi and invisible characters as \\uXXXX and leaves other text alone', () => {
    expect(visible('job\u0007-\u001b[31m')).toBe('job\\u0007-\\u001b[31m');
    expect(visible('a\u202eb\u200bc\u00add')).toBe('a\\u202eb\\u200bc\\u00add');
    expect(visible('line\nbreak\ttab')).toBe('line\\u000abreak\\u0009tab');
    expect(visible('<img src=x>')).toBe('<img src=x>');
    expect(visible('naïve 数据 🚀')).toBe('naïve 数据 🚀');
  });

  it('escapes a lone surrogate but keeps a pair', () => {
    expect(visible('x\ud800y')).toBe('x\\ud800y');
    expect(visible('\ud83d\ude80')).toBe('🚀');
  });

  it('shows nothing for null and undefined', () => {
    expect(visible(undefined)).toBe('');
    expect(visible(null)).toBe('');
  });
});

describe('indexStates', () => {
  it('marks each interval list, failed and succeeded over active and terminating, the rest pending', () => {
    const states = indexStates({
      completions: 10,
      succeeded: '0-2,9', failed: '3', active: '2,4-5', terminating: '5-6',
    });
    expect([...states]).toEqual([SUCCEEDED, SUCCEEDED, SUCCEEDED, FAILED, ACTIVE, TERMINATING, TERMINATING, PENDING, PENDING, SUCCEEDED]);
    expect(countStates(states)).toEqual([2, 1, 2, 4, 1]);
  });

  it('holds 100,000 indexes in one byte each and ignores indexes beyond completions', () => {
    const states = indexStates({ completions: 100_000, succeeded: '0-49999,99999-120000', failed: '', active: '', terminating: '' });
    expect(states.length).toBe(100_000);
    expect(countStates(states)[SUCCEEDED]).toBe(50_001);
  });
});
