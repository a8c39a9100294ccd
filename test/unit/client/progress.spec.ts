import { describe, expect, it } from 'vitest';
import { progress, progressLine } from '../../../cli/progress.ts';

describe('progress on long work', () => {
  it('shows events/s and ETA on a terminal, at most every interval, and clears the line at the end', () => {
    const written: string[] = [];
    let clock = 0;
    const shown = progress('feeding t.jsonl', 1000, { stream: { isTTY: true, write: (t) => written.push(t) }, now: () => clock, everyMs: 250 });
    clock = 500;
    shown.update(100);
    clock = 600;
    shown.update(120); // within the interval: not drawn
    clock = 1000;
    shown.update(200);
    shown.end();

    expect(written).toEqual([
      '\r\u001b[2Kfeeding t.jsonl: 100/1,000 events  200/s  ETA 5s',
      '\r\u001b[2Kfeeding t.jsonl: 200/1,000 events  200/s  ETA 4s',
      '\r\u001b[2K',
    ]);
  });

  it('prints nothing when stderr is not a terminal', () => {
    const written: string[] = [];
    const shown = progress('replay', 10, { stream: { isTTY: false, write: (t) => written.push(t) } });
    shown.update(5);
    shown.end();

    expect(written).toEqual([]);
  });

  it('says minutes for a long ETA', () => {
    expect(progressLine('bench', 10, 100_000, 1000)).toBe('bench: 10/100,000 events  10/s  ETA 166m39s');
  });
});
