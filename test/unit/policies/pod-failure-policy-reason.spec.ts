import { describe, expect, it } from 'vitest';
import { failJobReason } from '../../../shared/policies/pod-failure-policy-reason.ts';

describe('failJobReason (KEP-4443)', () => {
  it.each([
    { name: 'gate on, named rule', rule: { ruleIndex: 1, ruleName: 'ExitCode2' }, gate: true, want: 'PodFailurePolicy_ExitCode2' },
    { name: 'gate on, unnamed rule', rule: { ruleIndex: 3 }, gate: true, want: 'PodFailurePolicy_3' },
    { name: 'gate off, named rule', rule: { ruleIndex: 1, ruleName: 'ExitCode2' }, gate: false, want: 'PodFailurePolicy' },
    { name: 'gate off, unnamed rule', rule: { ruleIndex: 0 }, gate: false, want: 'PodFailurePolicy' },
  ])('$name gives $want', ({ rule, gate, want }) => {
    expect(failJobReason(rule, { PodFailurePolicyName: gate })).toBe(want);
  });
});
