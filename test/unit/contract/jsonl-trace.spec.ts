import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatProblem, parseTrace, TraceError, traceLine } from '../../../shared/contract/jsonl-trace.ts';

// The JSONL trace every tool shares: one PutEvents entry a line. Given a trace's text, when it
// is parsed, then each entry keeps its line and its Detail as JSON text, what `traceLine` writes
// reads back the same, and a bad file names every bad line's field, compiler-style.

const entry = { Source: 'jobfold.cluster.c1', DetailType: 'Pod Observed', Detail: '{"eventId":"e1"}' };

describe('parseTrace', () => {
  it('reads back what traceLine writes, with 1-based lines, skipping blank ones', () => {
    const text = `${traceLine(entry)}\n\n${traceLine({ ...entry, Detail: '{"eventId":"e2"}' })}\n`;
    expect(parseTrace('t.jsonl', text)).toEqual([
      { line: 1, ...entry },
      { line: 3, ...entry, Detail: '{"eventId":"e2"}' },
    ]);
  });

  it('takes Detail written as an object, and carries it as JSON text', () => {
    const [parsed] = parseTrace('t.jsonl', JSON.stringify({ ...entry, Detail: { eventId: 'e1' } }));
    expect(parsed?.Detail).toBe('{"eventId":"e1"}');
  });

  it('reads the sample fleet that npm start feeds', () => {
    const text = readFileSync(new URL('../../../samples/fleet.jsonl', import.meta.url), 'utf8');
    const entries = parseTrace('samples/fleet.jsonl', text);
    expect(entries.length).toBe(text.split('\n').filter((l) => l.trim() !== '').length);
    expect(entries.map(traceLine).join('\n') + '\n').toBe(text);
  });

  it('names each bad line and field, FILE:LINE: field: message', () => {
    const text = ['not json', JSON.stringify({ Source: 's', Detail: '{}' }), '[1]'].join('\n');
    expect(() => parseTrace('bad.jsonl', text)).toThrow(TraceError);
    const message = (() => { try { parseTrace('bad.jsonl', text); } catch (e) { return (e as Error).message; } return ''; })().split('\n');
    expect(message[0]).toMatch(/^bad\.jsonl:1: not valid JSON: /);
    expect(message[1]).toBe('bad.jsonl:2: DetailType: missing: each line is a PutEvents entry ("Source", "DetailType", "Detail")');
    expect(message[2]).toBe('bad.jsonl:3: Source: missing: each line is a PutEvents entry ("Source", "DetailType", "Detail")');
  });

  it('reports the first 20 bad lines and counts the rest, so a wrong file stays readable', () => {
    const text = Array.from({ length: 45 }, () => 'x').join('\n');
    expect(() => parseTrace('big.jsonl', text)).toThrow(/^(big\.jsonl:\d+: .*\n){20}big\.jsonl: … and 25 more bad lines$/);
  });

  it('refuses a file with no events', () => {
    expect(() => parseTrace('empty.jsonl', '\n \n')).toThrow('empty.jsonl: no events');
  });
});

describe('formatProblem', () => {
  it('leaves the field out for a problem of the whole line', () => {
    expect(formatProblem('f', { line: 4, path: '', message: 'm' })).toBe('f:4: m');
    expect(formatProblem('f', { line: 4, path: 'Detail.object', message: 'm' })).toBe('f:4: Detail.object: m');
  });
});
