import { describe, expect, it } from 'vitest';
import { podFacts } from '../../../shared/job/pod-facts.ts';
import type { PodFailurePolicyRule } from '../../../shared/k8s/job.ts';
import { PodSchema } from '../../../shared/k8s/pod.ts';
import {
  countsFailure,
  failsIndex,
  handledByDefault,
  matchPodFailurePolicy,
  policyFailureOf,
  policyFailureReason,
  SUPPORTED_POD_FAILURE_POLICY_ACTIONS,
} from '../../../shared/policies/pod-failure-policy.ts';

// Ported from kubernetes/kubernetes pkg/controller/job/pod_failure_policy_test.go
// TestMatchPodFailurePolicy (@14db6606), same case names. Each failed pod is built as upstream
// builds it (namespace default, name mypod) and read through podFacts, as the fold reads pods.

interface Container {
  readonly name?: string;
  readonly exitCode?: number;
}
interface Case {
  readonly name: string;
  readonly rules: readonly PodFailurePolicyRule[] | undefined;
  readonly containers?: readonly Container[];
  readonly initContainers?: readonly Container[];
  readonly conditions?: readonly { type: string; status: string }[];
  readonly wantJobFailureMessage?: string;
  readonly wantCountFailed: boolean;
  readonly wantAction?: string;
  readonly wantRuleName?: string;
}

const onExit = (action: string, operator: string, values: number[]): PodFailurePolicyRule => ({ action, onExitCodes: { operator, values } });
const onCondition = (action: string, type: string, status: string, name?: string): PodFailurePolicyRule => ({
  action,
  onPodConditions: [{ type, status }],
  ...(name === undefined ? {} : { name }),
});
const disruption = (status: string) => [{ type: 'DisruptionTarget', status }];
const exit = (exitCode: number, name = '') => [{ name, exitCode }];

const cases: Case[] = [
  {
    name: 'unknown action for rule matching by exit codes - skip rule with unknown action',
    rules: [onExit('UnknownAction', 'In', [1, 2]), onExit('FailJob', 'In', [2, 3])],
    containers: exit(2, 'main-container'),
    wantJobFailureMessage: 'Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1',
    wantCountFailed: true,
    wantAction: 'FailJob',
  },
  {
    name: 'unknown action for rule matching by pod conditions - skip rule with unknown action',
    rules: [onCondition('UnkonwnAction', 'DisruptionTarget', 'True'), onCondition('Ignore', 'DisruptionTarget', 'True')],
    conditions: disruption('True'),
    wantCountFailed: false,
    wantAction: 'Ignore',
  },
  {
    name: 'unknown operator - rule with unknown action is skipped for onExitCodes',
    rules: [onExit('Ignore', 'UnknownOperator', [1, 2]), onExit('FailJob', 'In', [2, 3])],
    containers: exit(2, 'main-container'),
    wantJobFailureMessage: 'Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1',
    wantCountFailed: true,
    wantAction: 'FailJob',
  },
  { name: 'no policy rules', rules: undefined, containers: exit(2), wantCountFailed: true },
  {
    name: 'ignore rule matched for exit codes',
    rules: [onExit('Ignore', 'In', [1, 2, 3])],
    containers: exit(2),
    wantCountFailed: false,
    wantAction: 'Ignore',
  },
  {
    name: 'ignore rule matched on negative exit codes - needed for Windows support',
    rules: [onExit('Ignore', 'In', [-1073741676, -1073741510])],
    containers: exit(-1073741510),
    wantCountFailed: false,
    wantAction: 'Ignore',
  },
  {
    name: 'FailJob rule matched for exit codes',
    rules: [onExit('FailJob', 'In', [1, 2, 3])],
    containers: exit(2, 'main-container'),
    wantJobFailureMessage: 'Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 0',
    wantCountFailed: true,
    wantAction: 'FailJob',
  },
  {
    name: 'successful containers are skipped by the rules',
    rules: [onExit('FailJob', 'NotIn', [111])],
    initContainers: [{ name: 'init-container', exitCode: 0 }],
    containers: [{ name: 'main-container', exitCode: 111 }, { name: 'suppport-container', exitCode: 0 }],
    wantCountFailed: true,
  },
  {
    name: 'FailIndex rule matched for exit codes',
    rules: [onExit('FailIndex', 'In', [1, 2, 3])],
    containers: exit(2),
    wantCountFailed: true,
    wantAction: 'FailIndex',
  },
  {
    name: 'pod failure policy with NotIn operator and value 0',
    rules: [onExit('FailJob', 'NotIn', [0])],
    containers: [{ name: 'main-container', exitCode: 1 }, { name: 'suppport-container', exitCode: 0 }],
    wantJobFailureMessage: 'Container main-container for pod default/mypod failed with exit code 1 matching FailJob rule at index 0',
    wantCountFailed: true,
    wantAction: 'FailJob',
  },
  {
    name: 'second jobfail rule matched for exit codes',
    rules: [onExit('Count', 'In', [1, 2, 3]), onExit('FailJob', 'In', [4, 5, 6])],
    containers: exit(6, 'main-container'),
    wantJobFailureMessage: 'Container main-container for pod default/mypod failed with exit code 6 matching FailJob rule at index 1',
    wantCountFailed: true,
    wantAction: 'FailJob',
  },
  {
    name: 'count rule matched for exit codes',
    rules: [onExit('Count', 'In', [1, 2, 3])],
    containers: [{ name: 'foo' }, { name: 'bar', exitCode: 2 }],
    wantCountFailed: true,
    wantAction: 'Count',
  },
  {
    name: 'FailIndex rule matched for pod conditions',
    rules: [onCondition('FailIndex', 'DisruptionTarget', 'True')],
    conditions: disruption('True'),
    wantCountFailed: true,
    wantAction: 'FailIndex',
  },
  {
    name: 'ignore rule matched for pod conditions',
    rules: [onCondition('Ignore', 'DisruptionTarget', 'True')],
    conditions: disruption('True'),
    wantCountFailed: false,
    wantAction: 'Ignore',
  },
  {
    name: 'ignore rule matches by the status=False',
    rules: [onCondition('Ignore', 'DisruptionTarget', 'False')],
    conditions: disruption('False'),
    wantCountFailed: false,
    wantAction: 'Ignore',
  },
  {
    name: 'ignore rule matches by the status=Unknown',
    rules: [onCondition('Ignore', 'DisruptionTarget', 'Unknown')],
    conditions: disruption('Unknown'),
    wantCountFailed: false,
    wantAction: 'Ignore',
  },
  {
    name: 'ignore rule does not match when status for pattern is False, but actual True',
    rules: [onCondition('Ignore', 'DisruptionTarget', 'False')],
    conditions: disruption('True'),
    wantCountFailed: true,
  },
  {
    name: 'ignore rule does not match when status for pattern is True, but actual False',
    rules: [onCondition('Ignore', 'DisruptionTarget', 'True')],
    conditions: disruption('False'),
    wantCountFailed: true,
  },
  {
    name: 'default - do not match condition with status=False',
    rules: [onCondition('Ignore', 'DisruptionTarget', 'True')],
    conditions: disruption('False'),
    wantCountFailed: true,
  },
  {
    name: 'job fail rule matched for pod conditions',
    rules: [onCondition('FailJob', 'DisruptionTarget', 'True')],
    conditions: disruption('True'),
    wantJobFailureMessage: 'Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0',
    wantCountFailed: true,
    wantAction: 'FailJob',
  },
  {
    name: 'count rule matched for pod conditions',
    rules: [onCondition('Count', 'DisruptionTarget', 'True')],
    conditions: disruption('True'),
    wantCountFailed: true,
    wantAction: 'Count',
  },
  {
    name: 'no rule matched',
    rules: [
      onExit('Count', 'NotIn', [8]),
      onExit('Ignore', 'In', [1, 2, 3]),
      onExit('FailJob', 'NotIn', [5, 6, 7]),
      onCondition('Count', 'ResourceLimitExceeded', 'True'),
      onCondition('Ignore', 'DisruptionTarget', 'True'),
    ],
    containers: exit(32),
    wantCountFailed: true,
    wantAction: 'Count',
  },
  {
    name: 'expected matching rule returned',
    rules: [
      onCondition('FailJob', 'MaxFailedIndexesExceeded', 'True', '0'),
      onCondition('Ignore', 'DisruptionTarget', 'True', 'HostMaintenanceRule'),
    ],
    conditions: disruption('True'),
    wantCountFailed: false,
    wantAction: 'Ignore',
    wantRuleName: 'HostMaintenanceRule',
  },
];

const status = (c: Container) => ({
  name: c.name ?? '',
  state: c.exitCode === undefined ? {} : { terminated: { exitCode: c.exitCode } },
});

function failedPod(c: Case) {
  const pod = PodSchema.parse({
    metadata: { namespace: 'default', name: 'mypod', uid: 'mypod' },
    status: {
      phase: 'Failed',
      conditions: c.conditions ?? [],
      containerStatuses: (c.containers ?? []).map(status),
      initContainerStatuses: (c.initContainers ?? []).map(status),
    },
  });
  return podFacts(pod, new Set());
}

describe('matchPodFailurePolicy (TestMatchPodFailurePolicy)', () => {
  it.each(cases)('$name', (c) => {
    const match = matchPodFailurePolicy(c.rules, failedPod(c));

    expect({
      jobFailureMessage: match.message,
      countFailed: match.countFailed,
      action: match.action,
      ruleName: match.ruleName,
    }).toEqual({
      jobFailureMessage: c.wantJobFailureMessage,
      countFailed: c.wantCountFailed,
      action: c.wantAction,
      ruleName: c.wantRuleName,
    });
  });
});

describe('matchPodFailurePolicy evidence', () => {
  it('names the first matching container, regular containers before init containers', () => {
    const c: Case = {
      name: 'evidence',
      rules: [onExit('FailJob', 'In', [3])],
      initContainers: [{ name: 'init', exitCode: 3 }],
      containers: [{ name: 'main', exitCode: 3 }],
      wantCountFailed: true,
    };
    expect(matchPodFailurePolicy(c.rules, failedPod(c))).toMatchObject({ ruleIndex: 0, container: { name: 'main', exitCode: 3 } });
  });

  it('only looks at the named container when containerName is set', () => {
    const rules: PodFailurePolicyRule[] = [{ action: 'FailJob', onExitCodes: { containerName: 'side', operator: 'In', values: [3] } }];
    const c: Case = { name: 'named', rules, containers: [{ name: 'main', exitCode: 3 }], wantCountFailed: true };
    expect(matchPodFailurePolicy(rules, failedPod(c)).action).toBeUndefined();
  });

  it('names the matching pod condition', () => {
    const rules = [onCondition('Ignore', 'DisruptionTarget', 'True')];
    const c: Case = { name: 'condition', rules, conditions: disruption('True'), wantCountFailed: false };
    expect(matchPodFailurePolicy(c.rules, failedPod(c))).toMatchObject({ conditionType: 'DisruptionTarget', ruleIndex: 0 });
  });
});

describe('what a matched action means to the Job', () => {
  const pod = { seq: 4, uid: 'u4', name: 'mypod', lastSeq: 9 };
  it.each([
    { action: 'Count', countsFailure: true, failsIndex: false, failsJob: false },
    { action: 'FailIndex', countsFailure: true, failsIndex: true, failsJob: false },
    { action: 'FailJob', countsFailure: true, failsIndex: false, failsJob: true },
    { action: 'Ignore', countsFailure: false, failsIndex: false, failsJob: false },
  ])('$action: counts $countsFailure, fails its index $failsIndex, fails the Job $failsJob', (want) => {
    const c: Case = { name: want.action, rules: [onExit(want.action, 'In', [3])], containers: [{ name: 'main', exitCode: 3 }], wantCountFailed: want.countsFailure };
    const match = matchPodFailurePolicy(c.rules, failedPod(c));
    expect(match.action).toBe(want.action);
    expect(countsFailure(match)).toBe(want.countsFailure);
    expect(failsIndex(match)).toBe(want.failsIndex);
    expect(policyFailureOf(pod, match) !== undefined).toBe(want.failsJob);
    expect(handledByDefault(match.action)).toBe(want.countsFailure && !want.failsIndex && !want.failsJob);
  });

  it('no match is the default handling: the failure counts, nothing else', () => {
    const match = matchPodFailurePolicy(undefined, failedPod({ name: 'none', rules: undefined, wantCountFailed: true }));
    expect([countsFailure(match), failsIndex(match), policyFailureOf(pod, match), handledByDefault(match.action)]).toEqual([true, false, undefined, true]);
  });

  it('a FailJob match fails the Job with its rule and upstream message, tipped by the pod\'s observation', () => {
    const c: Case = { name: 'named', rules: [onCondition('FailJob', 'ConfigIssue', 'True', 'BadConfig')], conditions: [{ type: 'ConfigIssue', status: 'True' }], wantCountFailed: true };
    expect(policyFailureOf(pod, matchPodFailurePolicy(c.rules, failedPod(c)))).toEqual({
      podSeq: 4,
      uid: 'u4',
      podName: 'mypod',
      ruleIndex: 0,
      ruleName: 'BadConfig',
      message: 'Pod default/mypod has condition ConfigIssue matching FailJob rule at index 0',
      tippedBy: 9,
    });
  });

  it('the validation accepts the actions this module gives a meaning, sorted as upstream lists them', () => {
    expect(SUPPORTED_POD_FAILURE_POLICY_ACTIONS).toEqual(['Count', 'FailIndex', 'FailJob', 'Ignore']);
  });
});

describe('policyFailureReason (KEP-4443)', () => {
  it.each([
    { name: 'gate on, named rule', rule: { ruleIndex: 1, ruleName: 'ExitCode2' }, gate: true, want: 'PodFailurePolicy_ExitCode2' },
    { name: 'gate on, unnamed rule', rule: { ruleIndex: 3 }, gate: true, want: 'PodFailurePolicy_3' },
    { name: 'gate off, named rule', rule: { ruleIndex: 1, ruleName: 'ExitCode2' }, gate: false, want: 'PodFailurePolicy' },
    { name: 'gate off, unnamed rule', rule: { ruleIndex: 0 }, gate: false, want: 'PodFailurePolicy' },
  ])('$name gives $want', ({ rule, gate, want }) => {
    expect(policyFailureReason(rule, { PodFailurePolicyName: gate })).toBe(want);
  });
});
