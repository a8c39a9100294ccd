import { isValidLabelValue } from '../job/validation/name-formats.ts';
import { LABELS } from './constants.ts';
import { coordinatorEndpoint } from './coordinator.ts';
import type { DefaultedJobSet } from './defaulting.ts';
import { invalid, type JobSetValidationError } from './validation-error.ts';

/**
 * The webhook's checks of `spec.coordinator` (`validateCoordinator`, which reports only its first
 * error, then `validateCoordinatorLabelValue`). Upstream reports these as plain errors without a
 * field; each is put on the field it is about, with upstream's message.
 */
export function validateCoordinator(jobSet: DefaultedJobSet): JobSetValidationError[] {
  const coordinator = jobSet.spec.coordinator;
  if (coordinator === undefined) return [];
  const errors: JobSetValidationError[] = [];
  const first = firstCoordinatorError(jobSet);
  if (first !== undefined) errors.push(first);
  const endpoint = coordinatorEndpoint(jobSet) ?? '';
  const problems = isValidLabelValue(endpoint);
  if (problems.length > 0) {
    const detail = `spec will lead to invalid label value ${goQuote(endpoint)} for coordinator label ${goQuote(LABELS.coordinator)} (long JobSet / ReplicatedJob / SubDomain name?): ${problems.join(', ')}`;
    errors.push(invalid('spec.coordinator', detail, endpoint));
  }
  return errors;
}

function firstCoordinatorError(jobSet: DefaultedJobSet): JobSetValidationError | undefined {
  const { replicatedJob, jobIndex, podIndex } = jobSet.spec.coordinator!;
  const index = jobSet.spec.replicatedJobs.findIndex((rjob) => rjob.name === replicatedJob);
  const rjob = jobSet.spec.replicatedJobs[index];
  if (rjob === undefined) {
    return invalid('spec.coordinator.replicatedJob', `coordinator replicatedJob ${replicatedJob} does not exist`, replicatedJob);
  }
  if (jobIndex < 0 || jobIndex >= rjob.replicas) {
    return invalid('spec.coordinator.jobIndex', `coordinator job index ${jobIndex} is invalid for replicatedJob ${rjob.name}`, jobIndex);
  }
  const { completionMode, completions } = rjob.template.spec;
  if (completionMode !== 'Indexed' || completions === undefined) {
    return invalid(
      `spec.replicatedJobs[${index}].template.spec`,
      'job for coordinator pod must be indexed completion mode, and completions number must be set',
    );
  }
  if (podIndex < 0 || podIndex >= completions) {
    return invalid(
      'spec.coordinator.podIndex',
      `coordinator pod index ${podIndex} is invalid for replicatedJob ${replicatedJob} job index ${jobIndex}`,
      podIndex,
    );
  }
  return undefined;
}

/** Go's `%q` for the printable ASCII a label value and a label key are made of. */
const goQuote = (value: string): string => JSON.stringify(value);
