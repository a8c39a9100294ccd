import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';
import { validateJob, validateJobUpdate, type FieldError, type ValidationOptions } from '../../../shared/job/index.ts';
import { JobSchema, type Job } from '../../../shared/k8s/job.ts';
import type { CorpusKind, FieldDiff, ScenarioResult } from '../types.ts';

/**
 * The Job validation corpus (shared/conformance/k8s-validation): one Job, or an old and a new
 * Job, and the errors upstream validation reports for it. See that directory's README.md.
 */

export const ExpectedErrorSchema = z.object({
  field: z.string(),
  type: z.string(),
  badValue: z.unknown().optional(),
  messageContains: z.string().optional(),
});
type ExpectedError = z.infer<typeof ExpectedErrorSchema>;

const ValidationCaseSchema = z.object({
  id: z.string(),
  featureGates: z.object({ PodFailurePolicyName: z.boolean().optional() }).optional(),
  beforeDefaulting: z.boolean().optional(),
  options: z.object({ AllowElasticIndexedJobs: z.boolean().optional() }).loose().optional(),
  job: z.unknown(),
  oldJob: z.unknown(),
  expect: z.object({
    valid: z.boolean(),
    errorsMatch: z.enum(['exact', 'includes']),
    errors: z.array(ExpectedErrorSchema),
  }),
});
type ValidationCase = z.infer<typeof ValidationCaseSchema>;

// validateJob checks the object as given, without batch/v1 defaulting, so the README's
// `beforeDefaulting` cases ("an implementation that always defaults ... should skip it") run.
const DEFAULTS_BEFORE_VALIDATING = false;

const AT = 'validation';

export const validationCaseKind: CorpusKind = {
  name: 'k8s-validation',

  matches(document: unknown): boolean {
    if (!isRecord(document) || !('job' in document) || !('oldJob' in document)) return false;
    return isRecord(document.expect) && 'valid' in document.expect;
  },

  run(document: unknown, file: string): ScenarioResult {
    const parsedCase = ValidationCaseSchema.safeParse(document);
    if (!parsedCase.success) {
      const id = isRecord(document) && typeof document.id === 'string' ? document.id : file;
      return { id, file, diffs: [], error: `malformed validation case: ${z.prettifyError(parsedCase.error)}` };
    }
    const testCase = parsedCase.data;
    const result = (diffs: FieldDiff[]): ScenarioResult => ({ id: testCase.id, file, diffs });
    const job = parseJob(testCase.job, 'job');
    const oldJob = testCase.oldJob === null ? { ok: true as const, job: undefined } : parseJob(testCase.oldJob, 'oldJob');
    if (!job.ok || !oldJob.ok) return result([...(job.ok ? [] : job.diffs), ...(oldJob.ok ? [] : oldJob.diffs)]);
    if (testCase.beforeDefaulting === true && DEFAULTS_BEFORE_VALIDATING) return result([]);

    const options = validationOptionsOf(testCase);
    const errors = oldJob.job === undefined ? validateJob(job.job, options) : validateJobUpdate(job.job, oldJob.job, options);
    return result(compareErrors(testCase.expect, errors));
  },
};

function validationOptionsOf(testCase: ValidationCase): ValidationOptions {
  return {
    gates: { PodFailurePolicyName: testCase.featureGates?.PodFailurePolicyName ?? false },
    // `{}` in a case means upstream ran it with every option false.
    allowElasticIndexedJobs: testCase.options?.AllowElasticIndexedJobs ?? false,
  };
}

type ParsedJob = { readonly ok: true; readonly job: Job } | { readonly ok: false; readonly diffs: FieldDiff[] };

/** A Job the schema rejects is a result, not a crash: one diff per zod issue. */
function parseJob(input: unknown, name: string): ParsedJob {
  const parsed = JobSchema.safeParse(input);
  if (parsed.success) return { ok: true, job: parsed.data };
  const diffs = parsed.error.issues.map((issue) => ({
    at: 'parse',
    path: [name, ...issue.path.map(String)].join('.'),
    expected: 'a batch/v1 Job accepted by JobSchema',
    actual: issue.message,
  }));
  return { ok: false, diffs };
}

/** A reported error, from either kind's validation: the Job's FieldError or the JobSet's. */
type ReportedError = Pick<FieldError, 'field' | 'type' | 'detail' | 'badValue'> & { readonly message?: string };

/**
 * Compares reported errors with a case's `expect` (`valid`, `errorsMatch`, `errors`), keyed by
 * field and type: each listed error must be reported (with its badValue and message part when
 * given); with `exact`, nothing else may be.
 */
export function compareErrors(expect: ValidationCase['expect'], errors: readonly ReportedError[]): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  if (expect.valid !== (errors.length === 0)) {
    diffs.push({ at: AT, path: 'valid', expected: expect.valid, actual: errors.length === 0 });
  }
  for (const expected of expect.errors) diffs.push(...findExpected(expected, errors));
  if (expect.errorsMatch === 'exact') {
    const listed = new Set(expect.errors.map((expected) => keyOf(expected)));
    for (const error of errors) {
      if (!listed.has(keyOf(error))) {
        diffs.push({ at: AT, path: `errors[${keyOf(error)}]`, expected: 'not reported', actual: error.message ?? error.detail });
      }
    }
  }
  return diffs;
}

/** The diffs for one listed error: missing, or present with another value or message. */
function findExpected(expected: ExpectedError, errors: readonly ReportedError[]): FieldDiff[] {
  const path = `errors[${keyOf(expected)}]`;
  const candidates = errors.filter((error) => keyOf(error) === keyOf(expected));
  if (candidates.length === 0) {
    const onField = errors.filter((error) => error.field === expected.field).map((error) => error.message ?? error.detail);
    return [{ at: AT, path, expected: 'reported', actual: onField.length === 0 ? 'not reported' : onField }];
  }
  const withValue =
    expected.badValue === undefined
      ? candidates
      : candidates.filter((error) => isDeepStrictEqual(error.badValue, expected.badValue));
  if (withValue.length === 0) {
    return [{ at: AT, path: `${path}.badValue`, expected: expected.badValue, actual: candidates.map((error) => error.badValue) }];
  }
  const contains = expected.messageContains;
  if (contains !== undefined && !withValue.some((error) => error.detail.includes(contains) || (error.message ?? '').includes(contains))) {
    return [{ at: AT, path: `${path}.message`, expected: contains, actual: withValue.map((error) => error.message ?? error.detail) }];
  }
  return [];
}

function keyOf(error: { readonly field: string; readonly type: string }): string {
  return `${error.field} ${error.type}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
