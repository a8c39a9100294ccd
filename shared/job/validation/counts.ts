import type { JobSpec } from '../../k8s/job.ts';
import { required, validateNonnegativeField, type FieldError } from './field-error.ts';

/**
 * The non-negative counters of a JobSpec (upstream `validateJobSpec`, first block):
 * `parallelism`, `completions`, `activeDeadlineSeconds`, `backoffLimit`,
 * `ttlSecondsAfterFinished`, `backoffLimitPerIndex`, `maxFailedIndexes`; and
 * `maxFailedIndexes` only together with `backoffLimitPerIndex`.
 */
export function validateCounts(spec: JobSpec): FieldError[] {
  const errors = [
    ...validateNonnegativeField(spec.parallelism, 'spec.parallelism'),
    ...validateNonnegativeField(spec.completions, 'spec.completions'),
    ...validateNonnegativeField(spec.activeDeadlineSeconds, 'spec.activeDeadlineSeconds'),
    ...validateNonnegativeField(spec.backoffLimit, 'spec.backoffLimit'),
    // Not read by the Job controller (the TTL controller is), but rejected by the API server alike.
    ...validateNonnegativeField(spec.ttlSecondsAfterFinished, 'spec.ttlSecondsAfterFinished'),
    ...validateNonnegativeField(spec.backoffLimitPerIndex, 'spec.backoffLimitPerIndex'),
    ...validateNonnegativeField(spec.maxFailedIndexes, 'spec.maxFailedIndexes'),
  ];
  if (spec.maxFailedIndexes !== undefined && spec.backoffLimitPerIndex === undefined) {
    errors.push(required('spec.backoffLimitPerIndex', 'when maxFailedIndexes is specified'));
  }
  return errors;
}
