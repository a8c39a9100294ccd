import * as z from 'zod';
import { WhatIfPatchError } from '../../shared/whatif/index.ts';
import { BadRequestError } from './http-errors.ts';
import { SelectionFields } from './selection-body.ts';
import type { QueryRequest } from './http.ts';

/** `{"patch": {…}}`: a JSON merge patch of the Job (RFC 7386). */
export const WhatIfBodySchema = z
  .object({ patch: z.record(z.string(), z.unknown()).meta({ description: 'A JSON merge patch (RFC 7386) of the Job; only `spec` may be patched.' }) })
  .strict();

/** The fleet what-if: the patch, the fleet filters and where the previous page ended. */
export const FleetWhatIfBodySchema = WhatIfBodySchema.extend({
  ...SelectionFields,
  finished: z.boolean().optional().meta({ description: 'Only Jobs whose record holds their outcome (SuccessCriteriaMet or FailureTarget, or Complete or Failed).' }),
  cursor: z.string().max(4096).optional().meta({ description: 'nextCursor of the previous page.' }),
  limit: z.number().int().min(1).max(1000).optional().meta({ description: 'Jobs per page (default 100; with segments, whole logs per call, default 1,000). At most 200 without segments.' }),
  segment: z.number().int().min(0).max(63).optional().meta({ description: 'With segments: which part of a parallel scan of every log this call reads (0-based).' }),
  segments: z.number().int().min(1).max(64).optional().meta({ description: 'Read the logs by a parallel scan in this many parts, one call chain per part, instead of listing Jobs newest first (not with since).' }),
}).strict();

/** Parses a JSON body with `schema`; every problem is a 400 naming `body.<field>`. */
export function parseBody<T extends z.ZodType>(request: QueryRequest, schema: T): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(request.body ?? '');
  } catch (error) {
    throw new BadRequestError([{ path: 'body', message: `not valid JSON: ${(error as Error).message}` }]);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new BadRequestError(parsed.error.issues.map((issue) => ({ path: ['body', ...issue.path].join('.'), message: issue.message })));
}

/** An invalid patched spec as a 400 with upstream's messages, each at `body.patch.<field>`. */
export function patchRefused(error: WhatIfPatchError): BadRequestError {
  return new BadRequestError(error.errors.map((e) => ({ path: `body.patch.${e.field}`, message: e.message })));
}
