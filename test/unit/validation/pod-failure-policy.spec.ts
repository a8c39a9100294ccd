import { describe, expect, it } from 'vitest';
import { validateJob } from '../../../shared/job/validation/index.ts';
import { actionFailsIndex, SUPPORTED_POD_FAILURE_POLICY_ACTIONS } from '../../../shared/policies/pod-failure-policy.ts';
import { aJob, anIndexedJob, fieldsAndTypes, GATE_OFF } from './a-job.ts';

type Rule = NonNullable<NonNullable<NonNullable<Parameters<typeof aJob>[0]>['podFailurePolicy']>['rules']>[number];

const withRules = (...rules: Rule[]) => aJob({ podFailurePolicy: { rules } });
const onExitCodes = (operator: string, values: number[], containerName?: string): Rule => ({
  action: 'FailJob',
  onExitCodes: { operator, values, containerName },
});
const onConditions = (...patterns: { type?: string; status?: string }[]): Rule => ({ action: 'Ignore', onPodConditions: patterns });

describe('pod failure policy', () => {
  it.each([
    ['an empty rule list', withRules()],
    ['exit codes of a container and an init container', withRules(onExitCodes('In', [1, 2], 'main'), onExitCodes('NotIn', [0, 3], 'setup'))],
    ['a pod condition pattern', withRules(onConditions({ type: 'DisruptionTarget', status: 'True' }))],
    ['a prefixed condition type', withRules(onConditions({ type: 'example.com/Custom', status: 'Unknown' }))],
    ['every action', withRules(...['Count', 'FailJob', 'Ignore'].map((action) => ({ ...onExitCodes('In', [1]), action })))],
  ])('accepts %s', (_name, job) => {
    expect(validateJob(job, GATE_OFF)).toEqual([]);
  });

  it.each([
    ['21 rules', withRules(...Array.from({ length: 21 }, (_, i) => onExitCodes('In', [i + 1]))), ['spec.podFailurePolicy.rules FieldValueTooMany']],
    ['an empty action', withRules({ ...onExitCodes('In', [1]), action: '' }), ['spec.podFailurePolicy.rules[0].action FieldValueRequired']],
    ['an absent action', withRules({ onExitCodes: { operator: 'In', values: [1] } }), ['spec.podFailurePolicy.rules[0].action FieldValueRequired']],
    ['an unknown action', withRules({ ...onExitCodes('In', [1]), action: 'Retry' }), ['spec.podFailurePolicy.rules[0].action FieldValueNotSupported']],
    ['FailIndex without backoffLimitPerIndex', withRules({ ...onExitCodes('In', [1]), action: 'FailIndex' }), ['spec.podFailurePolicy.rules[0].action FieldValueInvalid']],
    ['neither requirement', withRules({ action: 'FailJob' }), ['spec.podFailurePolicy.rules[0] FieldValueInvalid']],
    [
      'both requirements',
      withRules({ ...onExitCodes('In', [1]), onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }),
      ['spec.podFailurePolicy.rules[0] FieldValueInvalid'],
    ],
    ['an empty operator', withRules(onExitCodes('', [1])), ['spec.podFailurePolicy.rules[0].onExitCodes.operator FieldValueRequired']],
    ['an unknown operator', withRules(onExitCodes('Equals', [1])), ['spec.podFailurePolicy.rules[0].onExitCodes.operator FieldValueNotSupported']],
    ['an unknown container', withRules(onExitCodes('In', [1], 'xyz')), ['spec.podFailurePolicy.rules[0].onExitCodes.containerName FieldValueInvalid']],
    ['no exit codes', withRules(onExitCodes('In', [])), ['spec.podFailurePolicy.rules[0].onExitCodes.values FieldValueInvalid']],
    [
      '256 exit codes',
      withRules(onExitCodes('NotIn', Array.from({ length: 256 }, (_, i) => i))),
      ['spec.podFailurePolicy.rules[0].onExitCodes.values FieldValueTooMany'],
    ],
    [
      'exit code 0 with In, out of order',
      withRules(onExitCodes('In', [1, 0, 2])),
      ['spec.podFailurePolicy.rules[0].onExitCodes.values[1] FieldValueInvalid', 'spec.podFailurePolicy.rules[0].onExitCodes.values FieldValueInvalid'],
    ],
    [
      'repeated duplicates',
      withRules(onExitCodes('In', [12, 13, 13, 13])),
      ['spec.podFailurePolicy.rules[0].onExitCodes.values[2] FieldValueDuplicate', 'spec.podFailurePolicy.rules[0].onExitCodes.values[3] FieldValueDuplicate'],
    ],
    [
      '21 condition patterns',
      withRules(onConditions(...Array.from({ length: 21 }, (_, i) => ({ type: `Custom${i}`, status: 'True' })))),
      ['spec.podFailurePolicy.rules[0].onPodConditions FieldValueTooMany'],
    ],
    [
      'an empty condition type',
      withRules(onConditions({ type: '', status: 'True' })),
      ['spec.podFailurePolicy.rules[0].onPodConditions[0].type FieldValueInvalid', 'spec.podFailurePolicy.rules[0].onPodConditions[0].type FieldValueInvalid'],
    ],
    ['an absent status', withRules(onConditions({ type: 'DisruptionTarget' })), ['spec.podFailurePolicy.rules[0].onPodConditions[0].status FieldValueRequired']],
    ['an unknown status', withRules(onConditions({ type: 'DisruptionTarget', status: 'Maybe' })), ['spec.podFailurePolicy.rules[0].onPodConditions[0].status FieldValueNotSupported']],
  ])('rejects %s', (_name, job, expected) => {
    expect(fieldsAndTypes(validateJob(job, GATE_OFF))).toEqual(expected);
  });

  it('accepts FailIndex with backoffLimitPerIndex', () => {
    const job = anIndexedJob(3, { backoffLimitPerIndex: 1, podFailurePolicy: { rules: [{ ...onExitCodes('In', [1]), action: 'FailIndex' }] } });

    expect(validateJob(job, GATE_OFF)).toEqual([]);
  });

  // Validation asks the policy module which actions fail an index: FailIndex today, any new one too.
  it.each(SUPPORTED_POD_FAILURE_POLICY_ACTIONS.filter(actionFailsIndex))('rejects %s, an action failing the index, without backoffLimitPerIndex', (action) => {
    const job = anIndexedJob(3, { podFailurePolicy: { rules: [{ ...onExitCodes('In', [1]), action }] } });

    expect(validateJob(job, GATE_OFF).map((error) => error.message)).toEqual([
      `spec.podFailurePolicy.rules[0].action: Invalid value: "${action}": requires the backoffLimitPerIndex to be set`,
    ]);
  });

  it.each([
    [withRules({ ...onExitCodes('In', [1]), action: '' }), 'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]'],
    [withRules(onExitCodes('Equals', [1])), 'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "Equals": supported values: "In", "NotIn"'],
    [withRules(onConditions({ type: 'DisruptionTarget', status: '' })), 'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: valid values: ["False" "True" "Unknown"]'],
    [
      withRules(onConditions({ type: 'Invalid Condition Type', status: 'True' })),
      "spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"Invalid Condition Type\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  ])('reports upstream’s message %#', (job, message) => {
    expect(validateJob(job, GATE_OFF).map((error) => error.message)).toEqual([message]);
  });
});
