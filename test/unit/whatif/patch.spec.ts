import { describe, expect, it } from 'vitest';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { applyMergePatch } from '../../../shared/whatif/patch.ts';
import { patchJob, WhatIfPatchError } from '../../../shared/whatif/patch.ts';
import { whatIfJob, WhatIfInputError } from '../../../shared/whatif/what-if.ts';
import { aJob, at, tick } from '../../support/builders.ts';

const refusal = (patch: unknown) => {
  try {
    patchJob(aJob({ backoffLimit: 6 }), patch, JOBFOLD_DEFAULT_GATES);
  } catch (error) {
    if (error instanceof WhatIfPatchError) return error.errors;
    throw error;
  }
  throw new Error('the patch was accepted');
};

describe('JSON merge patch (RFC 7386)', () => {
  it('merges objects, removes keys set to null and replaces arrays whole', () => {
    const target = { a: 1, b: { c: 2, d: 3 }, e: [1, 2] };
    expect(applyMergePatch(target, { a: null, b: { c: 5 }, e: [9] })).toEqual({ b: { c: 5, d: 3 }, e: [9] });
    expect(target).toEqual({ a: 1, b: { c: 2, d: 3 }, e: [1, 2] });
  });

  it('replaces the target when the patch is not an object (RFC 7386 appendix A)', () => {
    expect(applyMergePatch({ a: 'b' }, ['c'])).toEqual(['c']);
    expect(applyMergePatch({ a: 'b' }, null)).toBeNull();
    expect(applyMergePatch('x', { a: { bb: null } })).toEqual({ a: {} });
  });
});

describe('Patched specs are validated with upstream field errors', () => {
  it('a negative backoffLimit gets upstream\'s field path, type and message', () => {
    expect(refusal({ spec: { backoffLimit: -1 } })).toEqual([
      expect.objectContaining({ field: 'spec.backoffLimit', type: 'FieldValueInvalid', message: 'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0' }),
    ]);
  });

  it('a success policy on a NonIndexed Job is refused as upstream refuses it', () => {
    const [error] = refusal({ spec: { successPolicy: { rules: [{ succeededCount: 1 }] } } });
    expect(error).toMatchObject({ field: 'spec.successPolicy', type: 'FieldValueInvalid' });
    expect(error?.message).toContain('requires indexed completion mode');
  });

  it('a field of the wrong type names the field', () => {
    expect(refusal({ spec: { parallelism: 'two' } })[0]?.field).toBe('spec.parallelism');
  });

  it('only the spec may be patched', () => {
    expect(refusal({ metadata: { name: 'other' } })[0]).toMatchObject({ field: 'metadata', type: 'FieldValueForbidden' });
    expect(refusal([1])[0]).toMatchObject({ field: 'patch' });
  });

  it('policy fields immutable on a live Job may be patched: the what-if is the Job created that way', () => {
    const rules = [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }];
    expect(patchJob(aJob(), { spec: { podFailurePolicy: { rules } } }, JOBFOLD_DEFAULT_GATES).spec.podFailurePolicy?.rules).toHaveLength(1);
  });
});

describe('A log without a Job', () => {
  it('is refused: there is nothing to patch', () => {
    expect(() => whatIfJob({ log: [{ ...tick(at(1)), seq: 1 }], config: DEFAULT_FOLD_CONFIG, patch: {} })).toThrow(WhatIfInputError);
  });
});
