import { describe, expect, it } from 'vitest';
import { activeDeadlineAt, pastActiveDeadline } from '../../../shared/policies/active-deadline.ts';

const START = 1_000_000;

describe('pastActiveDeadline', () => {
  it.each([
    { name: 'no deadline', activeDeadlineSeconds: undefined, startTime: START, suspended: false, elapsed: 1e9, want: false },
    { name: 'not started', activeDeadlineSeconds: 10, startTime: undefined, suspended: false, elapsed: 1e9, want: false },
    { name: 'suspended', activeDeadlineSeconds: 10, startTime: START, suspended: true, elapsed: 1e9, want: false },
    { name: 'before the deadline', activeDeadlineSeconds: 10, startTime: START, suspended: false, elapsed: 9_999, want: false },
    { name: 'exactly at the deadline', activeDeadlineSeconds: 10, startTime: START, suspended: false, elapsed: 10_000, want: true },
    { name: 'deadline 0 passes at once', activeDeadlineSeconds: 0, startTime: START, suspended: false, elapsed: 0, want: true },
  ])('$name', ({ activeDeadlineSeconds, startTime, suspended, elapsed, want }) => {
    expect(pastActiveDeadline({ activeDeadlineSeconds, startTime, suspended, now: START + elapsed })).toBe(want);
  });
});

describe('activeDeadlineAt', () => {
  it('is startTime plus the deadline, and unknown without either', () => {
    expect(activeDeadlineAt(10, START)).toBe(START + 10_000);
    expect(activeDeadlineAt(undefined, START)).toBeUndefined();
    expect(activeDeadlineAt(10, undefined)).toBeUndefined();
  });
});
