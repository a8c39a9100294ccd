import { describe, expect, it } from 'vitest';
import { toYaml } from '../../../functions/query/yaml.ts';

// Given plain JSON data, when it is written as YAML, then scalars that YAML would read as
// something else are quoted, and collections nest in block style.

describe('toYaml', () => {
  it('writes mappings, sequences and nested collections in block style', () => {
    expect(toYaml({ a: 1, b: [1, 'two', { c: true, d: null }], e: { f: [] , g: {} }, h: [[1, 2]] })).toBe(
      ['a: 1', 'b:', '  - 1', '  - two', '  - c: true', '    d: null', 'e:', '  f: []', '  g: {}', 'h:', '  - - 1', '    - 2', ''].join('\n'),
    );
  });

  it.each([
    ['3.1.0', '"3.1.0"'],
    ['200', '"200"'],
    ['true', '"true"'],
    ['No', '"No"'],
    ['null', '"null"'],
    ['', '""'],
    ['a: b', '"a: b"'],
    ['a #b', '"a #b"'],
    ['- item', '"- item"'],
    ['*alias', '"*alias"'],
    [' padded', '" padded"'],
    ['line\nbreak', '"line\\nbreak"'],
    ['#/components/schemas/X', '"#/components/schemas/X"'],
    ['em — dash', '"em — dash"'],
  ])('quotes %j', (text, written) => {
    expect(toYaml({ k: text })).toBe(`k: ${written}\n`);
  });

  it.each(['jobs', 'The Job with its full status', '/v1/jobs', '$ref', 'application/json', "The Job's log, paged by seq"])(
    'leaves %j plain',
    (text) => {
      expect(toYaml({ k: text })).toBe(`k: ${text}\n`);
    },
  );

  it('quotes keys that are not plain', () => {
    expect(toYaml({ 200: 'ok', '/v1/jobs/{name}': 1 })).toBe('"200": ok\n/v1/jobs/{name}: 1\n');
  });

  it('refuses what is not JSON data', () => {
    expect(() => toYaml({ n: Number.NaN })).toThrow(TypeError);
    expect(() => toYaml({ u: undefined })).toThrow(TypeError);
  });
});
