import { z } from 'zod';

/**
 * Kubernetes writes an unset field either as absent or as `null`. Both parse to `undefined`,
 * so code inside the domain checks one thing.
 */
export const optional = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((value): z.output<T> | undefined => value ?? undefined)
    .optional();

/** An RFC 3339 timestamp as the API server writes it (`2026-01-01T00:00:00Z`). */
export const TimeSchema = z.iso.datetime({ offset: true });

export const Int32Schema = z.number().int().min(-2147483648).max(2147483647);

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
