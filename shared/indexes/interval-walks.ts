import type { IntervalList } from './interval-lists.ts';

/**
 * Read-only walks over canonical interval lists (see `interval-lists.ts`): the overlap count
 * behind success policies, containment, the lowest free indexes and the upstream string form.
 */

/** Returns how many indexes two canonical lists share, by a two-pointer walk. O(n + m). */
export function countOverlap(a: IntervalList, b: IntervalList): number {
  let count = 0;
  let i = 0;
  let j = 0;
  while (i < a.firsts.length && j < b.firsts.length) {
    const aLast = a.lasts[i]!;
    const bLast = b.lasts[j]!;
    const lo = Math.max(a.firsts[i]!, b.firsts[j]!);
    const hi = Math.min(aLast, bLast);
    if (lo <= hi) count += hi - lo + 1;
    // The interval that ends first cannot overlap anything further in the other list.
    if (aLast < bLast) i++;
    else j++;
  }
  return count;
}

/** Returns whether every interval of `inner` lies inside one interval of `outer`. O(n + m). */
export function coversAll(outer: IntervalList, inner: IntervalList): boolean {
  let i = 0;
  for (let j = 0; j < inner.firsts.length; j++) {
    const first = inner.firsts[j]!;
    while (i < outer.firsts.length && outer.lasts[i]! < first) i++;
    // Canonical lists never leave a gap inside an interval, so one outer interval must hold it.
    if (i === outer.firsts.length || outer.firsts[i]! > first) return false;
    if (outer.lasts[i]! < inner.lasts[j]!) return false;
  }
  return true;
}

/**
 * Returns the `count` lowest indexes in `[0, limit)` outside the list for which `skip` is
 * false. Jumps over intervals, as upstream `firstPendingIndexes` does, so the cost is
 * O(intervals + indexes tested).
 */
export function firstGaps(
  list: IntervalList,
  count: number,
  limit: number,
  skip?: (index: number) => boolean,
): number[] {
  const { firsts, lasts } = list;
  const result: number[] = [];
  let candidate = 0;
  let at = 0;
  while (candidate < limit && result.length < count) {
    if (at < firsts.length && firsts[at]! <= candidate) {
      candidate = Math.max(candidate, lasts[at]! + 1);
      at++;
      continue;
    }
    const gapEnd = at < firsts.length ? Math.min(firsts[at]!, limit) : limit;
    for (; candidate < gapEnd && result.length < count; candidate++) {
      if (skip === undefined || !skip(candidate)) result.push(candidate);
    }
  }
  return result;
}

/**
 * Writes the list as upstream `orderedIntervals.String` does: comma-separated, a run of three
 * or more as `first-last`, a run of exactly two as two numbers: {1,3,4,5,7} → "1,3-5,7".
 */
export function formatIntervals(list: IntervalList): string {
  const parts: string[] = [];
  for (let i = 0; i < list.firsts.length; i++) {
    const first = list.firsts[i]!;
    const last = list.lasts[i]!;
    if (last === first) parts.push(`${first}`);
    else parts.push(`${first}${last === first + 1 ? ',' : '-'}${last}`);
  }
  return parts.join(',');
}
