import * as z from 'zod';

/**
 * Kubernetes writes an unset field either as absent or as `null`. Both parse to `undefined`,
 * so code inside the domain checks one thing. The null is rewritten by `overwrite` (a check that
 * replaces the value), not a `transform`: a transform makes every optional field a pipe, and a
 * pod's ~25 of them tripled the parse of each inbound pod event (37 → 17 µs) and of each log
 * entry read back. Same output, same errors (absent stays absent, null becomes undefined).
 */
export const optional = <T extends z.ZodType>(schema: T) =>
  schema.nullish().overwrite((value) => value ?? undefined) as unknown as z.ZodOptional<z.ZodType<z.output<T>, z.input<T> | null>>;

/** An RFC 3339 timestamp as the API server writes it (`2026-01-01T00:00:00Z`). */
export const TimeSchema = z.iso.datetime({ offset: true });

export const Int32Schema = z.number().int().min(-2147483648).max(2147483647);

/**
 * The largest int64 jobfold keeps exactly: 2^53 − 1. Upstream's int64 fields accept up to
 * 2^63 − 1, which JSON.parse cannot hold (9223372036854775807 reads as 2^63). A larger valid
 * value is clamped to this one. Every int64 the fold reads is a number of seconds
 * (`activeDeadlineSeconds`, `deletionGracePeriodSeconds`) or a `generation` it only compares, and
 * 2^53 − 1 seconds (285 million years) is already past the last time RFC 3339 can write, so the
 * Job behaves identically: the deadline never passes. docs/events.md says so.
 */
export const INT64_KEPT_MAX = Number.MAX_SAFE_INTEGER;
const TWO_TO_63 = 2 ** 63;

/**
 * An int64 field: any integer JSON.parse yields for an int64 literal, [−2^63, 2^63]. Values past
 * INT64_KEPT_MAX are clamped to it; values below −(2^53 − 1) are kept (every int64 field jobfold
 * reads must be ≥ 0, so validation refuses them and prints them in full). Anything else is refused
 * as the API server's decoder refuses it, naming the number and int64.
 */
const notInt64 = { error: (issue: { input?: unknown }) => `cannot unmarshal number ${goNumber(issue.input)} into Go value of type int64` };
export const Int64Schema = z
  .number()
  .min(-TWO_TO_63, notInt64)
  .max(TWO_TO_63, notInt64)
  .refine(Number.isInteger, notInt64)
  .meta({ type: 'integer', format: 'int64', description: 'int64; values past 2^53 − 1 are kept as 2^53 − 1' })
  .transform((n) => Math.min(n, INT64_KEPT_MAX));

/**
 * A string the API server's validation has its own words for when empty (names, enum values):
 * absent, `null` and `""` all parse to `""`, and validation reports it as upstream does.
 */
export const text = () =>
  z
    .string()
    .nullish()
    .transform((value) => value ?? '');

/**
 * A list where absent, `null` and `[]` mean the same (Go's nil slice): the parse never
 * refuses a missing list, so validation reports "required" or "at least one" in upstream's
 * words. No length cap: upstream's limits are validation errors, and the event size bounds
 * what can arrive at all.
 */
export const listOf = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((value): z.output<T>[] => value ?? []);

/**
 * A map of strings (labels, annotations). Keys and values are checked by metadata validation
 * (qualified names, label values, the 256 KiB annotation total), not by the parse.
 */
export const StringMapSchema = z.record(z.string(), z.string());

/** A JSON number as Go's decoder echoes it: an integer with every digit, else JS's shortest form. */
function goNumber(value: unknown): string {
  return typeof value === 'number' && Number.isInteger(value) ? BigInt(value).toString() : String(value);
}
