import { describe, expect, it } from 'vitest';
import { age, machineOutput, parseOutput, table } from '../../../cli/client/render.ts';

describe('the client output', () => {
  const now = Date.parse('2026-01-10T00:00:00Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it('abbreviates AGE as kubectl does', () => {
    expect([5, 119, 120, 185, 600, 7200, 3 * 3600 + 240, 9 * 3600, 50 * 3600, 9 * 86400, 800 * 86400].map((s) => age(ago(s), now)))
      .toEqual(['5s', '119s', '2m', '3m5s', '10m', '120m', '3h4m', '9h', '2d2h', '9d', '2y70d']);
    expect(age(undefined, now)).toBe('<unknown>');
  });

  it('aligns columns three spaces apart and escapes control characters in every cell', () => {
    expect(table(['NAME', 'REASON'], [['a', 'x'], ['evil\u001b[31m', 'r\nz']])).toBe(
      `NAME${' '.repeat(11)}REASON\na${' '.repeat(14)}x\nevil\\x1b[31m   r\\nz\n`,
    );
  });

  it('prints JSON and YAML for scripts, and refuses an unknown -o', () => {
    expect(machineOutput({ items: [{ name: 'a' }] }, 'json')).toBe('{\n  "items": [\n    {\n      "name": "a"\n    }\n  ]\n}\n');
    expect(machineOutput({ items: [{ name: 'a' }] }, 'yaml')).toBe('items:\n  - name: a\n');
    expect(() => parseOutput('xml', ['table', 'json'])).toThrow('-o: unknown output format "xml" (one of json)');
  });
});
