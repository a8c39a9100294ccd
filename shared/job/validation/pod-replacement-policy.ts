import type { JobSpec } from '../../k8s/job.ts';
import { notSupported, type FieldError } from './field-error.ts';

/**
 * `spec.podReplacementPolicy` (upstream `validatePodReplacementPolicy`): `Failed` or
 * `TerminatingOrFailed`, and only `Failed` with a pod failure policy. Unset is valid (batch/v1
 * defaults it); an explicit `""` is not.
 */
export function validatePodReplacementPolicy(spec: JobSpec): FieldError[] {
  const policy = spec.podReplacementPolicy;
  if (policy === undefined) return [];
  if (spec.podFailurePolicy !== undefined) {
    return policy === 'Failed' ? [] : [notSupported('spec.podReplacementPolicy', policy, ['Failed'])];
  }
  if (policy === 'Failed' || policy === 'TerminatingOrFailed') return [];
  return [notSupported('spec.podReplacementPolicy', policy, ['Failed', 'TerminatingOrFailed'])];
}
