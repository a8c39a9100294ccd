import type * as z from 'zod';
import { JobSchema, type Job, type JobSpecSchema } from '../../../shared/k8s/job.ts';
import type { ValidationOptions } from '../../../shared/job/validation/index.ts';
import type { FieldError } from '../../../shared/job/validation/index.ts';

type JobSpecInput = z.input<typeof JobSpecSchema>;

/**
 * A valid NonIndexed Job (container `main`, init container `setup`, restartPolicy Never) with
 * the given spec fields laid over it, parsed with JobSchema like any input. A `null`
 * restartPolicy leaves it unset.
 */
export function aJob(spec: Partial<JobSpecInput> = {}, restartPolicy: string | null = 'Never'): Job {
  return JobSchema.parse({
    metadata: { name: 'myjob' },
    spec: {
      template: {
        spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox' }], initContainers: [{ name: 'setup' }] },
      },
      ...spec,
    },
  });
}

/** An Indexed Job with `completions`, plus the given fields. */
export function anIndexedJob(completions: number, spec: Partial<JobSpecInput> = {}): Job {
  return aJob({ completionMode: 'Indexed', completions, ...spec });
}

export const GATE_ON: ValidationOptions = { gates: { PodFailurePolicyName: true } };
export const GATE_OFF: ValidationOptions = { gates: { PodFailurePolicyName: false } };

/** `field type` of each error, the pair upstream's update tests compare. */
export function fieldsAndTypes(errors: readonly FieldError[]): string[] {
  return errors.map((error) => `${error.field} ${error.type}`);
}
