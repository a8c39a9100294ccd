import type { DefaultedJobSet, DefaultedJobSetSpec } from './defaulting.ts';
import { isDns1035Label, isDns1123Subdomain, isDomainPrefixedPath, maxLenError } from './dns-names.ts';
import { validateCoordinator } from './coordinator-validation.ts';
import { validateSchema } from './crd-validation.ts';
import { validateFailurePolicy } from './failure-policy-validation.ts';
import { invalid, type JobSetFeatureGates, type JobSetValidationError } from './validation-error.ts';

const MAX_INT32 = 2147483647;
const MAX_MANAGED_BY_LENGTH = 63;
const TOO_LONG_63 = maxLenError(63);

/**
 * Validates a defaulted JobSet as admission does on create: the CRD schema's enums and list keys,
 * then the webhook's `ValidateCreate` (pkg/webhooks/jobset_webhook.go). Returns every violation;
 * an empty list means the JobSet is accepted. Gates default to upstream's (all off).
 */
export function validateJobSet(
  jobSet: DefaultedJobSet,
  gates: JobSetFeatureGates = {},
): JobSetValidationError[] {
  const { spec } = jobSet;
  const errors = [...validateSchema(spec)];
  const restartStrategy = spec.failurePolicy?.restartStrategy;
  if (restartStrategy === 'InPlaceRestart' && gates.InPlaceRestart !== true) {
    errors.push(
      invalid(
        'spec.failurePolicy.restartStrategy',
        'InPlaceRestart restart strategy cannot be set when InPlaceRestart feature gate is disabled',
        restartStrategy,
      ),
    );
  }
  // Go's nil: an empty list on the first replicated job is refused too.
  if (spec.replicatedJobs[0]?.dependsOn !== undefined) {
    errors.push(invalid('spec.replicatedJobs[0].dependsOn', "DependsOn can't be set for the first ReplicatedJob"));
  }
  const subdomain = spec.network.subdomain;
  if (subdomain !== undefined && subdomain !== '') {
    const path = 'spec.network.subdomain';
    for (const detail of isDns1123Subdomain(subdomain)) errors.push(invalid(path, detail, subdomain));
    for (const detail of isDns1035Label(subdomain)) {
      const message = detail.includes(TOO_LONG_63)
        ? '.spec.network.subdomain is too long, must be less than 63 characters'
        : detail;
      errors.push(invalid(path, message, subdomain));
    }
  }
  if (spec.managedBy !== undefined) {
    for (const { value, detail } of isDomainPrefixedPath(spec.managedBy)) {
      errors.push(invalid('spec.managedBy', detail, value));
    }
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH) {
      errors.push({
        field: 'spec.managedBy',
        type: 'FieldValueTooLong',
        detail: `may not be more than ${MAX_MANAGED_BY_LENGTH} bytes`,
        badValue: spec.managedBy,
      });
    }
  }
  errors.push(...validateReplicatedJobs(jobSet.metadata.name, spec));
  const names = new Set(spec.replicatedJobs.map((rjob) => rjob.name));
  spec.successPolicy.targetReplicatedJobs.forEach((name, j) => {
    if (!names.has(name)) {
      errors.push(
        invalid(
          `spec.successPolicy.targetReplicatedJobs[${j}]`,
          `invalid replicatedJob name '${name}' does not appear in .spec.ReplicatedJobs`,
          name,
        ),
      );
    }
  });
  errors.push(...validateFailurePolicy(spec, names, gates));
  errors.push(...validateCoordinator(jobSet));
  return errors;
}

/** The per-replicatedJob checks of `ValidateCreate`. */
function validateReplicatedJobs(jobSetName: string, spec: DefaultedJobSetSpec): JobSetValidationError[] {
  const errors: JobSetValidationError[] = [];
  // Names of this replicated job and those before it: what a dependsOn may name. A dependency
  // on a later one (so any cycle) is refused; one on itself is not, as upstream.
  const earlier = new Set<string>();
  spec.replicatedJobs.forEach((rjob, index) => {
    const path = `spec.replicatedJobs[${index}]`;
    earlier.add(rjob.name);
    const parallelism = rjob.template.spec.parallelism ?? 1;
    if (parallelism * rjob.replicas > MAX_INT32) {
      errors.push(
        invalid(
          `${path}.replicas`,
          `the product of replicas and parallelism must not exceed ${MAX_INT32} for replicatedJob '${rjob.name}'`,
          rjob.replicas,
        ),
      );
    }
    for (const detail of isDns1035Label(rjob.groupName)) {
      const message = detail.includes(TOO_LONG_63)
        ? '.spec.replicatedJob[].groupName is too long, must be less than 63 characters'
        : detail;
      errors.push(invalid(`${path}.groupName`, message, rjob.groupName));
    }
    // The last job index gives the longest generated name.
    const longestJobName = `${jobSetName}-${rjob.name}-${rjob.replicas - 1}`;
    for (const detail of isDns1035Label(longestJobName)) {
      const message = detail.includes(TOO_LONG_63)
        ? 'JobSet name is too long, job names generated for this JobSet will exceed 63 characters'
        : detail;
      errors.push(invalid(`${path}.name`, message, longestJobName));
    }
    const completions = rjob.template.spec.completions;
    if (rjob.template.spec.completionMode === 'Indexed' && completions !== undefined) {
      const longestPodName = `${longestJobName}-${completions - 1}-abcde`;
      for (const detail of isDns1035Label(longestPodName)) {
        const message = detail.includes(TOO_LONG_63)
          ? 'JobSet name is too long, pod names generated for this JobSet will exceed 63 characters'
          : detail;
        // Upstream reports the job name as the bad value here too.
        errors.push(invalid(`${path}.name`, message, longestJobName));
      }
    }
    (rjob.dependsOn ?? []).forEach((dependency, j) => {
      if (earlier.has(dependency.name)) return;
      const detail = `replicatedJob: ${rjob.name} cannot depend on replicatedJob: ${dependency.name}`;
      errors.push(invalid(`${path}.dependsOn[${j}].name`, detail, dependency.name));
    });
  });
  return errors;
}
