import { describe, expect, it } from 'vitest';
import { validateJob } from '../../../shared/job/validation/index.ts';
import { aJob, fieldsAndTypes, GATE_OFF, GATE_ON } from './a-job.ts';

/** The seed's Story 2 Job with the rule names varied; `undefined` leaves a rule unnamed. */
const story2 = (...names: (string | undefined)[]) =>
  aJob({
    parallelism: 1,
    completions: 1,
    backoffLimit: 0,
    podFailurePolicy: {
      rules: names.map((name, i) => ({
        name,
        action: 'FailJob',
        onExitCodes: { containerName: 'main', operator: 'In', values: [i + 2] },
      })),
    },
  });

describe('pod failure policy rule names (KEP-4443)', () => {
  it.each([
    ['the seed’s names', story2('ExitCode2', 'ExitCode3')],
    ['unnamed rules', story2(undefined, undefined)],
    ['each rule named with its own index', story2('0', '1')],
    ['a lowerCamelCase name', story2('exitCode2')],
    ['a name with _ , and :', story2('Exit_Code:2,3')],
    ['a 111-character name (a 128-character reason)', story2('A'.repeat(111))],
  ])('accepts %s', (_name, job) => {
    expect(validateJob(job, GATE_ON)).toEqual([]);
  });

  it.each([
    ['a repeated name, on the later rule', story2('ExitCode2', 'ExitCode2'), ['spec.podFailurePolicy.rules[1].name FieldValueDuplicate']],
    ['another rule’s index', story2('1', undefined), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
    ['a named rule’s index', story2('1', 'ExitCode3'), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
    ['a digit name beyond the last index', story2('5'), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
    ['the own index with a leading zero', story2('00'), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
    ['an empty name', story2(''), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
    ['a 112-character name (a 129-character reason)', story2('A'.repeat(112)), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
    ['a name with spaces', story2('Exit Code 2'), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
    ['a name ending in a comma', story2('ExitCode,'), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
    ['a controller reason', story2('BackoffLimitExceeded'), ['spec.podFailurePolicy.rules[0].name FieldValueInvalid']],
  ])('rejects %s', (_name, job, expected) => {
    expect(fieldsAndTypes(validateJob(job, GATE_ON))).toEqual(expected);
  });

  it('names the reason that would be invalid', () => {
    const [error] = validateJob(story2('Exit Code 2'), GATE_ON);

    expect(error?.detail).toMatch(/^the reason "PodFailurePolicy_Exit Code 2" is not a valid condition reason: a condition reason must start/);
  });

  it('ignores names when the PodFailurePolicyName gate is off, as the API server drops them', () => {
    expect(validateJob(story2('ExitCode2', 'ExitCode2'), GATE_OFF)).toEqual([]);
    expect(validateJob(story2('Exit Code 2'), GATE_OFF)).toEqual([]);
  });
});
