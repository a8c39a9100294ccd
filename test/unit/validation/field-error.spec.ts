import { describe, expect, it } from 'vitest';
import {
  duplicate,
  forbidden,
  invalid,
  invalidWithoutValue,
  notSupported,
  required,
  tooLong,
  tooLongMaxLength,
  tooMany,
} from '../../../shared/job/validation/field-error.ts';
import { formatBadValue, goQuote, goQuoteList, regexError, utf8Length } from '../../../shared/job/validation/go-format.ts';

describe('field error messages', () => {
  it.each([
    ['Invalid with a number', invalid('spec.parallelism', -1, 'must be greater than or equal to 0'), 'spec.parallelism: Invalid value: -1: must be greater than or equal to 0'],
    ['Invalid with a string', invalid('spec.managedBy', 'a b', 'bad'), 'spec.managedBy: Invalid value: "a b": bad'],
    ['Invalid with an unset value', invalid('spec.completionMode', undefined, 'field is immutable'), 'spec.completionMode: Invalid value: "null": field is immutable'],
    ['Invalid with an int32 list', invalid('spec.x.values', [1, 0, 2], 'must be ordered'), 'spec.x.values: Invalid value: []int32{1, 0, 2}: must be ordered'],
    ['Invalid without value', invalidWithoutValue('spec.rules[0]', 'specifying one of OnExitCodes and OnPodConditions is required'), 'spec.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required'],
    ['Required', required('spec.completions', 'when completion mode is Indexed'), 'spec.completions: Required value: when completion mode is Indexed'],
    ['Required without detail', required('spec.managedBy', ''), 'spec.managedBy: Required value'],
    ['Duplicate', duplicate('spec.values[1]', 11), 'spec.values[1]: Duplicate value: 11'],
    ['NotSupported', notSupported('spec.op', 'X', ['In', 'NotIn']), 'spec.op: Unsupported value: "X": supported values: "In", "NotIn"'],
    ['TooMany', tooMany('spec.rules', 21, 20), 'spec.rules: Too many: 21: must have at most 20 items'],
    ['TooLong', tooLong('spec.s', 'x'.repeat(9), 8), 'spec.s: Too long: must have at most 8 bytes'],
    ['TooLongMaxLength', tooLongMaxLength('spec.managedBy', 'x'.repeat(64), 63), 'spec.managedBy: Too long: may not be longer than 63'],
    ['Forbidden', forbidden('spec.x', 'not allowed'), 'spec.x: Forbidden: not allowed'],
  ])('%s prints upstream’s text', (_name, error, message) => {
    expect(error.message).toBe(message);
  });

  it('keeps the bad value of a value-printing error and drops it for Required', () => {
    expect(invalid('spec.parallelism', -1, 'd').badValue).toBe(-1);
    expect('badValue' in required('spec.completions', 'd')).toBe(false);
    expect(tooLong('spec.s', 'long', 2).badValue).toBe('long');
  });
});

describe('Go formatting', () => {
  it.each([
    ['plain', 'abc', '"abc"'],
    ['empty', '', '""'],
    ['quote and backslash', 'a"b\\c', '"a\\"b\\\\c"'],
    ['control characters', '\n\t\x07\x01', '"\\n\\t\\a\\x01"'],
    ['printable unicode', 'héllo✓', '"héllo✓"'],
    ['non-printable unicode', '\u00a0\u200b', '"\\u00a0\\u200b"'],
  ])('quotes %s strings like %%q', (_name, text, quoted) => {
    expect(goQuote(text)).toBe(quoted);
  });

  it('quotes a string list like %q of a []string', () => {
    expect(goQuoteList(['In', 'NotIn'])).toBe('["In" "NotIn"]');
  });

  it('renders a regex error with upstream’s doubled spaces', () => {
    expect(regexError('msg', 're', 'a', 'b')).toBe("msg (e.g. 'a',  or 'b', regex used for validation is 're')");
    expect(regexError('msg', 're')).toBe("msg (regex used for validation is 're')");
  });

  it('renders booleans and objects', () => {
    expect(formatBadValue(true)).toBe('true');
    expect(formatBadValue({ rules: [] })).toBe('{"rules":[]}');
  });

  it('counts UTF-8 bytes like Go’s len', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('✓')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
  });
});
