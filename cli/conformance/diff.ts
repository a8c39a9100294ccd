import type { FieldDiff } from './types.ts';

/**
 * Field-level comparison for partial expectations: every key the expectation names must match;
 * keys it leaves out are not asserted. Arrays compare element by element, and their lengths.
 */
export function diffExpected(at: string, path: string, expected: unknown, actual: unknown): FieldDiff[] {
  if (expected === null || typeof expected !== 'object') {
    return Object.is(expected, actual) || (expected === null && actual === undefined)
      ? []
      : [{ at, path, expected, actual }];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ at, path, expected, actual }];
    const diffs: FieldDiff[] = [];
    if (expected.length !== actual.length) {
      diffs.push({ at, path: `${path}.length`, expected: expected.length, actual: actual.length });
    }
    expected.forEach((item, i) => diffs.push(...diffExpected(at, `${path}[${i}]`, item, actual[i])));
    return diffs;
  }
  if (actual === null || typeof actual !== 'object') return [{ at, path, expected, actual }];
  const diffs: FieldDiff[] = [];
  for (const [key, value] of Object.entries(expected)) {
    diffs.push(...diffExpected(at, path ? `${path}.${key}` : key, value, (actual as Record<string, unknown>)[key]));
  }
  return diffs;
}

/** Compares two lists as multisets (order is not asserted). */
export function diffUnordered(at: string, path: string, expected: readonly unknown[], actual: readonly unknown[]): FieldDiff[] {
  const sort = (xs: readonly unknown[]) => [...xs].map((x) => JSON.stringify(x)).sort();
  const e = sort(expected);
  const a = sort(actual);
  return e.length === a.length && e.every((x, i) => x === a[i]) ? [] : [{ at, path, expected, actual }];
}
