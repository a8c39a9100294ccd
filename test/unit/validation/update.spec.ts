import { describe, expect, it } from 'vitest';
import { validateJobUpdate } from '../../../shared/job/validation/index.ts';
import { aJob, anIndexedJob, fieldsAndTypes, GATE_OFF, GATE_ON } from './a-job.ts';

const ELASTIC_OFF = { ...GATE_OFF, allowElasticIndexedJobs: false };
const disruption = { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] };

describe('validateJobUpdate', () => {
  it.each([
    ['parallelism, deadline and ttl', aJob({ parallelism: 5, activeDeadlineSeconds: 2 }), aJob({ parallelism: 2, activeDeadlineSeconds: 3, ttlSecondsAfterFinished: 1 })],
    ['suspend', aJob({ suspend: false }), aJob({ suspend: true })],
    ['maxFailedIndexes', anIndexedJob(3, { backoffLimitPerIndex: 1, maxFailedIndexes: 1 }), anIndexedJob(3, { backoffLimitPerIndex: 1, maxFailedIndexes: 2 })],
    ['Indexed completions in tandem with parallelism', anIndexedJob(1, { parallelism: 1 }), anIndexedJob(2, { parallelism: 2 })],
    ['Indexed parallelism alone', anIndexedJob(2, { parallelism: 2 }), anIndexedJob(2, { parallelism: 3 })],
    ['nothing, with an unset list equal to an empty one', aJob({ podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } }] } }), aJob({ podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] }, onPodConditions: [] }] } })],
  ])('allows changing %s', (_name, oldJob, job) => {
    expect(validateJobUpdate(job, oldJob, GATE_OFF)).toEqual([]);
  });

  it.each([
    ['completionMode', anIndexedJob(2), aJob({ completionMode: 'NonIndexed', completions: 2 }), ['spec.completionMode FieldValueInvalid']],
    ['NonIndexed completions', aJob({ completions: 2 }), aJob({ completions: 4 }), ['spec.completions FieldValueInvalid']],
    ['Indexed completions apart from parallelism', anIndexedJob(1, { parallelism: 1 }), anIndexedJob(2, { parallelism: 3 }), ['spec.completions FieldValueInvalid']],
    ['Indexed completions to nil', anIndexedJob(1, { parallelism: 1 }), aJob({ completionMode: 'Indexed', parallelism: 3 }), ['spec.completions FieldValueRequired']],
    ['backoffLimitPerIndex', anIndexedJob(3, { backoffLimitPerIndex: 1 }), anIndexedJob(3, { backoffLimitPerIndex: 2 }), ['spec.backoffLimitPerIndex FieldValueInvalid']],
    ['managedBy', aJob({ managedBy: 'example.com/a' }), aJob({ managedBy: 'example.com/b' }), ['spec.managedBy FieldValueInvalid']],
    ['podFailurePolicy (added)', aJob(), aJob({ podFailurePolicy: { rules: [disruption] } }), ['spec.podFailurePolicy FieldValueInvalid']],
    ['podFailurePolicy (removed)', aJob({ podFailurePolicy: { rules: [disruption] } }), aJob(), ['spec.podFailurePolicy FieldValueInvalid']],
    ['successPolicy', anIndexedJob(5, { successPolicy: { rules: [{ succeededIndexes: '1-3' }] } }), anIndexedJob(5, { successPolicy: { rules: [{ succeededIndexes: '1-4' }] } }), ['spec.successPolicy FieldValueInvalid']],
  ])('rejects changing %s', (_name, oldJob, job, expected) => {
    expect(fieldsAndTypes(validateJobUpdate(job, oldJob, GATE_OFF))).toEqual(expected);
  });

  it('keeps Indexed completions immutable when elastic Indexed jobs are not allowed', () => {
    const errors = validateJobUpdate(anIndexedJob(2, { parallelism: 2 }), anIndexedJob(1, { parallelism: 1 }), ELASTIC_OFF);

    expect(errors.map((error) => error.message)).toEqual(['spec.completions: Invalid value: 2: field is immutable']);
  });

  it('reports a removed field with the value "null"', () => {
    const errors = validateJobUpdate(anIndexedJob(3), anIndexedJob(3, { backoffLimitPerIndex: 1 }), GATE_OFF);

    expect(errors.map((error) => error.message)).toEqual(['spec.backoffLimitPerIndex: Invalid value: "null": field is immutable']);
  });

  it('reports a tandem violation with upstream’s message', () => {
    const errors = validateJobUpdate(anIndexedJob(2, { parallelism: 3 }), anIndexedJob(1, { parallelism: 1 }), GATE_OFF);

    expect(errors.map((error) => error.message)).toEqual(['spec.completions: Invalid value: 2: can only be modified in tandem with spec.parallelism']);
  });

  it('applies the create rules to the new object', () => {
    const errors = validateJobUpdate(aJob({ parallelism: -1 }), aJob({ parallelism: 1 }), GATE_OFF);

    expect(fieldsAndTypes(errors)).toEqual(['spec.parallelism FieldValueInvalid']);
  });

  describe('rule names', () => {
    const named = aJob({ podFailurePolicy: { rules: [{ ...disruption, name: 'Disrupted' }] } });
    const unnamed = aJob({ podFailurePolicy: { rules: [disruption] } });

    it('treats a renamed rule as a changed policy', () => {
      const renamed = aJob({ podFailurePolicy: { rules: [{ ...disruption, name: 'Other' }] } });

      expect(fieldsAndTypes(validateJobUpdate(renamed, named, GATE_ON))).toEqual(['spec.podFailurePolicy FieldValueInvalid']);
    });

    it('ignores names added with the gate off, which the API server would drop', () => {
      expect(validateJobUpdate(named, unnamed, GATE_OFF)).toEqual([]);
    });

    it('rejects names added with the gate on', () => {
      expect(fieldsAndTypes(validateJobUpdate(named, unnamed, GATE_ON))).toEqual(['spec.podFailurePolicy FieldValueInvalid']);
    });

    it('rejects removing names in use, even with the gate off', () => {
      expect(fieldsAndTypes(validateJobUpdate(unnamed, named, GATE_OFF))).toEqual(['spec.podFailurePolicy FieldValueInvalid']);
    });
  });
});
