import type { JobSpec } from '../../k8s/job.ts';
import { invalid, notSupported, required, type FieldError } from './field-error.ts';

const PATH = 'spec.template.spec.restartPolicy';

/**
 * The Job-level check of the pod template's `restartPolicy` (end of upstream `validateJobSpec`):
 * `OnFailure` or `Never`, and `Never` with a pod failure policy. Unset counts as `Always`, the
 * pod default, and is reported as Required.
 */
export function validateRestartPolicy(spec: JobSpec): FieldError[] {
  const policy = spec.template.spec.restartPolicy ?? '';
  if (policy === 'Always' || policy === '') {
    return [required(PATH, 'valid values: "OnFailure", "Never"')];
  }
  if (policy !== 'OnFailure' && policy !== 'Never') {
    return [notSupported(PATH, policy, ['OnFailure', 'Never'])];
  }
  if (spec.podFailurePolicy !== undefined && policy !== 'Never') {
    return [invalid(PATH, policy, 'only "Never" is supported when podFailurePolicy is specified')];
  }
  return [];
}
