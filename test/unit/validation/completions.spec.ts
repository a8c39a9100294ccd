import { describe, expect, it } from 'vitest';
import { validateJob } from '../../../shared/job/validation/index.ts';
import { aJob, anIndexedJob, fieldsAndTypes, GATE_OFF } from './a-job.ts';

describe('counters', () => {
  it.each([
    ['parallelism', aJob({ parallelism: -1 }), 'spec.parallelism'],
    ['completions', aJob({ completions: -1 }), 'spec.completions'],
    ['activeDeadlineSeconds', aJob({ activeDeadlineSeconds: -1 }), 'spec.activeDeadlineSeconds'],
    ['backoffLimit', aJob({ backoffLimit: -1 }), 'spec.backoffLimit'],
    ['ttlSecondsAfterFinished', aJob({ ttlSecondsAfterFinished: -1 }), 'spec.ttlSecondsAfterFinished'],
    ['backoffLimitPerIndex', anIndexedJob(3, { backoffLimitPerIndex: -1 }), 'spec.backoffLimitPerIndex'],
    ['maxFailedIndexes', anIndexedJob(3, { backoffLimitPerIndex: 1, maxFailedIndexes: -1 }), 'spec.maxFailedIndexes'],
  ])('rejects a negative %s', (_name, job, field) => {
    const errors = validateJob(job, GATE_OFF);

    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(`${field}: Invalid value: -1: must be greater than or equal to 0`);
  });

  it('accepts zero everywhere', () => {
    const job = anIndexedJob(0, { parallelism: 0, activeDeadlineSeconds: 0, backoffLimit: 0, backoffLimitPerIndex: 0, maxFailedIndexes: 0 });

    expect(validateJob(job, GATE_OFF)).toEqual([]);
  });

  it('requires backoffLimitPerIndex when maxFailedIndexes is set', () => {
    const errors = validateJob(anIndexedJob(3, { maxFailedIndexes: 1 }), GATE_OFF);

    expect(errors.map((error) => error.message)).toEqual([
      'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
    ]);
  });
});

describe('completion mode', () => {
  it.each([
    ['an unsupported mode', aJob({ completionMode: 'Sometimes' }), ['spec.completionMode FieldValueNotSupported']],
    ['Indexed without completions', aJob({ completionMode: 'Indexed' }), ['spec.completions FieldValueRequired']],
    ['Indexed parallelism above 100000', anIndexedJob(2, { parallelism: 100_001 }), ['spec.parallelism FieldValueInvalid']],
    ['maxFailedIndexes above completions', anIndexedJob(10, { backoffLimitPerIndex: 1, maxFailedIndexes: 11 }), ['spec.maxFailedIndexes FieldValueInvalid']],
    [
      'maxFailedIndexes above 100000',
      anIndexedJob(100_001, { backoffLimitPerIndex: 1, maxFailedIndexes: 100_001 }),
      ['spec.maxFailedIndexes FieldValueInvalid', 'spec.maxFailedIndexes FieldValueInvalid'],
    ],
    ['high completions without maxFailedIndexes', anIndexedJob(100_001, { backoffLimitPerIndex: 1 }), ['spec.maxFailedIndexes FieldValueRequired']],
    [
      'high completions with parallelism above 10000',
      anIndexedJob(100_001, { backoffLimitPerIndex: 1, maxFailedIndexes: 1, parallelism: 10_001 }),
      ['spec.parallelism FieldValueInvalid'],
    ],
    ['backoffLimitPerIndex on a NonIndexed job', aJob({ backoffLimitPerIndex: 1 }), ['spec.backoffLimitPerIndex FieldValueInvalid']],
    [
      'maxFailedIndexes on a NonIndexed job',
      aJob({ completionMode: 'NonIndexed', backoffLimitPerIndex: 1, maxFailedIndexes: 1 }),
      ['spec.backoffLimitPerIndex FieldValueInvalid', 'spec.maxFailedIndexes FieldValueInvalid'],
    ],
  ])('rejects %s', (_name, job, expected) => {
    expect(fieldsAndTypes(validateJob(job, GATE_OFF))).toEqual(expected);
  });

  it.each([
    ['NonIndexed', aJob({ completionMode: 'NonIndexed', completions: 3, parallelism: 200_000 })],
    ['Indexed at the parallelism limit', anIndexedJob(2, { parallelism: 100_000 })],
    ['Indexed with high completions at the per-index limits', anIndexedJob(100_001, { backoffLimitPerIndex: 1, maxFailedIndexes: 10_000, parallelism: 10_000 })],
  ])('accepts %s', (_name, job) => {
    expect(validateJob(job, GATE_OFF)).toEqual([]);
  });

  it('reports upstream’s messages for the high-completions limits', () => {
    const job = anIndexedJob(100_001, { backoffLimitPerIndex: 1, maxFailedIndexes: 50_000, parallelism: 50_000 });

    expect(validateJob(job, GATE_OFF).map((error) => error.message)).toEqual([
      'spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
      'spec.maxFailedIndexes: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
    ]);
  });

  it('reports an unsupported mode with the supported ones', () => {
    const [error] = validateJob(aJob({ completionMode: 'Sometimes' }), GATE_OFF);

    expect(error?.message).toBe('spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"');
  });
});
