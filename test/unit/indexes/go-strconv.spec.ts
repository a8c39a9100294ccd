import { describe, expect, it } from 'vitest';
import { parseGoInt, quoteGo } from '../../../shared/indexes/go-strconv.ts';

describe('parseGoInt', () => {
  it.each<{ text: string; want: number | undefined }>([
    { text: '0', want: 0 },
    { text: '42', want: 42 },
    { text: '+42', want: 42 },
    { text: '-42', want: -42 },
    { text: '007', want: 7 },
    { text: '9223372036854775807', want: 9223372036854775807 },
    { text: '-9223372036854775808', want: -9223372036854775808 },
    { text: '000000000000000000000000001', want: 1 },
    { text: '9223372036854775808', want: undefined },
    { text: '-9223372036854775809', want: undefined },
    { text: '12345678901234567890', want: undefined },
    { text: '', want: undefined },
    { text: '+', want: undefined },
    { text: '-', want: undefined },
    { text: ' 1', want: undefined },
    { text: '1 ', want: undefined },
    { text: '1_000', want: undefined },
    { text: '0x10', want: undefined },
    { text: '1.0', want: undefined },
    { text: '١', want: undefined },
  ])('parses "$text" as Go strconv.Atoi does: $want', ({ text, want }) => {
    expect(parseGoInt(text)).toBe(want);
  });

  it('reads only the given range of a longer string', () => {
    expect(parseGoInt('0,17-3', 2, 4)).toBe(17);
  });
});

describe('quoteGo', () => {
  it.each<{ text: string; want: string }>([
    { text: '', want: '""' },
    { text: 'invalid', want: '"invalid"' },
    { text: ' 5', want: '" 5"' },
    { text: 'a"b\\c', want: '"a\\"b\\\\c"' },
    { text: '\t\n\r\x07\b\f\v', want: '"\\t\\n\\r\\a\\b\\f\\v"' },
    { text: '\x00\x1f\x7f', want: '"\\x00\\x1f\\x7f"' },
    { text: '\u00a0\u200b', want: '"\\u00a0\\u200b"' },
    { text: 'é中😀', want: '"é中😀"' },
    { text: '\u{e0001}', want: '"\\U000e0001"' },
  ])('quotes $text as $want', ({ text, want }) => {
    expect(quoteGo(text)).toBe(want);
  });
});
