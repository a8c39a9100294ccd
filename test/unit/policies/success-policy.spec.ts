import { describe, expect, it } from 'vitest';
import { IndexSet, parseIndexes } from '../../../shared/indexes/index-set.ts';
import {
  advanceRuleProgress,
  initialRuleProgress,
  matchSuccessPolicy,
  type SuccessPolicyRuleSettings,
} from '../../../shared/policies/success-policy.ts';
import type { SuccessPolicyRule } from '../../../shared/k8s/job.ts';

// Ported from kubernetes/kubernetes pkg/controller/job/success_policy_test.go TestMatchSuccessPolicy
// (@46f9e4b4), same case names. `succeededIndexes` are upstream's orderedIntervals (inclusive
// pairs, possibly reaching past completions). JobSuccessPolicy is GA and always on in jobfold,
// so the two cases run with the gate off keep their expectation (neither can match anyway).

interface Case {
  readonly name: string;
  readonly rules: readonly SuccessPolicyRule[] | undefined;
  readonly succeededIndexes: readonly (readonly [number, number])[];
  readonly wantMessage: string | undefined;
}

const COMPLETIONS = 10;
const rule = (succeededIndexes?: string, succeededCount?: number): SuccessPolicyRule => ({ succeededIndexes, succeededCount });
const met = (index: number) => `Matched rules at index ${index}`;

const cases: Case[] = [
  { name: 'JobSuccessPolicy is disabled', rules: undefined, succeededIndexes: [[0, 0]], wantMessage: undefined },
  { name: 'successPolicy is null', rules: undefined, succeededIndexes: [[0, 0]], wantMessage: undefined },
  { name: 'any rules are nothing', rules: [], succeededIndexes: [[0, 0]], wantMessage: undefined },
  { name: 'rules.succeededIndexes is invalid format', rules: [rule('invalid-form')], succeededIndexes: [[0, 0]], wantMessage: undefined },
  {
    name: 'rules.succeededIndexes is specified; succeededIndexes matched rules',
    rules: [rule('0-2')], succeededIndexes: [[0, 2], [4, 7]], wantMessage: met(0),
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules",
    rules: [rule('3')], succeededIndexes: [[0, 2]], wantMessage: undefined,
  },
  {
    name: 'rules.succeededCount is specified; succeededIndexes matched rules',
    rules: [rule(undefined, 2)], succeededIndexes: [[0, 2]], wantMessage: met(0),
  },
  {
    name: "rules.succeededCount is specified; succeededIndexes didn't match rules",
    rules: [rule(undefined, 4)], succeededIndexes: [[0, 2]], wantMessage: undefined,
  },
  {
    name: 'multiple rules; rules.succeededIndexes is specified; succeededIndexes met one of rules',
    rules: [rule('9'), rule('4,6')], succeededIndexes: [[0, 2], [4, 7]], wantMessage: met(1),
  },
  {
    name: 'multiple rules; rules.succeededIndexes is specified; succeededIndexes met all rules',
    rules: [rule('0,1'), rule('5')], succeededIndexes: [[0, 2], [4, 7]], wantMessage: met(0),
  },
  {
    name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes met all rules',
    rules: [rule('3-6', 2)], succeededIndexes: [[0, 2], [4, 7]], wantMessage: met(0),
  },
  {
    name: "rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes didn't match rules",
    rules: [rule('3-6', 2)], succeededIndexes: [[0, 2], [6, 7]], wantMessage: undefined,
  },
  {
    name: 'rules.succeededIndexes is specified; succeededIndexes are nothing',
    rules: [rule(undefined, 4)], succeededIndexes: [], wantMessage: undefined,
  },
  {
    name: 'rules.succeededIndexes is specified; succeededIndexes matched rules; rules is proper subset of succeededIndexes',
    rules: [rule('2-4,6-8')], succeededIndexes: [[1, 5], [6, 9]], wantMessage: met(0),
  },
  {
    name: 'rules.succeededIndexes is specified; succeededIndexes matched rules; rules equals succeededIndexes',
    rules: [rule('2-4,6-9')], succeededIndexes: [[2, 4], [6, 9]], wantMessage: met(0),
  },
  {
    name: 'rules.succeededIndexes is specified; succeededIndexes matched rules; rules is subset of succeededIndexes',
    rules: [rule('2-4,8-12')], succeededIndexes: [[2, 5], [7, 15]], wantMessage: met(0),
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules is an empty set",
    rules: [rule('')], succeededIndexes: [[1, 3]], wantMessage: undefined,
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; succeededIndexes is an empty set",
    rules: [rule('')], succeededIndexes: [], wantMessage: undefined,
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules and succeededIndexes are empty set",
    rules: [rule('')], succeededIndexes: [], wantMessage: undefined,
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; all elements of rules.succeededIndexes aren't included in succeededIndexes",
    rules: [rule('10-12,14-16')], succeededIndexes: [[1, 3], [5, 7]], wantMessage: undefined,
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at first",
    rules: [rule('1-3,5-7')], succeededIndexes: [[2, 4], [6, 8]], wantMessage: undefined,
  },
  {
    name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at first',
    rules: [rule('1-3,5-7', 4)], succeededIndexes: [[2, 4], [6, 8]], wantMessage: met(0),
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at last",
    rules: [rule('2-4,6-9')], succeededIndexes: [[1, 3], [5, 7]], wantMessage: undefined,
  },
  {
    name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at last',
    rules: [rule('2-4,6-9', 4)], succeededIndexes: [[1, 3], [5, 7]], wantMessage: met(0),
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules completely overlaps succeededIndexes",
    rules: [rule('0-4,6-9')], succeededIndexes: [[1, 3], [7, 8]], wantMessage: undefined,
  },
  {
    name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules completely overlaps succeededIndexes',
    rules: [rule('0-4,6-9', 5)], succeededIndexes: [[1, 3], [7, 8]], wantMessage: met(0),
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps multiple succeededIndexes at last",
    rules: [rule('0-6,8-9')], succeededIndexes: [[1, 3], [5, 9]], wantMessage: undefined,
  },
  {
    name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps multiple succeededIndexes at last',
    rules: [rule('0-6,8-9', 7)], succeededIndexes: [[1, 3], [5, 9]], wantMessage: met(0),
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at first, and rules equals succeededIndexes at last",
    rules: [rule('0-5,7-9')], succeededIndexes: [[1, 5], [7, 10]], wantMessage: undefined,
  },
  {
    name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at first, and rules equals succeededIndexes at last',
    rules: [rule('0-5,7-9', 8)], succeededIndexes: [[1, 5], [7, 10]], wantMessage: met(0),
  },
  {
    name: "rules.succeededIndexes is specified; succeededIndexes didn't match rules; the first rules overlaps succeededIndexes at first",
    rules: [rule('0-3,6-9')], succeededIndexes: [[1, 10]], wantMessage: undefined,
  },
  {
    name: 'rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; the first rules overlaps succeededIndexes at first',
    rules: [rule('0-3,6-9', 7)], succeededIndexes: [[1, 10]], wantMessage: met(0),
  },
];

/** The rules as the fold holds them: indexes parsed leniently against completions. */
const settingsOf = (rules: readonly SuccessPolicyRule[]): SuccessPolicyRuleSettings[] =>
  rules.map((r) => ({
    indexes: r.succeededIndexes === undefined ? undefined : parseIndexes(r.succeededIndexes, COMPLETIONS),
    succeededCount: r.succeededCount,
  }));

describe('matchSuccessPolicy (TestMatchSuccessPolicy)', () => {
  it.each(cases)('$name', ({ rules, succeededIndexes, wantMessage }) => {
    const succeeded = IndexSet.fromIntervals(succeededIndexes);
    const settings = rules === undefined ? undefined : settingsOf(rules);
    const progress = initialRuleProgress(settings ?? [], succeeded);

    const match = matchSuccessPolicy(settings, progress, succeeded.size);

    expect({ met: match !== undefined, message: match?.message }).toEqual({ met: wantMessage !== undefined, message: wantMessage });
  });
});

describe('advanceRuleProgress', () => {
  it('reaches the same match one index at a time as from scratch', () => {
    const settings = settingsOf([rule('9'), rule('4,6')]);
    const progress = initialRuleProgress(settings, IndexSet.empty());
    for (const index of [0, 1, 4, 6]) advanceRuleProgress(settings, progress, index);
    expect(matchSuccessPolicy(settings, progress, 4)?.message).toBe(met(1));
  });
});
