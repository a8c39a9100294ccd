import { JobSchema, type Job } from '../k8s/job.ts';
import type { FeatureGates } from '../job/gates.ts';
import type { FieldError } from '../job/validation/field-error.ts';
import { validateJob } from '../job/validation/index.ts';
import { applyMergePatch, isObject } from './merge-patch.ts';

/** A patch the API server would refuse: upstream's field errors, or a patch that is no Job. */
export class WhatIfPatchError extends Error {
  override name = 'WhatIfPatchError';
  readonly errors: readonly Pick<FieldError, 'field' | 'type' | 'detail' | 'message'>[];

  constructor(errors: WhatIfPatchError['errors']) {
    super(errors.map((e) => e.message).join('; '));
    this.errors = errors;
  }
}

/**
 * The Job as the patch would have made it. A what-if asks "had the Job been created with this
 * spec", so the patched Job gets the rules an update runs on the new object (upstream
 * `validateJobSpec`: field path, type and message verbatim); the immutability rules of an
 * update are left out, since they would refuse every policy change the question is about.
 * Only `spec` may be patched: the Job's identity is what ties it to its recorded pods.
 */
export function patchJob(job: Job, patch: unknown, gates: FeatureGates): Job {
  if (!isObject(patch)) throw refuse('patch', 'FieldValueInvalid', 'must be a JSON object (a merge patch of the Job)');
  for (const key of Object.keys(patch)) {
    if (key !== 'spec') throw refuse(key, 'FieldValueForbidden', 'a what-if patches spec only');
  }
  const patched = mergeJob(job, patch);
  const errors = validateJob(patched, { gates });
  if (errors.length > 0) throw new WhatIfPatchError(errors);
  return patched;
}

/** The patch laid over another observed version of the Job; the fold validates that one. */
export function mergeJob(job: Job, patch: unknown): Job {
  const parsed = JobSchema.safeParse(applyMergePatch(job, patch));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue ? fieldPath(issue.path) : 'spec';
  throw refuse(field, 'FieldValueInvalid', issue?.message ?? 'invalid');
}

function refuse(field: string, type: FieldError['type'], detail: string): WhatIfPatchError {
  const words = type === 'FieldValueForbidden' ? 'Forbidden' : 'Invalid value';
  return new WhatIfPatchError([{ field, type, detail, message: `${field}: ${words}: ${detail}` }]);
}

/** zod's path in upstream's spelling: `spec.podFailurePolicy.rules[0].action`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${String(part)}`)).join('');
}
