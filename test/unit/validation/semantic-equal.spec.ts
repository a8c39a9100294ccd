import { describe, expect, it } from 'vitest';
import { isSemanticallyEqual } from '../../../shared/job/validation/semantic-equal.ts';

describe('isSemanticallyEqual', () => {
  it.each([
    ['equal scalars', 1, 1],
    ['unset and null', undefined, null],
    ['an unset list and an empty one', undefined, []],
    ['objects with an absent and an unset key', { a: 1 }, { a: 1, b: undefined }],
    ['nested equal objects', { rules: [{ values: [1, 2] }] }, { rules: [{ values: [1, 2] }] }],
  ])('treats %s as equal', (_name, a, b) => {
    expect(isSemanticallyEqual(a, b)).toBe(true);
  });

  it.each([
    ['unset and an empty string', undefined, ''],
    ['unset and zero', undefined, 0],
    ['unset and an object', undefined, { rules: [] }],
    ['lists in another order', [1, 2], [2, 1]],
    ['objects with different values', { a: 1 }, { a: 2 }],
  ])('treats %s as different', (_name, a, b) => {
    expect(isSemanticallyEqual(a, b)).toBe(false);
  });
});
