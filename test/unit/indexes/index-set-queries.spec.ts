import { describe, expect, it } from 'vitest';
import { IndexSet, parseIndexes } from '../../../shared/indexes/index-set.ts';

const set = (text: string): IndexSet => parseIndexes(text, Number.MAX_SAFE_INTEGER);

describe('countWithin', () => {
  it.each<{ name: string; a: string; b: string; want: number }>([
    { name: 'both empty', a: '', b: '', want: 0 },
    { name: 'one empty', a: '0-9', b: '', want: 0 },
    { name: 'disjoint', a: '0-2', b: '3-5', want: 0 },
    { name: 'identical', a: '0-2,7,9-20', b: '0-2,7,9-20', want: 16 },
    { name: 'overlaps spanning several intervals', a: '0-4,10-14', b: '3-11', want: 4 },
    { name: 'singles inside one range', a: '0-100', b: '5,7,9', want: 3 },
    { name: 'success policy: 3 of the rule indexes succeeded', a: '0-2,4', b: '0-3', want: 3 },
    { name: 'interleaved singles', a: '0,2,4,6,8', b: '1,2,3,4,5', want: 2 },
  ])('counts $want shared indexes: $name', ({ a, b, want }) => {
    expect(set(a).countWithin(set(b))).toBe(want);
    expect(set(b).countWithin(set(a))).toBe(want);
  });
});

describe('containsAll', () => {
  it.each<{ name: string; outer: string; inner: string; want: boolean }>([
    { name: 'empty in empty', outer: '', inner: '', want: true },
    { name: 'empty in anything', outer: '3', inner: '', want: true },
    { name: 'anything in empty', outer: '', inner: '3', want: false },
    { name: 'rule indexes all succeeded', outer: '0-5,9', inner: '1-3,9', want: true },
    { name: 'one rule index missing', outer: '0-5,9', inner: '1-3,8', want: false },
    { name: 'range straddling a gap', outer: '0-3,5-8', inner: '2-6', want: false },
    { name: 'range at the end of an interval', outer: '0-3,5-8', inner: '5-8', want: true },
  ])('answers $want: $name', ({ outer, inner, want }) => {
    expect(set(outer).containsAll(set(inner))).toBe(want);
  });
});

describe('union and addAll', () => {
  it('returns a new set with the indexes of both and leaves the inputs alone', () => {
    const a = set('0-2,9');
    const b = set('3,5,9-11');

    const union = IndexSet.union(a, b);

    expect(union.toString()).toBe('0-3,5,9-11');
    expect(union.size).toBe(8);
    expect(a.toString()).toBe('0-2,9');
    expect(b.toString()).toBe('3,5,9-11');
  });

  it('adds in place and keeps size exact', () => {
    const completed = set('0,4,5');

    completed.addAll(set('1-3,5,7'));

    expect(completed.toString()).toBe('0-5,7');
    expect(completed.size).toBe(7);
  });

  it('adding a set to itself changes nothing', () => {
    const completed = set('1,3-5');

    completed.addAll(completed);

    expect(completed.toString()).toBe('1,3-5');
  });
});

describe('firstMissing', () => {
  // Upstream TestFirstPendingIndexes: the set is succeeded ∪ active (∪ failed) indexes.
  it.each<{ name: string; taken: string; cnt: number; completions: number; want: number[] }>([
    { name: 'cnt greater than completions', taken: '', cnt: 5, completions: 3, want: [0, 1, 2] },
    { name: 'cnt less than completions', taken: '', cnt: 2, completions: 5, want: [0, 1] },
    { name: 'first pods active', taken: '0,1', cnt: 3, completions: 10, want: [2, 3, 4] },
    { name: 'last pods active or succeeded', taken: '4-6', cnt: 6, completions: 6, want: [0, 1, 2, 3] },
    { name: 'mixed', taken: '2-5,8,9', cnt: 5, completions: 20, want: [0, 1, 6, 7, 10] },
    { name: 'with failed indexes', taken: '1-3,5-7,9', cnt: 5, completions: 20, want: [0, 4, 8, 10, 11] },
    { name: 'count 0', taken: '', cnt: 0, completions: 20, want: [] },
    { name: 'everything taken', taken: '0-19', cnt: 3, completions: 20, want: [] },
    { name: 'taken indexes beyond the limit', taken: '1,30-40', cnt: 5, completions: 4, want: [0, 2, 3] },
  ])('picks $want: $name', ({ taken, cnt, completions, want }) => {
    expect(set(taken).firstMissing(cnt, completions)).toEqual(want);
  });

  it('leaves out indexes the skip predicate holds back', () => {
    const terminating = new Set([2, 3]);

    const picked = set('0').firstMissing(3, 10, (index) => terminating.has(index));

    expect(picked).toEqual([1, 4, 5]);
  });

  it('jumps over a huge interval instead of stepping through it', () => {
    const picked = IndexSet.fromIntervals([[0, 999_999_999]]).firstMissing(2, 1_000_000_005);

    expect(picked).toEqual([1_000_000_000, 1_000_000_001]);
  });
});

describe('building, copying and comparing', () => {
  it('builds from unordered, overlapping intervals', () => {
    const built = IndexSet.fromIntervals([[8, 9], [0, 2], [1, 4], [5, 5]]);

    expect(built.toString()).toBe('0-5,8,9');
    expect(built.intervalCount).toBe(2);
    expect(built.size).toBe(8);
  });

  it.each<[string, [number, number]]>([
    ['a negative first', [-1, 2]],
    ['an inverted interval', [3, 2]],
    ['a fractional bound', [0, 2.5]],
  ])('rejects %s with a RangeError', (_name, interval) => {
    expect(() => IndexSet.fromIntervals([interval])).toThrow(RangeError);
  });

  it('clones into an independent set', () => {
    const original = set('1-3');

    const copy = original.clone();
    copy.add(9);

    expect(original.toString()).toBe('1-3');
    expect(copy.toString()).toBe('1-3,9');
  });

  it('compares by content, not by how the set was built', () => {
    expect(IndexSet.of(3, 1, 2, 7).equals(set('1-3,7'))).toBe(true);
    expect(IndexSet.of(1, 2, 3).equals(set('1-3,7'))).toBe(false);
    expect(IndexSet.of(1, 3).equals(IndexSet.of(1, 2))).toBe(false);
    expect(IndexSet.empty().equals(set(''))).toBe(true);
  });

  it('iterates intervals and indexes in increasing order', () => {
    const built = set('0,1,4-6');

    expect([...built.intervals()]).toEqual([[0, 1], [4, 6]]);
    expect([...built]).toEqual([0, 1, 4, 5, 6]);
  });
});
