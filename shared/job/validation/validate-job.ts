import type { Job } from '../../k8s/job.ts';
import { validateCompletionMode } from './completions.ts';
import { validateCounts } from './counts.ts';
import type { FieldError } from './field-error.ts';
import { validateManagedBy } from './managed-by.ts';
import { validateContainerNames } from './pod-template-containers.ts';
import { validatePodFailurePolicy } from './pod-failure-policy.ts';
import { validatePodReplacementPolicy } from './pod-replacement-policy.ts';
import { validateRestartPolicy } from './restart-policy.ts';
import { validateSuccessPolicy } from './success-policy.ts';

/** Feature gates and API-server options that change what validation accepts. */
export interface ValidationOptions {
  readonly gates: {
    /** KEP-4443 `podFailurePolicy.rules[].name`; off: names are not validated (see pod-failure-policy-name.ts). */
    readonly PodFailurePolicyName: boolean;
  };
  /** Upstream `AllowElasticIndexedJobs`: Indexed jobs may change `completions` with `parallelism`. Default true (GA since v1.31). */
  readonly allowElasticIndexedJobs?: boolean;
}

/**
 * Create validation (upstream `ValidateJob`), limited to the Job-level fields jobfold
 * interprets: the counters, `managedBy`, `completionMode` and its limits, the pod failure and
 * success policies, `podReplacementPolicy`, the template's `restartPolicy` and container names.
 * Other pod template contents and selectors are not checked; metadata is checked at ingest
 * (object-meta.ts).
 *
 * Returns every violation, in upstream's order (empty when valid); never throws.
 */
export function validateJob(job: Job, options: ValidationOptions): FieldError[] {
  return validateJobSpec(job, options);
}

/** Upstream `validateJobSpec`, in its order; shared by create and update validation. */
export function validateJobSpec(job: Job, options: ValidationOptions): FieldError[] {
  const spec = job.spec;
  return [
    ...validateCounts(spec),
    ...validateManagedBy(spec),
    ...validateCompletionMode(spec),
    ...validatePodFailurePolicy(spec, { validateRuleNames: options.gates.PodFailurePolicyName }),
    ...validateSuccessPolicy(spec),
    ...validatePodReplacementPolicy(spec),
    ...validateRestartPolicy(spec),
    ...validateContainerNames(spec),
  ];
}
