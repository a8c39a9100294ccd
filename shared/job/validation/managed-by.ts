import type { JobSpec } from '../../k8s/job.ts';
import { tooLongMaxLength, type FieldError } from './field-error.ts';
import { validateDomainPrefixedPath } from './name-formats.ts';
import { utf8Length } from './go-format.ts';

/** Upstream `maxManagedByLength`. */
export const MAX_MANAGED_BY_LENGTH = 63;

/** `spec.managedBy`: a domain-prefixed path (`example.com/foo`) of at most 63 bytes. */
export function validateManagedBy(spec: JobSpec): FieldError[] {
  const managedBy = spec.managedBy;
  if (managedBy === undefined) return [];
  const errors = validateDomainPrefixedPath('spec.managedBy', managedBy);
  if (utf8Length(managedBy) > MAX_MANAGED_BY_LENGTH) {
    errors.push(tooLongMaxLength('spec.managedBy', managedBy, MAX_MANAGED_BY_LENGTH));
  }
  return errors;
}
