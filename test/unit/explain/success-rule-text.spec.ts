import { describe, expect, it } from 'vitest';
import { successRuleText } from '../../../shared/job/index.ts';

describe('successRuleText', () => {
  it.each([
    [{ succeededIndexes: '0' }, 'succeededIndexes "0"'],
    [{ succeededCount: 5, succeededIndexes: '1-9' }, 'succeededCount 5 of "1-9"'],
    [{ succeededCount: 5 }, 'succeededCount 5'],
  ])('writes %j as %s', (rule, text) => {
    expect(successRuleText(rule)).toBe(text);
  });
});
