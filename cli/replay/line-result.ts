import type * as z from 'zod';
import type { Observation } from '../../shared/job/index.ts';
import { formatPath } from './field-path.ts';

/** One JSONL line, parsed: the observation, or what is wrong (field path and message). */
export type LineResult =
  | {
      readonly ok: true;
      readonly observation: Observation;
      /** The Job whose log the event belongs to, when the line says (inbound events do). */
      readonly jobUid?: string;
    }
  | { readonly ok: false; readonly problems: readonly { readonly path: string; readonly message: string }[] };

/** The issues of a failed parse, with their paths renamed to how the line spells them. */
export function issues(error: z.ZodError, rename: (path: readonly PropertyKey[]) => readonly PropertyKey[]): LineResult {
  return {
    ok: false,
    problems: error.issues.map((issue) => ({ path: formatPath(rename(issue.path)), message: issue.message })),
  };
}

export function lineFailure(path: string, message: string): LineResult {
  return { ok: false, problems: [{ path, message }] };
}
