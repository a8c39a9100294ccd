import { describe, expect, it } from 'vitest';
import { matchFailurePolicy } from '../../../shared/jobset/failure-policy.ts';
import type { ChildJobView } from '../../../shared/jobset/index.ts';
import type { DefaultedFailurePolicy } from '../../../shared/jobset/defaulting.ts';
import { at } from './support/builders.ts';

const failedJob = (name: string, replicatedJob: string, reason: string, seconds: number, message = ''): ChildJobView => ({
  name, uid: undefined, replicatedJob, jobIndex: 0, restartAttempt: 0, parallelism: 1, completions: 1,
  suspend: false, active: 0, ready: 0, succeeded: 0, failed: 1, finished: 'Failed',
  failure: { reason, message, lastTransitionTime: at(seconds) }, terminating: false, observedAt: seconds,
});

const rule = (name: string, action: string, extra: Partial<DefaultedFailurePolicy['rules'][number]> = {}) => ({
  name, action, onJobFailureReasons: [], onJobFailureMessagePatterns: [], targetReplicatedJobs: [], ...extra,
});

const policy = (rules: DefaultedFailurePolicy['rules'], maxRestarts = 3): DefaultedFailurePolicy => ({
  maxRestarts, restartStrategy: 'Recreate', rules,
});

const summary = (result: ReturnType<typeof matchFailurePolicy>) =>
  result.kind === 'Unsupported'
    ? { kind: result.kind }
    : { kind: result.kind, reason: result.reason, message: result.message, rule: result.rule?.name ?? null };

describe('matchFailurePolicy', () => {
  const a0 = failedJob('js-a-0', 'a', 'BackoffLimitExceeded', 1);
  const b1 = failedJob('js-b-1', 'b', 'DeadlineExceeded', 3);

  it.each([
    {
      name: 'no failure policy fails the JobSet naming the earliest failure',
      policy: undefined, failed: [b1, a0], counted: 0,
      want: { kind: 'Fail', reason: 'FailedJobs', message: 'jobset failed due to one or more job failures (first failed job: js-a-0)', rule: null },
    },
    {
      name: 'a later failure matching an earlier rule wins over an earlier failure',
      policy: policy([rule('failOnDeadline', 'FailJobSet', { onJobFailureReasons: ['DeadlineExceeded'] }), rule('restartOnBackoff', 'RestartJobSet')]),
      failed: [a0, b1], counted: 0,
      want: { kind: 'Fail', reason: 'FailJobSetFailurePolicyAction', message: 'applying FailJobSet failure policy action (first failed job: js-b-1)', rule: 'failOnDeadline' },
    },
    {
      name: 'no rule applying restarts with the default action',
      policy: policy([rule('failOnPfp', 'FailJobSet', { onJobFailureReasons: ['PodFailurePolicy'] })]),
      failed: [a0, b1], counted: 0,
      want: { kind: 'Restart', reason: 'DefaultFailurePolicy', message: 'applying RestartJobSet failure policy action (first failed job: js-a-0)', rule: null },
    },
    {
      name: 'a rule whose target excludes the parent replicated job does not apply',
      policy: policy([rule('failA', 'FailJobSet', { targetReplicatedJobs: ['a'] })]),
      failed: [b1], counted: 0,
      want: { kind: 'Restart', reason: 'DefaultFailurePolicy', message: 'applying RestartJobSet failure policy action (first failed job: js-b-1)', rule: null },
    },
    {
      name: 'RestartJobSet at maxRestarts fails with ReachedMaxRestarts',
      policy: policy([rule('restart', 'RestartJobSet')], 1), failed: [a0], counted: 1,
      want: { kind: 'Fail', reason: 'ReachedMaxRestarts', message: 'jobset failed due to reaching max number of restarts (first failed job: js-a-0)', rule: 'restart' },
    },
    {
      name: 'RestartJobSetAndIgnoreMaxRestarts restarts beyond maxRestarts',
      policy: policy([rule('ignore', 'RestartJobSetAndIgnoreMaxRestarts')], 1), failed: [a0], counted: 5,
      want: { kind: 'Restart', reason: 'FailurePolicy_ignore', message: 'applying RestartJobSetAndIgnoreMaxRestarts failure policy action (first failed job: js-a-0)', rule: 'ignore' },
    },
    {
      name: 'a gated action decides nothing',
      policy: policy([rule('job', 'RestartJob')]), failed: [a0], counted: 0,
      want: { kind: 'Unsupported' },
    },
  ])('$name', ({ policy: p, failed, counted, want }) => {
    expect(summary(matchFailurePolicy(p, failed, counted))).toEqual(want);
  });

  describe('KEP-4443 reasons', () => {
    const exit2 = failedJob('js-sim-0', 'sim', 'PodFailurePolicy_ExitCode2', 1);
    const exit3 = failedJob('js-sim-1', 'sim', 'PodFailurePolicy_ExitCode3', 1);
    const story2 = policy([
      rule('failurePolicyRule0', 'FailJobSet', { onJobFailureReasons: ['PodFailurePolicy_ExitCode2'] }),
      rule('failurePolicyRule1', 'RestartJobSet', { onJobFailureReasons: ['PodFailurePolicy_ExitCode3'] }),
    ], 10);

    it('fails the JobSet on PodFailurePolicy_ExitCode2', () => {
      expect(summary(matchFailurePolicy(story2, [exit2], 0)).kind).toBe('Fail');
    });

    it('restarts the JobSet on PodFailurePolicy_ExitCode3', () => {
      expect(summary(matchFailurePolicy(story2, [exit3], 0))).toMatchObject({ kind: 'Restart', reason: 'FailurePolicy_failurePolicyRule1' });
    });

    it('matches reasons exactly: PodFailurePolicy does not match PodFailurePolicy_ExitCode2', () => {
      const plain = policy([rule('failOnPfp', 'FailJobSet', { onJobFailureReasons: ['PodFailurePolicy'] })]);
      expect(summary(matchFailurePolicy(plain, [exit2], 0))).toMatchObject({ kind: 'Restart', rule: null });
    });
  });

  describe('message patterns', () => {
    const disrupted = failedJob('js-a-0', 'a', 'PodFailurePolicy', 1, 'Pod default/p has condition DisruptionTarget matching FailJob rule at index 0');
    const patterned = (pattern: string) => policy([rule('byMessage', 'FailJobSet', { onJobFailureMessagePatterns: [pattern] })]);

    it.each([
      { pattern: 'DisruptionTarget', matches: true },
      { pattern: '.*DisruptionTarget.*', matches: true },
      { pattern: '^Pod default', matches: true },
      { pattern: '(?i)disruptiontarget', matches: true },
      { pattern: 'some message', matches: false },
      { pattern: '([unclosed', matches: false },
    ])('pattern $pattern matches: $matches', ({ pattern, matches }) => {
      expect(summary(matchFailurePolicy(patterned(pattern), [disrupted], 0)).kind).toBe(matches ? 'Fail' : 'Restart');
    });
  });
});
