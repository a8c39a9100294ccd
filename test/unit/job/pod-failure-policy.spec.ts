import { describe, expect, it } from 'vitest';
import type { PodFailurePolicyRule } from '../../../shared/k8s/job.ts';
import { aJob, anIndexedJob, aPod, at, podDeleted, podObserved } from '../../support/builders.ts';
import { conditionsOf, createdIndexes, given, newConditions, terminatedPods } from '../../support/job-spec.ts';

const onExit = (action: string, values: number[], extra: Partial<PodFailurePolicyRule> = {}): PodFailurePolicyRule => ({
  action,
  onExitCodes: { containerName: 'main', operator: 'In', values },
  ...extra,
});
const onDisruption = (action: string, extra: Partial<PodFailurePolicyRule> = {}): PodFailurePolicyRule => ({
  action,
  onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }],
  ...extra,
});
const jobWith = (rules: PodFailurePolicyRule[], spec = {}) => aJob({ backoffLimit: 6, podFailurePolicy: { rules }, ...spec });
const failedWith = (name: string, exitCode: number, when = at(1)) =>
  podObserved(aPod({ name, phase: 'Failed', exitCode }), when);
const disrupted = (name: string, when = at(1)) =>
  podObserved(aPod({ name, phase: 'Failed', conditions: [{ type: 'DisruptionTarget' }] }), when);

describe('podFailurePolicy', () => {
  describe('When a failed pod matches a FailJob rule on its exit code', () => {
    it('fails the Job with the rule named in the reason and upstream’s message', () => {
      given(jobWith([onExit('FailJob', [42], { name: 'BadInput' })]), failedWith('a', 42))
        .when({ now: at(1) })
        .thenStatus({
          failed: 1,
          conditions: [
            {
              type: 'FailureTarget',
              status: 'True',
              reason: 'PodFailurePolicy_BadInput',
              message: 'Container main for pod default/a failed with exit code 42 matching FailJob rule at index 0',
            },
            { type: 'Failed', status: 'True', reason: 'PodFailurePolicy_BadInput' },
          ],
        });
    });

    it('uses the rule index in the reason when the rule has no name', () => {
      given(jobWith([onExit('Count', [1]), onExit('FailJob', [42])]), failedWith('a', 42))
        .when({ now: at(1) })
        .then((o) => expect(newConditions(o)).toEqual(['FailureTarget=True:PodFailurePolicy_1', 'Failed=True:PodFailurePolicy_1']));
    });

    it('wins over backoffLimit exceeded in the same sync', () => {
      given(jobWith([onExit('FailJob', [42], { name: 'Fatal' })], { backoffLimit: 0 }), failedWith('a', 42))
        .when({ now: at(1) })
        .then((o) => expect(newConditions(o)[0]).toBe('FailureTarget=True:PodFailurePolicy_Fatal'));
    });

    it('names the first matching pod in listing order', () => {
      given(jobWith([onExit('FailJob', [42, 43])], { parallelism: 2, completions: 2 }), failedWith('first', 43), failedWith('second', 42))
        .when({ now: at(1) })
        .then(({ status }) => expect(status.conditions[0]?.message).toContain('pod default/first failed with exit code 43'));
    });

    it('matches an init container’s exit code', () => {
      const rule: PodFailurePolicyRule = { action: 'FailJob', onExitCodes: { operator: 'In', values: [5] } };
      const pod = aPod({ name: 'a', phase: 'Failed', exitCode: 0, initContainers: [{ name: 'setup', exitCode: 5 }] });
      given(jobWith([rule]), podObserved(pod, at(1)))
        .when({ now: at(1) })
        .then(({ status }) =>
          expect(status.conditions[0]?.message).toBe('Container setup for pod default/a failed with exit code 5 matching FailJob rule at index 0'),
        );
    });
  });

  describe('When the KEP-4443 gate is off', () => {
    it('uses the plain PodFailurePolicy reason, even for a named rule', () => {
      given(jobWith([onExit('FailJob', [42], { name: 'BadInput' })]), failedWith('a', 42))
        .withGates({ PodFailurePolicyName: false })
        .when({ now: at(1) })
        .then((o) => expect(newConditions(o)).toEqual(['FailureTarget=True:PodFailurePolicy', 'Failed=True:PodFailurePolicy']));
    });
  });

  describe('When a failed pod matches a FailJob rule on a pod condition', () => {
    it('fails the Job naming the condition', () => {
      given(jobWith([onDisruption('FailJob', { name: 'Disrupted' })]), disrupted('a'))
        .when({ now: at(1) })
        .thenStatus({
          conditions: [
            {
              type: 'FailureTarget',
              reason: 'PodFailurePolicy_Disrupted',
              message: 'Pod default/a has condition DisruptionTarget matching FailJob rule at index 0',
            },
            { type: 'Failed', reason: 'PodFailurePolicy_Disrupted' },
          ],
        });
    });
  });

  describe('When a FailJob rule matches while other pods run', () => {
    const job = jobWith([onExit('FailJob', [42])], { parallelism: 2, completions: 2 });

    it('deletes the running pods and writes Failed only once they are gone', () => {
      const outcome = given(job, podObserved(aPod({ name: 'running' }), at(1)), failedWith('a', 42))
        .when({ now: at(1) })
        .thenStatus({ terminating: 1 });
      expect(terminatedPods(outcome)).toEqual(['running']);
      expect(conditionsOf(outcome.status)).toEqual(['FailureTarget=True:PodFailurePolicy_0']);
    });

    it('writes Failed once the last deleted pod is gone', () => {
      given(job, podObserved(aPod({ name: 'running' }), at(1)), failedWith('a', 42), podDeleted('running', at(2)))
        .when({ now: at(2) })
        .then((o) => expect(newConditions(o)).toEqual(['Failed=True:PodFailurePolicy_0']));
    });
  });

  describe('When a pod fails in a way an Ignore rule matches', () => {
    it('does not count the failure and replaces the pod', () => {
      const outcome = given(jobWith([onDisruption('Ignore')], { backoffLimit: 0 }), disrupted('a'))
        .when({ now: at(1) })
        .thenStatus({ failed: 0, conditions: [] });
      expect(createdIndexes(outcome)).toHaveLength(1);
    });

    it('still delays the replacement by the recreation backoff', () => {
      const pod = aPod({ name: 'a', phase: 'Failed', conditions: [{ type: 'DisruptionTarget' }], finishedAt: at(1) });
      const outcome = given(jobWith([onDisruption('Ignore')]), podObserved(pod, at(2))).when({ now: at(2) });
      expect(createdIndexes(outcome)).toEqual([]);
      expect(outcome.wakeAt).toBe(at(11));
    });
  });

  describe('When a pod fails in a way a Count rule matches', () => {
    it('counts it like any failure, so backoffLimit applies', () => {
      given(jobWith([onExit('Count', [1])], { backoffLimit: 0 }), failedWith('a', 1))
        .when({ now: at(1) })
        .then((o) => expect(newConditions(o)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']));
    });
  });

  describe('When the first matching rule is not FailJob', () => {
    it('ignores the later FailJob rule that would match too', () => {
      given(jobWith([onExit('Ignore', [42]), onExit('FailJob', [42])]), failedWith('a', 42))
        .when({ now: at(1) })
        .thenStatus({ failed: 0, conditions: [] });
    });
  });

  describe('When the pod is not Failed', () => {
    it('does not match a Running pod whose container exited with a matching code', () => {
      const pod = aPod({ name: 'a', phase: 'Running', exitCode: 42 });
      given(jobWith([onExit('FailJob', [42])]), podObserved(pod, at(1)))
        .when({ now: at(1) })
        .thenStatus({ conditions: [], active: 1 });
    });
  });

  describe('When a pod of an Indexed Job matches a FailIndex rule', () => {
    const job = anIndexedJob(3, { backoffLimitPerIndex: 2, podFailurePolicy: { rules: [onExit('FailIndex', [3])] } });

    it('marks the index failed at once, counts the failure and does not recreate the index', () => {
      const outcome = given(job, podObserved(aPod({ index: 0, phase: 'Failed', exitCode: 3 }), at(1)), podObserved(aPod({ index: 1 }), at(1)))
        .when({ now: at(1) })
        .thenStatus({ failed: 1, failedIndexes: '0', conditions: [] });
      expect(createdIndexes(outcome)).toEqual([2]);
    });
  });
});
