import { describe, expect, it } from 'vitest';
import { formatIndexes, IndexSet, parseIndexes } from '../../../shared/indexes/index-set.ts';

type Interval = [number, number];

const intervalsOf = (set: IndexSet): Interval[] => [...set.intervals()].map(([a, b]) => [a, b]);

describe('toString / formatIndexes', () => {
  it.each<{ name: string; indexes: number[]; want: string }>([
    { name: 'empty set', indexes: [], want: '' },
    { name: 'single index', indexes: [3], want: '3' },
    { name: 'run of two written as two numbers', indexes: [0, 1], want: '0,1' },
    { name: 'run of three written as a range', indexes: [0, 1, 2], want: '0-2' },
    { name: 'ranges and singles', indexes: [1, 3, 4, 5, 7], want: '1,3-5,7' },
    { name: 'pair, then range', indexes: [2, 4, 5, 7, 8, 9], want: '2,4,5,7-9' },
    { name: 'added out of order', indexes: [9, 0, 8, 1, 7], want: '0,1,7-9' },
  ])('writes $name as "$want"', ({ indexes, want }) => {
    const set = IndexSet.of(...indexes);

    expect(set.toString()).toBe(want);
    expect(formatIndexes(set)).toBe(want);
    expect(JSON.stringify({ completedIndexes: set })).toBe(JSON.stringify({ completedIndexes: want }));
  });
});

describe('parseIndexes', () => {
  // Status strings from upstream TestCalculateSucceededIndexes / TestCalculateFailedIndexes
  // (wantStatusIntervals), plus the leniency rules of parseIndexesFromString.
  it.each<{ name: string; text: string; completions: number; want: Interval[] }>([
    { name: 'prev interval out of range', text: '0-5,8-10', completions: 8, want: [[0, 5]] },
    { name: 'prev interval partially out of range', text: '0-5,8-10', completions: 10, want: [[0, 5], [8, 9]] },
    { name: 'prev and new separate', text: '0,4,5,10-12', completions: 13, want: [[0, 0], [4, 5], [10, 12]] },
    { name: 'prev between new', text: '3,4,6', completions: 9, want: [[3, 4], [6, 6]] },
    { name: 'new between prev', text: '2,7,8', completions: 9, want: [[2, 2], [7, 8]] },
    { name: 'new within prev', text: '2-7', completions: 10, want: [[2, 7]] },
    { name: 'corrupted interval', text: '0,1-foo,bar', completions: 4, want: [[0, 0]] },
    { name: 'prev failed indexes empty', text: '', completions: 2, want: [] },
    { name: 'prev failed indexes outside the completions', text: '9', completions: 2, want: [] },
    { name: 'first corrupted intervals skipped', text: 'x,0,2-4,6-8,12-19', completions: 20, want: [[0, 0], [2, 4], [6, 8], [12, 19]] },
    { name: 'end clipped to completions - 1', text: '3-5', completions: 4, want: [[3, 3]] },
    { name: 'stops at the first fragment not below completions', text: '1,5,2', completions: 4, want: [[1, 1]] },
    { name: 'completions 0', text: '0-3', completions: 0, want: [] },
    { name: 'adjacent fragments merged', text: '0,1,2,4-5,6', completions: 10, want: [[0, 2], [4, 6]] },
    { name: 'overlapping fragments merged', text: '1-3,2-8', completions: 10, want: [[1, 8]] },
    { name: 'unordered fragments sorted', text: '5,1', completions: 10, want: [[1, 1], [5, 5]] },
    { name: 'inverted range dropped', text: '5-3,7', completions: 10, want: [[7, 7]] },
    { name: 'parts after a second dash ignored', text: '1-3-9', completions: 10, want: [[1, 3]] },
    { name: 'leading dash unparsable', text: '-1,2', completions: 10, want: [[2, 2]] },
    { name: 'trailing dash unparsable', text: '1-,2', completions: 10, want: [[2, 2]] },
    { name: 'space unparsable', text: '0, 5', completions: 10, want: [[0, 0]] },
    { name: 'plus sign and leading zeros accepted (Go Atoi)', text: '+1,003-+05', completions: 10, want: [[1, 1], [3, 5]] },
    { name: 'empty fragments skipped', text: ',1,,3,', completions: 10, want: [[1, 1], [3, 3]] },
    { name: 'beyond int64 skipped, not a stop', text: '99999999999999999999,1', completions: 5, want: [[1, 1]] },
    { name: 'int64 max parsed, so it stops', text: '9223372036854775807,1', completions: 5, want: [] },
  ])('reads "$text" with completions $completions: $name', ({ text, completions, want }) => {
    expect(intervalsOf(parseIndexes(text, completions))).toEqual(want);
  });

  it.each([Number.NaN, -1, 2.5, Number.POSITIVE_INFINITY])('never throws, even with completions %s', (completions) => {
    expect(() => parseIndexes('1,3-9,9007199254740993', completions)).not.toThrow();
  });

  it('round-trips a 64 KiB list', () => {
    const parts: string[] = [];
    for (let index = 0; parts.join(',').length < 65_000; index += 4) {
      parts.push(index % 3 === 0 ? `${index}-${index + 2}` : `${index}`);
    }
    const text = parts.join(',');

    expect(parseIndexes(text, 1_000_000).toString()).toBe(text);
  });
});

describe('add', () => {
  // Upstream TestCalculateSucceededIndexes: the stored string, then the newly succeeded
  // indexes (already filtered to valid ones below completions) added one by one.
  it.each<{ name: string; prev: string; completions: number; added: number[]; want: Interval[] }>([
    { name: 'one index', prev: '', completions: 2, added: [1], want: [[1, 1]] },
    { name: 'two separate', prev: '', completions: 11, added: [5, 5, 10], want: [[5, 5], [10, 10]] },
    { name: 'two intervals', prev: '', completions: 8, added: [2, 3, 5, 6, 7], want: [[2, 3], [5, 7]] },
    { name: 'one index and one interval', prev: '', completions: 6, added: [0, 2, 3, 4, 5], want: [[0, 0], [2, 5]] },
    { name: 'out of range', prev: '', completions: 5, added: [0, 1, 2, 4], want: [[0, 2], [4, 4]] },
    { name: 'prev and new separate', prev: '0,4,5,10-12', completions: 13, added: [2, 7, 8], want: [[0, 0], [2, 2], [4, 5], [7, 8], [10, 12]] },
    { name: 'prev between new', prev: '3,4,6', completions: 9, added: [2, 7, 8], want: [[2, 4], [6, 8]] },
    { name: 'new between prev', prev: '2,7,8', completions: 9, added: [3, 4, 6], want: [[2, 4], [6, 8]] },
    { name: 'new within prev', prev: '2-7', completions: 10, added: [0, 3, 5, 9], want: [[0, 0], [2, 7], [9, 9]] },
    { name: 'corrupted interval', prev: '0,1-foo,bar', completions: 4, added: [3], want: [[0, 0], [3, 3]] },
  ])('merges $added into "$prev": $name', ({ prev, completions, added, want }) => {
    const set = parseIndexes(prev, completions);

    for (const index of added) set.add(index);

    expect(intervalsOf(set)).toEqual(want);
    expect(set.size).toBe(want.reduce((total, [first, last]) => total + last - first + 1, 0));
  });

  it('returns true for a new index and false for one already present', () => {
    const set = IndexSet.fromIntervals([[2, 4]]);

    expect(set.add(5)).toBe(true);
    expect(set.add(3)).toBe(false);
    expect(set.add(5)).toBe(false);
    expect(set.size).toBe(4);
  });

  it('closes a gap into one interval', () => {
    const set = IndexSet.of(0, 2);

    set.add(1);

    expect(set.intervalCount).toBe(1);
    expect(set.toString()).toBe('0-2');
  });

  it('keeps has and size exact while many gap-opening adds are pending', () => {
    const set = IndexSet.empty();
    const evens = range(0, 199).map((i) => i * 2);

    for (const index of evens) set.add(index);

    expect(set.size).toBe(200);
    expect(set.has(198)).toBe(true);
    expect(set.has(199)).toBe(false);
    expect(set.intervalCount).toBe(200);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects %s with a RangeError', (bad) => {
    expect(() => IndexSet.empty().add(bad)).toThrow(RangeError);
  });
});

describe('addRange', () => {
  it.each<{ name: string; start: Interval[]; range: Interval; want: Interval[]; wantNew: number }>([
    { name: 'into an empty set', start: [], range: [3, 5], want: [[3, 5]], wantNew: 3 },
    { name: 'after everything', start: [[0, 1]], range: [5, 6], want: [[0, 1], [5, 6]], wantNew: 2 },
    { name: 'touching on both sides', start: [[0, 1], [5, 6]], range: [2, 4], want: [[0, 6]], wantNew: 3 },
    { name: 'swallowing several intervals', start: [[1, 1], [3, 3], [5, 5], [9, 9]], range: [0, 6], want: [[0, 6], [9, 9]], wantNew: 4 },
    { name: 'inside an interval', start: [[0, 9]], range: [3, 4], want: [[0, 9]], wantNew: 0 },
    { name: 'in a gap', start: [[0, 1], [8, 9]], range: [4, 5], want: [[0, 1], [4, 5], [8, 9]], wantNew: 2 },
  ])('adds $range $name', ({ start, range: [first, last], want, wantNew }) => {
    const set = IndexSet.fromIntervals(start);

    expect(set.addRange(first, last)).toBe(wantNew);
    expect(intervalsOf(set)).toEqual(want);
  });
});

describe('has', () => {
  // Upstream TestIntervalsHaveIndex.
  it.each<{ name: string; intervals: Interval[]; index: number; wantHas: boolean }>([
    { name: 'empty', intervals: [], index: 4, wantHas: false },
    { name: 'before all', intervals: [[2, 4], [5, 7]], index: 1, wantHas: false },
    { name: 'after all', intervals: [[2, 4], [6, 8]], index: 9, wantHas: false },
    { name: 'in between', intervals: [[2, 4], [6, 8]], index: 5, wantHas: false },
    { name: 'in first', intervals: [[2, 4], [6, 8]], index: 2, wantHas: true },
    { name: 'in second', intervals: [[2, 4], [6, 8]], index: 8, wantHas: true },
  ])('answers $wantHas for $index: $name', ({ intervals, index, wantHas }) => {
    expect(IndexSet.fromIntervals(intervals).has(index)).toBe(wantHas);
  });
});

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
