import { describe, expect, it } from 'vitest';
import { validateJob } from '../../../shared/job/validation/index.ts';
import { aJob, fieldsAndTypes, GATE_OFF } from './a-job.ts';

const disruptionPolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] };

describe('managedBy', () => {
  it.each(['example.com/foo', 'kueue.x-k8s.io/multikueue', 'acme.io/a/b~c'])('accepts %s', (managedBy) => {
    expect(validateJob(aJob({ managedBy }), GATE_OFF)).toEqual([]);
  });

  it.each([
    ['not a path', 'invalid custom controller name', ['spec.managedBy: Invalid value: "invalid custom controller name": must be a domain-prefixed path (such as "acme.io/foo")']],
    ['empty', '', ['spec.managedBy: Required value']],
    ['an uppercase domain', 'Example.com/foo', [`spec.managedBy: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`]],
    ['a path with a space', 'example.com/a b', [`spec.managedBy: Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')`]],
    ['longer than 63', `example.com/${'a'.repeat(52)}`, ['spec.managedBy: Too long: may not be longer than 63']],
  ])('rejects %s', (_name, managedBy, messages) => {
    expect(validateJob(aJob({ managedBy }), GATE_OFF).map((error) => error.message)).toEqual(messages);
  });
});

describe('podReplacementPolicy', () => {
  it.each([
    ['TerminatingOrFailed', aJob({ podReplacementPolicy: 'TerminatingOrFailed' })],
    ['Failed', aJob({ podReplacementPolicy: 'Failed' })],
    ['Failed with a pod failure policy', aJob({ podReplacementPolicy: 'Failed', podFailurePolicy: disruptionPolicy })],
    ['unset with a pod failure policy', aJob({ podFailurePolicy: disruptionPolicy })],
  ])('accepts %s', (_name, job) => {
    expect(validateJob(job, GATE_OFF)).toEqual([]);
  });

  it.each([
    ['an empty value', aJob({ podReplacementPolicy: '' }), 'spec.podReplacementPolicy: Unsupported value: "": supported values: "Failed", "TerminatingOrFailed"'],
    [
      'TerminatingOrFailed with a pod failure policy',
      aJob({ podReplacementPolicy: 'TerminatingOrFailed', podFailurePolicy: disruptionPolicy }),
      'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
    ],
  ])('rejects %s', (_name, job, message) => {
    expect(validateJob(job, GATE_OFF).map((error) => error.message)).toEqual([message]);
  });
});

describe('restartPolicy', () => {
  it.each(['OnFailure', 'Never'])('accepts %s', (restartPolicy) => {
    expect(validateJob(aJob({}, restartPolicy), GATE_OFF)).toEqual([]);
  });

  it.each([
    ['Always', aJob({}, 'Always'), 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ['unset', aJob({}, null), 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ['an unknown value', aJob({}, 'Sometimes'), 'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"'],
    ['OnFailure with a pod failure policy', aJob({ podFailurePolicy: disruptionPolicy }, 'OnFailure'), 'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified'],
  ])('rejects %s', (_name, job, message) => {
    expect(validateJob(job, GATE_OFF).map((error) => error.message)).toEqual([message]);
  });
});

describe('validateJob', () => {
  it('returns every violation at once, in upstream’s order', () => {
    const job = aJob({ parallelism: -1, backoffLimit: -1, managedBy: 'x', podReplacementPolicy: '' }, 'Always');

    expect(fieldsAndTypes(validateJob(job, GATE_OFF))).toEqual([
      'spec.parallelism FieldValueInvalid',
      'spec.backoffLimit FieldValueInvalid',
      'spec.managedBy FieldValueInvalid',
      'spec.podReplacementPolicy FieldValueNotSupported',
      'spec.template.spec.restartPolicy FieldValueRequired',
    ]);
  });
});
