import type { Job, JobSpec, PodFailurePolicy } from '../../k8s/job.ts';
import { FIELD_IMMUTABLE_ERROR_MSG, invalid, type FieldError } from './field-error.ts';
import { isSemanticallyEqual } from './semantic-equal.ts';
import { validateJobSpec, type ValidationOptions } from './validate-job.ts';

/**
 * Update validation (upstream `ValidateJobUpdate` / `ValidateJobSpecUpdate`), Job-level scope:
 * every create rule on the new object, then immutability of `completions` (except elastic
 * Indexed jobs), `completionMode`, `podFailurePolicy`, `backoffLimitPerIndex`, `managedBy` and
 * `successPolicy`. `parallelism`, `activeDeadlineSeconds`, `maxFailedIndexes`, `suspend` and
 * the like stay mutable.
 *
 * Returns every violation, in upstream's order (empty when valid); never throws.
 */
export function validateJobUpdate(job: Job, oldJob: Job, options: ValidationOptions): FieldError[] {
  const spec = job.spec;
  const oldSpec = oldJob.spec;
  return [
    ...validateJobSpec(job, options),
    ...validateCompletionsUpdate(spec, oldSpec, options.allowElasticIndexedJobs ?? true),
    ...validateImmutableField(spec.completionMode, oldSpec.completionMode, 'spec.completionMode'),
    ...validateImmutableField(
      comparablePodFailurePolicy(spec.podFailurePolicy, oldSpec.podFailurePolicy, options),
      oldSpec.podFailurePolicy,
      'spec.podFailurePolicy',
      spec.podFailurePolicy,
    ),
    ...validateImmutableField(spec.backoffLimitPerIndex, oldSpec.backoffLimitPerIndex, 'spec.backoffLimitPerIndex'),
    ...validateImmutableField(spec.managedBy, oldSpec.managedBy, 'spec.managedBy'),
    ...validateImmutableField(spec.successPolicy, oldSpec.successPolicy, 'spec.successPolicy'),
  ];
}

/**
 * Upstream `validateCompletions`: `completions` is immutable, except that an Indexed job may
 * change it when elastic Indexed jobs are allowed, and then only to its `parallelism`.
 */
function validateCompletionsUpdate(spec: JobSpec, oldSpec: JobSpec, allowElasticIndexedJobs: boolean): FieldError[] {
  const path = 'spec.completions';
  if (!allowElasticIndexedJobs || spec.completionMode !== 'Indexed') {
    return validateImmutableField(spec.completions, oldSpec.completions, path);
  }
  // Unchanged, or removed: the latter is already reported as Required by the spec rules.
  if (spec.completions === oldSpec.completions || spec.completions === undefined) return [];
  // batch/v1 defaults an unset parallelism to 1 (upstream would dereference nil here).
  if (spec.completions !== (spec.parallelism ?? 1)) {
    return [invalid(path, spec.completions, 'can only be modified in tandem with spec.parallelism')];
  }
  return [];
}

/** Upstream `ValidateImmutableField`: the bad value is the new one (`reported`, if given). */
function validateImmutableField(newValue: unknown, oldValue: unknown, path: string, reported: unknown = newValue): FieldError[] {
  return isSemanticallyEqual(newValue, oldValue) ? [] : [invalid(path, reported, FIELD_IMMUTABLE_ERROR_MSG)];
}

/**
 * With the PodFailurePolicyName gate off, an API server drops rule names from an update
 * unless the stored policy already uses them (upstream's dropDisabledFields pattern), so names
 * newly added to an unnamed policy do not count as a change.
 */
function comparablePodFailurePolicy(
  policy: PodFailurePolicy | undefined,
  oldPolicy: PodFailurePolicy | undefined,
  options: ValidationOptions,
): PodFailurePolicy | undefined {
  if (options.gates.PodFailurePolicyName || policy === undefined) return policy;
  if (oldPolicy?.rules.some((rule) => rule.name !== undefined)) return policy;
  return { rules: policy.rules.map((rule) => ({ ...rule, name: undefined })) };
}
