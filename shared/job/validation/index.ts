/**
 * Job spec validation with upstream Kubernetes field paths, error types and messages
 * (pkg/apis/batch/validation), for the Job-level fields jobfold interprets.
 */
export type { FieldError, FieldErrorType } from './field-error.ts';
export { validateIndexesFormat, type IndexesFormatResult } from '../../indexes/index-set.ts';
export { validateJobUpdate } from './update.ts';
export { validateJob, type ValidationOptions } from './validate-job.ts';
