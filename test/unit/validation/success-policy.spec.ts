import { describe, expect, it } from 'vitest';
import { validateJob } from '../../../shared/job/validation/index.ts';
import { aJob, anIndexedJob, fieldsAndTypes, GATE_OFF } from './a-job.ts';

type Rule = { succeededIndexes?: string; succeededCount?: number };

const withRules = (completions: number, rules: Rule[]) => anIndexedJob(completions, { successPolicy: { rules } });

describe('success policy', () => {
  it.each([
    ['a count restricted to listed indexes, and an index list', withRules(10, [{ succeededCount: 1, succeededIndexes: '0,2,4' }, { succeededIndexes: '1,3,5-9' }])],
    ['a count equal to completions', withRules(5, [{ succeededCount: 5 }])],
    ['an empty index list', withRules(5, [{ succeededIndexes: '' }])],
    ['a count of zero', withRules(5, [{ succeededCount: 0 }])],
  ])('accepts %s', (_name, job) => {
    expect(validateJob(job, GATE_OFF)).toEqual([]);
  });

  it.each([
    ['a NonIndexed job', aJob({ successPolicy: { rules: [{ succeededCount: 1 }] } }), ['spec.successPolicy FieldValueInvalid']],
    ['no rules', withRules(5, []), ['spec.successPolicy.rules FieldValueRequired']],
    ['21 rules', withRules(5, Array.from({ length: 21 }, () => ({ succeededCount: 5 }))), ['spec.successPolicy.rules FieldValueTooMany']],
    ['a rule with neither field', withRules(5, [{}]), ['spec.successPolicy.rules[0] FieldValueRequired']],
    ['a negative count', withRules(5, [{ succeededCount: -1 }]), ['spec.successPolicy.rules[0].succeededCount FieldValueInvalid']],
    ['a count above completions', withRules(5, [{ succeededCount: 6 }]), ['spec.successPolicy.rules[0].succeededCount FieldValueInvalid']],
    ['a malformed index list', withRules(5, [{ succeededIndexes: '1-3,0' }]), ['spec.successPolicy.rules[0].succeededIndexes FieldValueInvalid']],
    [
      'a count above a malformed list (counted as 0 indexes)',
      withRules(5, [{ succeededIndexes: 'x', succeededCount: 1 }]),
      ['spec.successPolicy.rules[0].succeededIndexes FieldValueInvalid', 'spec.successPolicy.rules[0].succeededCount FieldValueInvalid'],
    ],
    [
      'a list longer than 64 KiB',
      withRules(5, [{ succeededIndexes: '1'.repeat(65_537) }]),
      ['spec.successPolicy.rules[0].succeededIndexes FieldValueTooLong', 'spec.successPolicy.rules[0].succeededIndexes FieldValueInvalid'],
    ],
  ])('rejects %s', (_name, job, expected) => {
    expect(fieldsAndTypes(validateJob(job, GATE_OFF))).toEqual(expected);
  });

  it.each([
    [[{ succeededCount: 4, succeededIndexes: '0-2' }], 'spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of indexes in the specified succeededIndexes field)'],
    [[{ succeededCount: 6 }], 'spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)'],
    [[{ succeededIndexes: '0,1-3,5' }], 'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0,1-3,5": error parsing succeededIndexes: too large index: "5"'],
  ])('reports upstream’s message for %j', (rules, message) => {
    expect(validateJob(withRules(5, rules), GATE_OFF).map((error) => error.message)).toEqual([message]);
  });

  it('reports only the Required completions of an Indexed job without completions', () => {
    const job = aJob({ completionMode: 'Indexed', successPolicy: { rules: [{ succeededIndexes: '0-9', succeededCount: 3 }] } });

    expect(fieldsAndTypes(validateJob(job, GATE_OFF))).toEqual(['spec.completions FieldValueRequired']);
  });
});
