import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateJob, validateJobUpdate } from '../../../shared/job/validation/index.ts';
import { aJob } from './a-job.ts';

const int = fc.oneof(fc.integer({ min: -3, max: 12 }), fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }));
const word = fc.oneof(fc.constantFrom('', 'In', 'NotIn', 'FailJob', 'FailIndex', 'Count', 'Ignore', 'True', 'main', '0', '1'), fc.string());
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const rule = fc.record({
  name: maybe(word),
  action: maybe(word),
  onExitCodes: maybe(fc.record({ containerName: maybe(word), operator: maybe(word), values: fc.array(int, { maxLength: 5 }) })),
  onPodConditions: maybe(fc.array(fc.record({ type: maybe(word), status: maybe(word) }), { maxLength: 3 })),
});

const spec = fc.record({
  parallelism: maybe(int),
  completions: maybe(int),
  backoffLimitPerIndex: maybe(int),
  maxFailedIndexes: maybe(int),
  completionMode: maybe(fc.constantFrom('Indexed', 'NonIndexed', 'Other')),
  managedBy: maybe(word),
  podReplacementPolicy: maybe(word),
  podFailurePolicy: maybe(fc.record({ rules: fc.array(rule, { maxLength: 4 }) })),
  successPolicy: maybe(
    fc.record({
      rules: fc.array(fc.record({ succeededIndexes: maybe(fc.oneof(fc.stringMatching(/^[0-9,+-]{0,12}$/), fc.string())), succeededCount: maybe(int) }), { maxLength: 3 }),
    }),
  ),
});

const options = fc.record({ gates: fc.record({ PodFailurePolicyName: fc.boolean() }), allowElasticIndexedJobs: fc.boolean() });

describe('validation on arbitrary input', () => {
  it('never throws and prefixes every message with its field path', () => {
    fc.assert(
      fc.property(spec, spec, fc.constantFrom('Never', 'OnFailure', 'Always'), options, (newSpec, oldSpec, restartPolicy, opts) => {
        const job = aJob(newSpec, restartPolicy);
        const errors = [...validateJob(job, opts), ...validateJobUpdate(job, aJob(oldSpec), opts)];

        for (const error of errors) expect(error.message.startsWith(`${error.field}: `)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts every update that changes nothing when the job itself is valid', () => {
    fc.assert(
      fc.property(spec, options, (jobSpec, opts) => {
        const job = aJob(jobSpec);
        const createErrors = validateJob(job, opts);

        expect(validateJobUpdate(job, aJob(jobSpec), opts)).toEqual(createErrors);
      }),
      { numRuns: 300 },
    );
  });
});
