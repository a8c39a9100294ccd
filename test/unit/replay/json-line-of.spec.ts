import { describe, expect, it } from 'vitest';
import { lineOfPath } from '../../../cli/replay/json-line-of.ts';

const text = JSON.stringify({ id: 'x', events: [{ at: 'a', pod: { metadata: { name: 'p', note: 'a "quoted" } ]' } } }, { at: 'b' }] }, null, 2);
const lineOf = (needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

describe('lineOfPath', () => {
  it('finds the line a value starts on', () => {
    expect(lineOfPath(text, ['id'])).toBe(lineOf('"id"'));
    expect(lineOfPath(text, ['events', 1, 'at'])).toBe(lineOf('"at": "b"'));
    expect(lineOfPath(text, ['events', 0, 'pod', 'metadata', 'name'])).toBe(lineOf('"name"'));
  });

  it('skips strings holding brackets and quotes', () => {
    expect(lineOfPath(text, ['events', 1])).toBe(lineOf('"at": "b"') - 1);
  });

  it('falls back to the deepest existing ancestor for a missing field', () => {
    expect(lineOfPath(text, ['events', 0, 'pod', 'metadata', 'uid'])).toBe(lineOf('"metadata"'));
    expect(lineOfPath(text, ['events', 7])).toBe(lineOf('"events"'));
  });
});
