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

/** A map of strings (labels, annotations) of bounded size. */
export const StringMapSchema = z.record(z.string().max(253), z.string().max(65536));
