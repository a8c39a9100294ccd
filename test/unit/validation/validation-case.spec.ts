import { describe, expect, it } from 'vitest';
import { validationCaseKind } from '../../../cli/conformance/kinds/validation-case.ts';

const job = (spec: Record<string, unknown>) => ({
  metadata: { name: 'myjob' },
  spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main' }] } }, ...spec },
});

const aCase = (overrides: Record<string, unknown>) => ({
  id: 'case-id',
  options: {},
  job: job({ parallelism: -1 }),
  oldJob: null,
  expect: {
    valid: false,
    errorsMatch: 'includes',
    errors: [{ field: 'spec.parallelism', type: 'FieldValueInvalid', badValue: -1, messageContains: 'must be greater than or equal to 0' }],
  },
  ...overrides,
});

describe('validation case kind', () => {
  it('recognises documents with expect.valid, job and oldJob', () => {
    expect(validationCaseKind.matches(aCase({}))).toBe(true);
    expect(validationCaseKind.matches({ job: {}, expect: { valid: true } })).toBe(false);
    expect(validationCaseKind.matches({ events: [], checkpoints: [] })).toBe(false);
  });

  it('reports no diff when the listed error is reported', () => {
    expect(validationCaseKind.run(aCase({}), 'f.json')).toEqual({ id: 'case-id', file: 'f.json', diffs: [] });
  });

  it('reports a missing error and the wrong verdict', () => {
    const result = validationCaseKind.run(aCase({ job: job({ parallelism: 1 }) }), 'f.json');

    expect(result.diffs).toEqual([
      { at: 'validation', path: 'valid', expected: false, actual: true },
      { at: 'validation', path: 'errors[spec.parallelism FieldValueInvalid]', expected: 'reported', actual: 'not reported' },
    ]);
  });

  it('reports another bad value and another message', () => {
    const wrongValue = aCase({ job: job({ parallelism: -2 }) });
    const wrongMessage = aCase({
      expect: { valid: false, errorsMatch: 'includes', errors: [{ field: 'spec.parallelism', type: 'FieldValueInvalid', messageContains: 'positive' }] },
    });

    expect(validationCaseKind.run(wrongValue, 'f.json').diffs.map((diff) => diff.path)).toEqual(['errors[spec.parallelism FieldValueInvalid].badValue']);
    expect(validationCaseKind.run(wrongMessage, 'f.json').diffs.map((diff) => diff.path)).toEqual(['errors[spec.parallelism FieldValueInvalid].message']);
  });

  it('reports unlisted errors of an exact case', () => {
    const exact = aCase({ job: job({ parallelism: -1, backoffLimit: -1 }), expect: { valid: false, errorsMatch: 'exact', errors: [{ field: 'spec.parallelism', type: 'FieldValueInvalid' }] } });

    expect(validationCaseKind.run(exact, 'f.json').diffs).toEqual([
      {
        at: 'validation',
        path: 'errors[spec.backoffLimit FieldValueInvalid]',
        expected: 'not reported',
        actual: 'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      },
    ]);
  });

  it('reports a Job the schema rejects as a parse diff instead of throwing', () => {
    const result = validationCaseKind.run(aCase({ job: job({ parallelism: 'two' }) }), 'f.json');

    expect(result.diffs).toEqual([
      { at: 'parse', path: 'job.spec.parallelism', expected: 'a batch/v1 Job accepted by JobSchema', actual: expect.any(String) },
    ]);
  });

  it('reports a malformed case as an error', () => {
    const result = validationCaseKind.run(aCase({ expect: { valid: 'yes' } }), 'f.json');

    expect(result.error).toMatch(/^malformed validation case/);
  });
});
