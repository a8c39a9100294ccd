import {
  canonicalIntervalList,
  lowerBoundByLast,
  mergeIntervalLists,
  totalOf,
  type IntervalList,
  type MutableIntervalList,
} from './interval-lists.ts';
import { countOverlap, coversAll, firstGaps, formatIntervals } from './interval-walks.ts';
import { parseIndexBounds } from './parse-index-bounds.ts';

export { validateIndexesFormat, type IndexesFormatResult } from './validate-indexes-format.ts';

/** Parked indexes are merged in once they outnumber this and half the interval count. */
const MIN_PENDING_FLUSH = 64;

/**
 * A mutable set of completion indexes (non-negative integers) stored as sorted, merged
 * intervals, like upstream's `orderedIntervals` behind `completedIndexes`, `failedIndexes`
 * and success-policy `succeededIndexes`.
 *
 * An `add` that extends an interval is done in place. One that would open or close a gap is
 * parked in a pending buffer and merged in bulk (sort + one linear merge) once the buffer
 * outgrows half the interval count or a read needs the intervals. A splice per add would
 * make 100,000 adds in random order quadratic. `has`, `add` and `size` never wait for it.
 */
export class IndexSet {
  #firsts: number[] = [];
  #lasts: number[] = [];
  #size = 0;
  #pending: number[] = [];
  readonly #pendingSet = new Set<number>();

  static empty(): IndexSet {
    return new IndexSet();
  }

  static of(...indexes: number[]): IndexSet {
    const set = new IndexSet();
    for (const index of indexes) set.add(index);
    return set;
  }

  /**
   * Builds a set from inclusive `[first, last]` intervals in any order, overlapping or not.
   * Throws a RangeError for a negative or non-integer bound or for `first > last`.
   */
  static fromIntervals(intervals: Iterable<readonly [number, number]>): IndexSet {
    const firsts: number[] = [];
    const lasts: number[] = [];
    for (const [first, last] of intervals) {
      firsts.push(first);
      lasts.push(last);
    }
    return IndexSet.fromBounds(firsts, lasts);
  }

  /**
   * Like `fromIntervals`, from parallel arrays of inclusive bounds. Input already sorted by
   * first index is merged in one pass; anything else is sorted first. O(k log k) at worst.
   */
  static fromBounds(firsts: readonly number[], lasts: readonly number[]): IndexSet {
    if (firsts.length !== lasts.length) throw new RangeError('firsts and lasts differ in length');
    for (let i = 0; i < firsts.length; i++) assertInterval(firsts[i]!, lasts[i]!);
    const set = new IndexSet();
    set.#replace(canonicalIntervalList(firsts, lasts));
    return set;
  }

  /** Returns a new set holding the indexes of both. O(intervals of both). */
  static union(a: IndexSet, b: IndexSet): IndexSet {
    const set = a.clone();
    set.addAll(b);
    return set;
  }

  /** The number of indexes in the set. O(1). */
  get size(): number {
    return this.#size;
  }

  /** The number of maximal runs of consecutive indexes. */
  get intervalCount(): number {
    this.#flush();
    return this.#firsts.length;
  }

  /** Returns whether `index` is in the set. O(log n). */
  has(index: number): boolean {
    if (!Number.isSafeInteger(index)) return false;
    const firsts = this.#firsts;
    const at = lowerBoundByLast(this.#lasts, index);
    if (at < firsts.length && firsts[at]! <= index) return true;
    return this.#pending.length > 0 && this.#pendingSet.has(index);
  }

  /**
   * Adds one index; returns whether it was new. Throws a RangeError for a negative or
   * non-integer index (a caller bug: indexes are validated at the boundary).
   */
  add(index: number): boolean {
    assertIndex(index);
    const firsts = this.#firsts;
    const lasts = this.#lasts;
    const at = lowerBoundByLast(lasts, index);
    if (at < firsts.length && firsts[at]! <= index) return false;
    if (this.#pendingSet.has(index)) return false;
    const extendsLeft = at > 0 && lasts[at - 1] === index - 1;
    const extendsRight = at < firsts.length && firsts[at] === index + 1;
    this.#size++;
    if (extendsLeft && !extendsRight) lasts[at - 1] = index;
    else if (extendsRight && !extendsLeft) firsts[at] = index;
    else {
      // Opening or closing a gap needs a splice; park the index and merge in bulk later.
      this.#pending.push(index);
      this.#pendingSet.add(index);
      if (this.#pending.length > Math.max(MIN_PENDING_FLUSH, firsts.length >>> 1)) this.#flush();
    }
    return true;
  }

  /** Adds every index in `[first, last]`; returns how many were new. O(log n + splice). */
  addRange(first: number, last: number): number {
    assertInterval(first, last);
    this.#flush();
    const firsts = this.#firsts;
    const lasts = this.#lasts;
    const before = this.#size;
    // Intervals [lo, hi) overlap or touch [first, last]; they collapse into one.
    const lo = lowerBoundByLast(lasts, first - 1);
    let hi = lo;
    let covered = 0;
    while (hi < firsts.length && firsts[hi]! <= last + 1) {
      covered += lasts[hi]! - firsts[hi]! + 1;
      hi++;
    }
    const mergedFirst = lo < hi ? Math.min(first, firsts[lo]!) : first;
    const mergedLast = lo < hi ? Math.max(last, lasts[hi - 1]!) : last;
    if (lo === firsts.length) {
      firsts.push(mergedFirst);
      lasts.push(mergedLast);
    } else {
      firsts.splice(lo, hi - lo, mergedFirst);
      lasts.splice(lo, hi - lo, mergedLast);
    }
    this.#size += mergedLast - mergedFirst + 1 - covered;
    return this.#size - before;
  }

  /** Adds every index of `other` (in-place union). O(intervals of both). */
  addAll(other: IndexSet): void {
    if (other === this || other.size === 0) return;
    const mine = this.#list();
    const theirs = other.#list();
    this.#replace(mergeIntervalLists(mine.firsts, mine.lasts, theirs.firsts, theirs.lasts));
  }

  /** Returns |this ∩ other|, by a two-pointer walk. O(intervals of both). */
  countWithin(other: IndexSet): number {
    return countOverlap(this.#list(), other.#list());
  }

  /** Returns whether every index of `other` is in this set. O(intervals of both). */
  containsAll(other: IndexSet): boolean {
    return other.size <= this.size && coversAll(this.#list(), other.#list());
  }

  /**
   * Returns the `count` lowest indexes in `[0, limit)` that are not in the set and for which
   * `skip` (if given) returns false, in increasing order; fewer if the range runs out. Jumps
   * over intervals (upstream `firstPendingIndexes`): O(intervals + indexes tested).
   */
  firstMissing(count: number, limit: number, skip?: (index: number) => boolean): number[] {
    return firstGaps(this.#list(), count, limit, skip);
  }

  /** Yields each interval as inclusive `[first, last]`, in increasing order. */
  *intervals(): IterableIterator<readonly [number, number]> {
    const { firsts, lasts } = this.#list();
    for (let i = 0; i < firsts.length; i++) yield [firsts[i]!, lasts[i]!] as const;
  }

  /** Yields each index in increasing order. */
  *[Symbol.iterator](): IterableIterator<number> {
    for (const [first, last] of this.intervals()) {
      for (let index = first; index <= last; index++) yield index;
    }
  }

  clone(): IndexSet {
    const set = new IndexSet();
    const { firsts, lasts } = this.#list();
    set.#replace({ firsts: firsts.slice(), lasts: lasts.slice() });
    return set;
  }

  equals(other: IndexSet): boolean {
    if (this.size !== other.size || this.intervalCount !== other.intervalCount) return false;
    const mine = this.#list();
    const theirs = other.#list();
    for (let i = 0; i < mine.firsts.length; i++) {
      if (mine.firsts[i] !== theirs.firsts[i] || mine.lasts[i] !== theirs.lasts[i]) return false;
    }
    return true;
  }

  /** The upstream interval string (`orderedIntervals.String`): {1,3,4,5,7} → "1,3-5,7". */
  toString(): string {
    return formatIntervals(this.#list());
  }

  /** Serializes as the interval string, the form `status.completedIndexes` uses. */
  toJSON(): string {
    return this.toString();
  }

  /** The merged intervals, after folding in anything pending. */
  #list(): IntervalList {
    this.#flush();
    return { firsts: this.#firsts, lasts: this.#lasts };
  }

  #replace(list: MutableIntervalList): void {
    this.#firsts = list.firsts;
    this.#lasts = list.lasts;
    this.#pending = [];
    this.#pendingSet.clear();
    this.#size = totalOf(list);
  }

  /** Merges parked indexes into the intervals: sort, then one linear merge. */
  #flush(): void {
    if (this.#pending.length === 0) return;
    const sorted = Float64Array.from(this.#pending).sort();
    const merged = mergeIntervalLists(this.#firsts, this.#lasts, sorted, sorted);
    this.#replace(merged);
  }
}

function assertIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new RangeError(`index must be a non-negative integer, got ${index}`);
  }
}

function assertInterval(first: number, last: number): void {
  assertIndex(first);
  assertIndex(last);
  if (last < first) throw new RangeError(`interval [${first}, ${last}] is empty`);
}

/**
 * Reads a stored index list (`status.completedIndexes`, `status.failedIndexes`, a
 * success-policy rule's `succeededIndexes`) as upstream `parseIndexesFromString` does: `x`
 * and `x-y` fragments, unparsable ones skipped, stopping at the first fragment starting at or
 * above `completions`, ends clipped to `completions - 1`. Never throws. Upstream joins a
 * fragment only to an adjacent one before it; the set here is always canonical, so
 * overlapping or unordered input is merged.
 */
export function parseIndexes(text: string, completions: number): IndexSet {
  const { firsts, lasts } = parseIndexBounds(text, completions);
  return IndexSet.fromBounds(firsts, lasts);
}

/** The upstream interval string of a set: {1,3,4,5,7} → "1,3-5,7" (same as `toString`). */
export function formatIndexes(set: IndexSet): string {
  return set.toString();
}
