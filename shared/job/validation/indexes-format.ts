import { goQuote } from './go-format.ts';

/** The outcome of checking an index list: its index count, or upstream's parser message. */
export type IndexesFormatResult =
  | { readonly ok: true; readonly total: number }
  | { readonly ok: false; readonly message: string };

/**
 * Upstream's strict `validateIndexesFormat` (pkg/apis/batch/validation): checks an index list
 * such as `0,2-4,7` against `completions` and counts its indexes. Intervals are `x` or `x-y`
 * with `x < y`, strictly increasing, every index below `completions`; the empty string is an
 * empty list. The first violation is returned with upstream's message, e.g.
 * `non-increasing order, previous: 3, current: 0`.
 *
 * Linear in the length of `text`, so 64 KiB lists are cheap.
 *
 * (Duplicates `validateIndexesFormat` of shared/indexes/index-set.ts until the lead dedupes.)
 */
export function validateIndexesFormat(text: string, completions: number): IndexesFormatResult {
  if (text.length === 0) return { ok: true, total: 0 };
  let lastIndex: number | undefined;
  let total = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf(',', start);
    const interval = parseIndexInterval(text.slice(start, end === -1 ? undefined : end), completions);
    if (!interval.ok) return interval;
    if (lastIndex !== undefined && lastIndex >= interval.first) {
      return { ok: false, message: `non-increasing order, previous: ${lastIndex}, current: ${interval.first}` };
    }
    total += interval.last - interval.first + 1;
    lastIndex = interval.last;
    if (end === -1) return { ok: true, total };
    start = end + 1;
  }
}

type IntervalResult =
  | { readonly ok: true; readonly first: number; readonly last: number }
  | { readonly ok: false; readonly message: string };

/** Upstream's `parseIndexInterval`: one `x` or `x-y` fragment. */
function parseIndexInterval(fragment: string, completions: number): IntervalResult {
  const limits = fragment.split('-');
  if (limits.length > 2) {
    return {
      ok: false,
      message: `the fragment ${goQuote(fragment)} violates the requirement that an index interval can have at most two parts separated by '-'`,
    };
  }
  const first = parseLimit(limits[0]!, completions);
  if (!first.ok) return first;
  if (limits.length === 1) return { ok: true, first: first.value, last: first.value };
  const last = parseLimit(limits[1]!, completions);
  if (!last.ok) return last;
  if (first.value >= last.value) {
    return { ok: false, message: `non-increasing order, previous: ${first.value}, current: ${last.value}` };
  }
  return { ok: true, first: first.value, last: last.value };
}

type LimitResult = { readonly ok: true; readonly value: number } | { readonly ok: false; readonly message: string };

function parseLimit(text: string, completions: number): LimitResult {
  const value = parseGoInt(text);
  if (value === undefined) {
    return { ok: false, message: `cannot convert string to integer for index: ${goQuote(text)}` };
  }
  if (value >= completions) return { ok: false, message: `too large index: ${goQuote(text)}` };
  return { ok: true, value };
}

const INT64_MAX = '9223372036854775807';
const INT64_MIN_MAGNITUDE = '9223372036854775808';

/**
 * Go's `strconv.Atoi` on a 64-bit platform: an optional sign, then decimal digits only, within
 * int64. Values beyond 2^53 lose precision, which is harmless: they only get compared against
 * `completions` (an int32).
 */
function parseGoInt(text: string): number | undefined {
  const negative = text.startsWith('-');
  const start = negative || text.startsWith('+') ? 1 : 0;
  if (start === text.length) return undefined;
  let significant = -1;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return undefined;
    if (significant === -1 && code !== 48) significant = i;
  }
  if (significant === -1) return 0;
  const digits = text.slice(significant);
  // Equal-length digit strings compare like the numbers they spell.
  const limit = negative ? INT64_MIN_MAGNITUDE : INT64_MAX;
  if (digits.length > limit.length || (digits.length === limit.length && digits > limit)) return undefined;
  const magnitude = Number(digits);
  return negative ? -magnitude : magnitude;
}
