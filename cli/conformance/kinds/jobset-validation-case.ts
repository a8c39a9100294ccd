import * as z from 'zod';
import { defaultJobSet, JobSetSchema, validateJobSet } from '../../../shared/jobset/index.ts';
import type { CorpusKind } from '../types.ts';
import { compareErrors, ExpectedErrorSchema } from './validation-case.ts';

/**
 * JobSet admission cases (test/conformance/jobset/README.md, group `validation`): one JobSet as
 * created, and the errors the CRD schema and the validating webhook report for it, after the
 * webhook's defaulting. The comparison is the Job validation corpus's (`errorsMatch`, errors
 * keyed by field and type, `messageContains`).
 */

const JobSetValidationCaseSchema = z.object({
  id: z.string(),
  featureGates: z.object({ RestartJob: z.boolean().optional(), InPlaceRestart: z.boolean().optional() }).optional(),
  jobset: z.unknown(),
  expect: z.object({
    valid: z.boolean(),
    errorsMatch: z.enum(['exact', 'includes']),
    errors: z.array(ExpectedErrorSchema),
  }),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const jobSetValidationCaseKind: CorpusKind = {
  name: 'jobset-validation',
  matches(document) {
    if (!isRecord(document) || !isRecord(document['jobset']) || 'events' in document) return false;
    return isRecord(document['expect']) && 'valid' in document['expect'];
  },
  run(document, file) {
    const parsedCase = JobSetValidationCaseSchema.safeParse(document);
    if (!parsedCase.success) {
      const id = isRecord(document) && typeof document['id'] === 'string' ? document['id'] : file;
      return { id, file, diffs: [], error: `malformed JobSet validation case: ${z.prettifyError(parsedCase.error)}` };
    }
    const testCase = parsedCase.data;
    const jobSet = JobSetSchema.safeParse(testCase.jobset);
    if (!jobSet.success) {
      const diffs = jobSet.error.issues.map((issue) => ({
        at: 'parse',
        path: ['jobset', ...issue.path.map(String)].join('.'),
        expected: 'a JobSet accepted by JobSetSchema',
        actual: issue.message,
      }));
      return { id: testCase.id, file, diffs };
    }
    const errors = validateJobSet(defaultJobSet(jobSet.data), testCase.featureGates ?? {});
    return { id: testCase.id, file, diffs: compareErrors(testCase.expect, errors) };
  },
};
