import { formatBadValue } from '../job/validation/go-format.ts';
import { defaultJobSet } from '../jobset/defaulting.ts';
import { JobSetSchema, type JobSet } from '../jobset/schemas.ts';
import { validateJobSet } from '../jobset/validation.ts';
import type { JobSetValidationError } from '../jobset/validation-error.ts';
import { applyMergePatch, isObject } from './merge-patch.ts';
import { fieldPath, WhatIfPatchError } from './patch-job.ts';

/** Upstream's `ErrorType.String()` for the JobSet webhook's error types. */
const TYPE_WORDS: Readonly<Record<JobSetValidationError['type'], string>> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueRequired: 'Required value',
  FieldValueForbidden: 'Forbidden',
};

/**
 * The JobSet as the patch would have made it, checked as admission checks a created JobSet
 * (the CRD schema, then the webhook: upstream's field paths and messages). Only `spec` may be
 * patched, and not `spec.replicatedJobs`: the child Jobs' recorded statuses are the evidence
 * the JobSet what-if replays, and a changed Job template would have made other children (a
 * Job what-if answers that one).
 */
export function patchJobSet(jobSet: JobSet, patch: unknown): JobSet {
  if (!isObject(patch)) throw refuse('patch', 'FieldValueInvalid', 'must be a JSON object (a merge patch of the JobSet)');
  for (const key of Object.keys(patch)) {
    if (key !== 'spec') throw refuse(key, 'FieldValueForbidden', 'a what-if patches spec only');
  }
  if (isObject(patch['spec']) && 'replicatedJobs' in patch['spec']) {
    throw refuse('spec.replicatedJobs', 'FieldValueForbidden', 'a JobSet what-if replays the recorded child Jobs; patch their template with a Job what-if');
  }
  const patched = mergeJobSet(jobSet, patch);
  const errors = validateJobSet(defaultJobSet(patched));
  if (errors.length > 0) throw new WhatIfPatchError(errors.map(fieldError));
  return patched;
}

/** The patch laid over another observed version of the JobSet; the fold validates that one. */
export function mergeJobSet(jobSet: JobSet, patch: unknown): JobSet {
  const parsed = JobSetSchema.safeParse(applyMergePatch(jobSet, patch));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue ? fieldPath(issue.path) : 'spec';
  throw refuse(field, 'FieldValueInvalid', issue?.message ?? 'invalid');
}

function fieldError(error: JobSetValidationError) {
  const value = error.badValue === undefined ? '' : `: ${formatBadValue(error.badValue)}`;
  const message = `${error.field}: ${TYPE_WORDS[error.type]}${value}${error.detail === '' ? '' : `: ${error.detail}`}`;
  return { field: error.field, type: error.type, detail: error.detail, message };
}

function refuse(field: string, type: 'FieldValueInvalid' | 'FieldValueForbidden', detail: string): WhatIfPatchError {
  return new WhatIfPatchError([fieldError({ field, type, detail })]);
}
