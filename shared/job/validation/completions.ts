import type { JobSpec } from '../../k8s/job.ts';
import { invalid, notSupported, required, type FieldError } from './field-error.ts';

/** Upstream `maxParallelismForIndexedJob`: caps the length of `status.completedIndexes`. */
export const MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
/** Upstream `maxFailedIndexesForIndexedJob`. */
export const MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000;
/** Upstream `completionsSoftLimit`: above it, per-index backoff needs tighter limits. */
export const COMPLETIONS_SOFT_LIMIT = 100_000;
/** Upstream `parallelismLimitForHighCompletions`. */
export const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
/** Upstream `maxFailedIndexesLimitForHighCompletions`. */
export const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;

const HIGH_COMPLETIONS_SUFFIX = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;

/**
 * `completionMode` and the limits that depend on it (upstream `validateJobSpec`): Indexed jobs
 * need `completions` and bound `parallelism` and `maxFailedIndexes`; `backoffLimitPerIndex` and
 * `maxFailedIndexes` need Indexed. An unsupported mode gets neither set of checks, as upstream.
 */
export function validateCompletionMode(spec: JobSpec): FieldError[] {
  const mode = spec.completionMode;
  const errors: FieldError[] = [];
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') {
    errors.push(notSupported('spec.completionMode', mode, ['NonIndexed', 'Indexed']));
  }
  if (mode === 'Indexed') errors.push(...validateIndexedLimits(spec));
  if (mode === undefined || mode === 'NonIndexed') {
    if (spec.backoffLimitPerIndex !== undefined) {
      errors.push(invalid('spec.backoffLimitPerIndex', spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    }
    if (spec.maxFailedIndexes !== undefined) {
      errors.push(invalid('spec.maxFailedIndexes', spec.maxFailedIndexes, 'requires indexed completion mode'));
    }
  }
  return errors;
}

function validateIndexedLimits(spec: JobSpec): FieldError[] {
  const { completions, parallelism, maxFailedIndexes, backoffLimitPerIndex } = spec;
  const errors: FieldError[] = [];
  if (completions === undefined) errors.push(required('spec.completions', 'when completion mode is Indexed'));
  if (parallelism !== undefined && parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
    errors.push(
      invalid('spec.parallelism', parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`),
    );
  }
  if (completions !== undefined && maxFailedIndexes !== undefined && maxFailedIndexes > completions) {
    errors.push(invalid('spec.maxFailedIndexes', maxFailedIndexes, 'must be less than or equal to completions'));
  }
  if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
    errors.push(invalid('spec.maxFailedIndexes', maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED_JOB}`));
  }
  if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && backoffLimitPerIndex !== undefined) {
    if (maxFailedIndexes === undefined) {
      errors.push(required('spec.maxFailedIndexes', `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
    }
    if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
      errors.push(
        invalid('spec.parallelism', parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${HIGH_COMPLETIONS_SUFFIX}`),
      );
    }
    if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
      errors.push(
        invalid(
          'spec.maxFailedIndexes',
          maxFailedIndexes,
          `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} ${HIGH_COMPLETIONS_SUFFIX}`,
        ),
      );
    }
  }
  return errors;
}
