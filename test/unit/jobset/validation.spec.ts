import { describe, expect, it } from 'vitest';
import {
  defaultJobSet,
  isAcceptedJobFailureReason,
  JobSetSchema,
  validateJobSet,
  type JobSetFeatureGates,
} from '../../../shared/jobset/index.ts';

const jobSet = (spec: Record<string, unknown>, name = 'js') =>
  defaultJobSet(
    JobSetSchema.parse({
      metadata: { name, namespace: 'default', uid: 'uid' },
      spec: {
        replicatedJobs: [
          { name: 'leader', replicas: 1, template: { spec: { parallelism: 1, completions: 1 } } },
          { name: 'workers', replicas: 2, template: { spec: { parallelism: 1, completions: 1 } } },
        ],
        ...spec,
      },
    }),
  );

const rules = (...list: Record<string, unknown>[]) => ({ failurePolicy: { maxRestarts: 1, rules: list } });

const errorsOf = (spec: Record<string, unknown>, gates: JobSetFeatureGates = {}, name?: string) =>
  validateJobSet(jobSet(spec, name), gates).map(({ field, type, detail }) => ({ field, type, detail }));

describe('validateJobSet', () => {
  it('accepts a JobSet with every policy set', () => {
    expect(
      errorsOf({
        startupPolicy: { startupPolicyOrder: 'InOrder' },
        successPolicy: { operator: 'Any', targetReplicatedJobs: ['workers'] },
        ...rules({ action: 'FailJobSet', onJobFailureReasons: ['PodFailurePolicy'], targetReplicatedJobs: ['workers'] }),
      }),
    ).toEqual([]);
  });

  it('accepts the seed-002 Story 2 rules on PodFailurePolicy_ExitCode2 and PodFailurePolicy_ExitCode3', () => {
    expect(
      errorsOf(
        rules(
          { action: 'FailJobSet', targetReplicatedJobs: ['workers'], onJobFailureReasons: ['PodFailurePolicy_ExitCode2'] },
          { action: 'RestartJobSet', targetReplicatedJobs: ['workers'], onJobFailureReasons: ['PodFailurePolicy_ExitCode3'] },
        ),
      ),
    ).toEqual([]);
  });

  it.each([
    {
      name: 'unknown job failure reason',
      spec: rules({ action: 'FailJobSet', onJobFailureReasons: ['OOMKilled'] }),
      want: {
        field: 'spec.failurePolicy.rules[0].onJobFailureReasons[0]',
        type: 'FieldValueInvalid',
        detail: "invalid job failure reason 'OOMKilled' in failure policy is not a recognized job failure reason",
      },
    },
    {
      name: 'KEP-4443 reason with an invalid rule name',
      spec: rules({ action: 'FailJobSet', onJobFailureReasons: ['PodFailurePolicy_Exit Code 2'] }),
      want: {
        field: 'spec.failurePolicy.rules[0].onJobFailureReasons[0]',
        type: 'FieldValueInvalid',
        detail: "invalid job failure reason 'PodFailurePolicy_Exit Code 2' in failure policy is not a recognized job failure reason",
      },
    },
    {
      name: 'target not among the replicated jobs',
      spec: rules({ action: 'FailJobSet', targetReplicatedJobs: ['driver'] }),
      want: {
        field: 'spec.failurePolicy.rules[0].targetReplicatedJobs[0]',
        type: 'FieldValueInvalid',
        detail: "invalid replicatedJob name 'driver' in failure policy does not appear in .spec.ReplicatedJobs",
      },
    },
    {
      name: 'rule name not matching the pattern',
      spec: rules({ name: '1rule', action: 'FailJobSet' }),
      want: {
        field: 'spec.failurePolicy.rules[0].name',
        type: 'FieldValueInvalid',
        detail: "invalid failure policy rule name '1rule', a failure policy rule name must start with an alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
      },
    },
    {
      name: 'duplicate rule names',
      spec: rules({ name: 'same', action: 'FailJobSet' }, { name: 'same', action: 'RestartJobSet' }),
      want: {
        field: 'spec.failurePolicy.rules[1].name',
        type: 'FieldValueDuplicate',
        detail: "rule names are not unique, rules with indices [0 1] all have the same name 'same'",
      },
    },
    {
      name: 'RestartJob without its feature gate',
      spec: rules({ action: 'RestartJob' }),
      want: {
        field: 'spec.failurePolicy.rules[0].action',
        type: 'FieldValueInvalid',
        detail: 'RestartJob and RestartJobAndIgnoreMaxRestarts failure policy actions are not allowed when RestartJob feature gate is disabled',
      },
    },
    {
      name: 'unsupported action',
      spec: rules({ action: 'FailJob' }),
      want: {
        field: 'spec.failurePolicy.rules[0].action',
        type: 'FieldValueNotSupported',
        detail: 'supported values: "FailJobSet", "RestartJobSet", "RestartJobSetAndIgnoreMaxRestarts", "RestartJob", "RestartJobAndIgnoreMaxRestarts"',
      },
    },
    {
      name: 'unsupported startup policy order',
      spec: { startupPolicy: { startupPolicyOrder: 'Sequential' } },
      want: { field: 'spec.startupPolicy.startupPolicyOrder', type: 'FieldValueNotSupported', detail: 'supported values: "AnyOrder", "InOrder"' },
    },
    {
      name: 'success policy target not among the replicated jobs',
      spec: { successPolicy: { operator: 'All', targetReplicatedJobs: ['driver'] } },
      want: {
        field: 'spec.successPolicy.targetReplicatedJobs[0]',
        type: 'FieldValueInvalid',
        detail: "invalid replicatedJob name 'driver' does not appear in .spec.ReplicatedJobs",
      },
    },
    {
      name: 'InPlaceRestart without its feature gate',
      spec: { failurePolicy: { restartStrategy: 'InPlaceRestart' } },
      want: {
        field: 'spec.failurePolicy.restartStrategy',
        type: 'FieldValueInvalid',
        detail: 'InPlaceRestart restart strategy cannot be set when InPlaceRestart feature gate is disabled',
      },
    },
  ])('rejects $name', ({ spec, want }) => {
    expect(errorsOf(spec)).toContainEqual(want);
  });

  it('rejects a JobSet name that makes child Job names longer than 63 characters', () => {
    expect(errorsOf({}, {}, 'j'.repeat(60))).toContainEqual({
      field: 'spec.replicatedJobs[0].name',
      type: 'FieldValueInvalid',
      detail: 'JobSet name is too long, job names generated for this JobSet will exceed 63 characters',
    });
  });

  it('checks nothing else about a gated action once the gate is off, as upstream returns early', () => {
    expect(errorsOf(rules({ action: 'RestartJob', targetReplicatedJobs: ['driver'] }))).toHaveLength(1);
  });
});

describe('isAcceptedJobFailureReason', () => {
  it.each([
    ['BackoffLimitExceeded', true],
    ['PodFailurePolicy', true],
    ['PodFailurePolicy_ExitCode2', true],
    ['PodFailurePolicy_0', true],
    ['PodFailurePolicy_', false],
    ['PodFailurePolicy_Exit-Code', false],
    [`PodFailurePolicy_${'a'.repeat(111)}`, true],
    [`PodFailurePolicy_${'a'.repeat(112)}`, false],
    ['podFailurePolicy_ExitCode2', false],
  ])('%s: %s', (reason, accepted) => {
    expect(isAcceptedJobFailureReason(reason)).toBe(accepted);
  });
});
