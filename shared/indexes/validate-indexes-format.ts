import { parseGoInt, quoteGo } from './go-strconv.ts';
import { scanFragments } from './index-fragments.ts';

/** The outcome of `validateIndexesFormat`: the number of listed indexes, or the first error. */
export type IndexesFormatResult = { ok: true; total: number } | { ok: false; message: string };

/**
 * Checks an index list strictly, as upstream `validateIndexesFormat` /
 * `parseIndexInterval` (pkg/apis/batch/validation) do for `succeededIndexes`: fragments
 * `x` or `x-y` of Go-parsable integers, each index below `completions`, `x < y` inside a
 * range, and fragments strictly increasing. Returns the total number of indexes, or the first
 * error in upstream's words. The caller adds the field context, as upstream does:
 * `error parsing succeededIndexes: <message>`. The empty string is valid with 0 indexes.
 */
export function validateIndexesFormat(text: string, completions: number): IndexesFormatResult {
  let total = 0;
  let previous = -1;
  let message: string | undefined;
  if (text.length === 0) return { ok: true, total };
  scanFragments(text, (start, end, dash, secondDash) => {
    if (secondDash >= 0) {
      message =
        `the fragment ${quoteGo(text.slice(start, end))} violates the requirement that an ` +
        `index interval can have at most two parts separated by '-'`;
      return false;
    }
    const x = parseBound(text, start, dash < 0 ? end : dash, completions);
    if (typeof x === 'string') {
      message = x;
      return false;
    }
    let y = x;
    if (dash >= 0) {
      const parsed = parseBound(text, dash + 1, end, completions);
      if (typeof parsed === 'string') message = parsed;
      else if (x >= parsed) message = `non-increasing order, previous: ${x}, current: ${parsed}`;
      else y = parsed;
      if (message !== undefined) return false;
    }
    // Indexes are never negative, so -1 stands for "no fragment yet".
    if (previous >= x) {
      message = `non-increasing order, previous: ${previous}, current: ${x}`;
      return false;
    }
    total += y - x + 1;
    previous = y;
    return true;
  });
  return message === undefined ? { ok: true, total } : { ok: false, message };
}

/** One side of a fragment: its value, or upstream's error message for it. */
function parseBound(
  text: string,
  start: number,
  end: number,
  completions: number,
): number | string {
  const value = parseGoInt(text, start, end);
  if (value === undefined) {
    return `cannot convert string to integer for index: ${quoteGo(text.slice(start, end))}`;
  }
  if (value >= completions) return `too large index: ${quoteGo(text.slice(start, end))}`;
  return value;
}
