import { parseGoInt } from './go-strconv.ts';
import { scanFragments } from './index-fragments.ts';
import type { MutableIntervalList } from './interval-lists.ts';

/**
 * Reads a stored index list leniently, as upstream `parseIndexesFromString`
 * (pkg/controller/job/indexed_job_utils.go) does, and never throws:
 * 1. fragments are `x` or `x-y` (parts after a second `-` are ignored);
 * 2. a fragment whose numbers do not parse (Go `strconv.Atoi`) is skipped;
 * 3. the first fragment starting at or above `completions` ends the parse;
 * 4. an end at or above `completions` is clipped to `completions - 1`.
 * Returns the intervals in text order, not yet merged (`parseIndexes` builds the set). An
 * inverted range (`5-3`, kept upstream as a negative-length interval) is dropped.
 */
export function parseIndexBounds(text: string, completions: number): MutableIntervalList {
  const firsts: number[] = [];
  const lasts: number[] = [];
  // Completions is an int32 upstream; the clamp only keeps odd input (NaN, Infinity, 2.5) total.
  const limit = completions > 0 ? Math.ceil(Math.min(completions, Number.MAX_SAFE_INTEGER)) : 0;
  scanFragments(text, (start, end, dash, secondDash) => {
    const first = parseGoInt(text, start, dash < 0 ? end : dash);
    if (first === undefined) return true;
    if (first >= limit) return false;
    let last = first;
    if (dash >= 0) {
      const parsedLast = parseGoInt(text, dash + 1, secondDash < 0 ? end : secondDash);
      if (parsedLast === undefined) return true;
      last = Math.min(parsedLast, limit - 1);
    }
    // A part cannot carry a `-` sign (it would be a separator), so only `last < first` is left.
    if (first <= last) {
      firsts.push(first);
      lasts.push(last);
    }
    return true;
  });
  return { firsts, lasts };
}
