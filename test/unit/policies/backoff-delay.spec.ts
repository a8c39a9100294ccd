import { describe, expect, it } from 'vitest';
import { remainingBackoffMs } from '../../../shared/policies/backoff-delay.ts';

const NOW = 1_000_000_000;
const s = (seconds: number) => seconds * 1000;

describe('remainingBackoffMs', () => {
  it.each([
    { name: 'no failure', failures: 0, agoSeconds: 0, wantSeconds: 0 },
    { name: 'one failure just now waits 10 s', failures: 1, agoSeconds: 0, wantSeconds: 10 },
    { name: 'one failure 4 s ago waits 6 s more', failures: 1, agoSeconds: 4, wantSeconds: 6 },
    { name: 'one failure exactly 10 s ago waits no more', failures: 1, agoSeconds: 10, wantSeconds: 0 },
    { name: 'two failures double the delay', failures: 2, agoSeconds: 0, wantSeconds: 20 },
    { name: 'three failures', failures: 3, agoSeconds: 0, wantSeconds: 40 },
    { name: 'six failures', failures: 6, agoSeconds: 0, wantSeconds: 320 },
    { name: 'seven failures reach the 10 minute cap', failures: 7, agoSeconds: 0, wantSeconds: 600 },
    { name: 'a hundred failures stay at the cap', failures: 100, agoSeconds: 0, wantSeconds: 600 },
    { name: 'a failure long ago waits no more', failures: 5, agoSeconds: 3600, wantSeconds: 0 },
  ])('$name', ({ failures, agoSeconds, wantSeconds }) => {
    expect(remainingBackoffMs(failures, NOW - s(agoSeconds), NOW)).toBe(s(wantSeconds));
  });

  it('waits for nothing without a known failure time', () => {
    expect(remainingBackoffMs(3, undefined, NOW)).toBe(0);
  });
});
