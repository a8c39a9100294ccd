/**
 * Array-level algorithms over sorted interval lists, the storage behind `IndexSet`.
 *
 * A list is two parallel arrays: `firsts[i]` and `lasts[i]` bound interval `i` (both
 * inclusive). In a canonical list the intervals are sorted, disjoint and not adjacent
 * (`lasts[i] + 1 < firsts[i + 1]`), which is what every function here returns.
 */

/** A sorted, merged interval list as parallel arrays of inclusive bounds. */
export interface IntervalList {
  readonly firsts: readonly number[];
  readonly lasts: readonly number[];
}

/** A freshly built list that its new owner may mutate. */
export interface MutableIntervalList {
  firsts: number[];
  lasts: number[];
}

/**
 * Returns the position of the first interval whose last index is `>= index`, or
 * `lasts.length` when there is none. Binary search, O(log n).
 */
export function lowerBoundByLast(lasts: ArrayLike<number>, index: number): number {
  let lo = 0;
  let hi = lasts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lasts[mid]! < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Returns the union of two sorted lists (each sorted by first index, possibly overlapping or
 * adjacent) as a canonical list. Mirrors upstream `orderedIntervals.merge`: walk both lists
 * in order of first index and append each interval or fold it into the last one. O(n + m).
 */
export function mergeIntervalLists(
  aFirsts: ArrayLike<number>,
  aLasts: ArrayLike<number>,
  bFirsts: ArrayLike<number>,
  bLasts: ArrayLike<number>,
): MutableIntervalList {
  const firsts: number[] = [];
  const lasts: number[] = [];
  let i = 0;
  let j = 0;
  while (i < aFirsts.length || j < bFirsts.length) {
    let first: number;
    let last: number;
    if (j >= bFirsts.length || (i < aFirsts.length && aFirsts[i]! < bFirsts[j]!)) {
      first = aFirsts[i]!;
      last = aLasts[i]!;
      i++;
    } else {
      first = bFirsts[j]!;
      last = bLasts[j]!;
      j++;
    }
    const tail = lasts.length - 1;
    if (tail < 0 || first > lasts[tail]! + 1) {
      firsts.push(first);
      lasts.push(last);
    } else if (last > lasts[tail]!) {
      lasts[tail] = last;
    }
  }
  return { firsts, lasts };
}

/**
 * Returns the canonical list of intervals given in any order (each `first <= last`): sorts
 * by first index unless already sorted, then merges. O(k log k) at worst, O(k) when sorted.
 */
export function canonicalIntervalList(
  firsts: readonly number[],
  lasts: readonly number[],
): MutableIntervalList {
  let sorted = true;
  for (let i = 1; i < firsts.length && sorted; i++) sorted = firsts[i - 1]! <= firsts[i]!;
  if (sorted) return mergeIntervalLists(firsts, lasts, [], []);
  const order = Array.from(firsts.keys()).sort((a, b) => firsts[a]! - firsts[b]!);
  return mergeIntervalLists(
    order.map((i) => firsts[i]!),
    order.map((i) => lasts[i]!),
    [],
    [],
  );
}

/** Returns the number of indexes in a list: the sum of its interval lengths. O(n). */
export function totalOf(list: IntervalList): number {
  let total = 0;
  for (let i = 0; i < list.firsts.length; i++) total += list.lasts[i]! - list.firsts[i]! + 1;
  return total;
}
