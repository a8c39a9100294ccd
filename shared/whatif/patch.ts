import type * as z from 'zod';
import type { FeatureGates } from '../k8s/feature-gates.ts';
import type { FieldError } from '../job/validation/field-error.ts';
import { formatBadValue } from '../job/validation/go-format.ts';
import { validateJob } from '../job/validation/index.ts';
import { defaultJobSet } from '../jobset/defaulting.ts';
import { JobSetSchema, type JobSet } from '../jobset/schemas.ts';
import { validateJobSet } from '../jobset/validation.ts';
import type { JobSetValidationError } from '../jobset/validation-error.ts';
import { JobSchema, type Job } from '../k8s/job.ts';

// The patch of a what-if: a JSON merge patch (RFC 7386) of the object's spec, laid over every
// observed version of it and checked as the API server (a Job) or admission (a JobSet) checks
// a created object. A patch the server would refuse is a WhatIfPatchError with upstream's field
// paths and messages.

/** A patch the API server would refuse: upstream's field errors, or a patch that is no Job or JobSet. */
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
 */
export function patchJob(job: Job, patch: unknown, gates: FeatureGates): Job {
  return patched(job, patch, { kind: 'Job', merge: mergeJob, validate: (patchedJob) => validateJob(patchedJob, { gates }) });
}

/**
 * The JobSet as the patch would have made it, checked as admission checks a created JobSet
 * (the CRD schema, then the webhook: upstream's field paths and messages). `spec.replicatedJobs`
 * may not be patched: the child Jobs' recorded statuses are the evidence the JobSet what-if
 * replays, and a changed Job template would have made other children (a Job what-if answers
 * that one).
 */
export function patchJobSet(jobSet: JobSet, patch: unknown): JobSet {
  return patched(jobSet, patch, {
    kind: 'JobSet',
    merge: mergeJobSet,
    validate: (patchedJobSet) => validateJobSet(defaultJobSet(patchedJobSet)).map(fieldError),
    forbidden: { replicatedJobs: 'a JobSet what-if replays the recorded child Jobs; patch their template with a Job what-if' },
  });
}

/** The patch laid over another observed version of the Job; the fold validates that one. */
export const mergeJob = (job: Job, patch: unknown): Job => merged(JobSchema, job, patch);

/** The patch laid over another observed version of the JobSet; the fold validates that one. */
export const mergeJobSet = (jobSet: JobSet, patch: unknown): JobSet => merged(JobSetSchema, jobSet, patch);

interface Patching<T> {
  readonly kind: 'Job' | 'JobSet';
  readonly merge: (object: T, patch: unknown) => T;
  readonly validate: (object: T) => WhatIfPatchError['errors'];
  /** Spec fields a what-if of this kind may not patch, and why. */
  readonly forbidden?: Readonly<Record<string, string>>;
}

/** Only `spec` may be patched: the object's identity is what ties it to its recorded pods and Jobs. */
function patched<T>(object: T, patch: unknown, patching: Patching<T>): T {
  if (!isObject(patch)) throw refuse('patch', 'FieldValueInvalid', `must be a JSON object (a merge patch of the ${patching.kind})`);
  for (const key of Object.keys(patch)) {
    if (key !== 'spec') throw refuse(key, 'FieldValueForbidden', 'a what-if patches spec only');
  }
  const spec = patch['spec'];
  for (const [field, why] of Object.entries(patching.forbidden ?? {})) {
    if (isObject(spec) && field in spec) throw refuse(`spec.${field}`, 'FieldValueForbidden', why);
  }
  const result = patching.merge(object, patch);
  const errors = patching.validate(result);
  if (errors.length > 0) throw new WhatIfPatchError(errors);
  return result;
}

function merged<T>(schema: z.ZodType<T>, object: T, patch: unknown): T {
  const parsed = schema.safeParse(applyMergePatch(object, patch));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue ? fieldPath(issue.path) : 'spec';
  throw refuse(field, 'FieldValueInvalid', issue?.message ?? 'invalid');
}

/**
 * JSON merge patch (RFC 7386): an object patch merges key by key, `null` removes a key, and
 * anything else (arrays included) replaces the target's value whole. Returns a new value; the
 * target is not changed.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's path in upstream's spelling: `spec.podFailurePolicy.rules[0].action`. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${String(part)}`)).join('');
}

/** Upstream's `ErrorType.String()`. */
const TYPE_WORDS: Readonly<Record<JobSetValidationError['type'], string>> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueRequired: 'Required value',
  FieldValueForbidden: 'Forbidden',
};

/** A JobSet webhook error as the API server words it: `field: Invalid value: "x": detail`. */
function fieldError(error: JobSetValidationError): WhatIfPatchError['errors'][number] {
  const value = error.badValue === undefined ? '' : `: ${formatBadValue(error.badValue)}`;
  const message = `${error.field}: ${TYPE_WORDS[error.type]}${value}${error.detail === '' ? '' : `: ${error.detail}`}`;
  return { field: error.field, type: error.type, detail: error.detail, message };
}

function refuse(field: string, type: 'FieldValueInvalid' | 'FieldValueForbidden', detail: string): WhatIfPatchError {
  return new WhatIfPatchError([fieldError({ field, type, detail })]);
}
