import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../shared/job/decisions.ts';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { aJob, anIndexedJob, aPod, at, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { given, type Outcome } from '../../support/job-spec.ts';

/** The evidence of the JobConditionChanged decision for `type`, in this reconcile. */
function evidenceOf(outcome: Outcome, type: string) {
  const decision = outcome.decisions.find(
    (d): d is Extract<Decision, { type: 'JobConditionChanged' }> => d.type === 'JobConditionChanged' && d.condition.type === type,
  );
  return decision?.evidence;
}

/** The log position of the last observation of the named pod. */
const seqOf = (log: readonly JobEvent[], name: string) =>
  log.filter((e) => e.type === 'PodObserved' && e.pod.metadata.name === name).at(-1)?.seq;

describe('Evidence of condition changes', () => {
  describe('When a FailJob rule matches an exit code', () => {
    it('names the rule, the pod, the container and the observation that tipped it', () => {
      const rules = [{ name: 'BadInput', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }];
      const outcome = given(aJob({ podFailurePolicy: { rules } }), podObserved(aPod({ name: 'a', phase: 'Failed', exitCode: 42 }), at(1))).when({
        now: at(1),
      });
      expect(evidenceOf(outcome, 'FailureTarget')).toEqual({
        tippedBy: seqOf(outcome.log, 'a'),
        rule: { policy: 'podFailurePolicy', index: 0, name: 'BadInput' },
        pods: [{ uid: 'a', name: 'a', index: -1, seq: 0 }],
        container: { name: 'main', exitCode: 42 },
        podCondition: undefined,
        // when the criterion was met on the cluster's clock: pod a seen failed (interim-instants.ts)
        metAt: at(1),
      });
      expect(evidenceOf(outcome, 'Failed')).toMatchObject({ follows: 'FailureTarget', rule: { name: 'BadInput' } });
    });
  });

  describe('When a FailJob rule matches a pod condition', () => {
    it('names the condition', () => {
      const rules = [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }];
      const pod = aPod({ name: 'a', phase: 'Failed', conditions: [{ type: 'DisruptionTarget' }] });
      const outcome = given(aJob({ podFailurePolicy: { rules } }), podObserved(pod, at(1))).when({ now: at(1) });
      expect(evidenceOf(outcome, 'FailureTarget')).toMatchObject({ podCondition: 'DisruptionTarget', rule: { index: 0 } });
    });
  });

  describe('When backoffLimit is exceeded', () => {
    it('gives the failure count and the limit', () => {
      const failures = ['a', 'b', 'c'].map((name) => podObserved(aPod({ name, phase: 'Failed' }), at(1)));
      const outcome = given(aJob({ backoffLimit: 2 }), ...failures).when({ now: at(1) });
      expect(evidenceOf(outcome, 'FailureTarget')).toMatchObject({ failed: 3, limit: 2 });
      expect(evidenceOf(outcome, 'FailureTarget')?.tippedBy).toBe(outcome.log.filter((e) => e.type === 'PodObserved').at(-1)?.seq);
    });
  });

  describe('When the deadline passes', () => {
    it('gives the startTime and the deadline', () => {
      const outcome = given(aJob({ activeDeadlineSeconds: 5 }), tick(at(0)), podObserved(aPod({ name: 'a' }), at(1))).when({ now: at(5) });
      expect(evidenceOf(outcome, 'FailureTarget')).toMatchObject({ startTime: at(0), activeDeadlineSeconds: 5 });
    });
  });

  describe('When too many indexes failed', () => {
    it('gives the failed indexes and maxFailedIndexes', () => {
      const failed = [0, 1].map((index) => podObserved(aPod({ index, phase: 'Failed' }), at(1)));
      const job = anIndexedJob(4, { backoffLimitPerIndex: 0, maxFailedIndexes: 1 });
      const outcome = given(job, ...failed).when({ now: at(1) });
      expect(evidenceOf(outcome, 'FailureTarget')).toMatchObject({ failedIndexes: '0,1', limit: 1 });
    });
  });

  describe('When the success policy is met', () => {
    it('names the rule, the succeeded indexes and the pod whose success tipped it', () => {
      const job = anIndexedJob(3, { successPolicy: { rules: [{ succeededIndexes: '1' }] } });
      const outcome = given(job, podObserved(aPod({ index: 1, phase: 'Succeeded' }), at(1))).when({ now: at(1) });
      expect(evidenceOf(outcome, 'SuccessCriteriaMet')).toEqual({
        tippedBy: seqOf(outcome.log, 'pod-1'),
        rule: { policy: 'successPolicy', index: 0 },
        pods: [{ uid: 'pod-1', name: 'pod-1', index: 1, seq: seqOf(outcome.log, 'pod-1') }],
        succeededIndexes: '1',
        metAt: at(1),
        lastSuccessAt: at(1),
      });
      expect(evidenceOf(outcome, 'Complete')).toMatchObject({ follows: 'SuccessCriteriaMet' });
    });
  });

  describe('When completions are reached', () => {
    it('gives the succeeded count, the completions and the last pod to succeed', () => {
      const outcome = given(
        aJob({ completions: 2, parallelism: 2 }),
        podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)),
        podObserved(aPod({ name: 'b' }), at(1)),
        podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(2)),
      ).when({ now: at(2) });
      expect(evidenceOf(outcome, 'SuccessCriteriaMet')).toMatchObject({
        tippedBy: seqOf(outcome.log, 'b'),
        succeeded: 2,
        limit: 2,
        pods: [{ name: 'b' }],
      });
      // and the latest success seen, which its fold reads (interim-instants.ts); reaching the
      // completions tells no criterion instant of its own
      expect(evidenceOf(outcome, 'SuccessCriteriaMet')).not.toHaveProperty('metAt');
      expect(evidenceOf(outcome, 'SuccessCriteriaMet')).toHaveProperty('lastSuccessAt', at(2));
    });
  });

  describe('When the criterion of a Job with a success policy was met before its evidence arrived', () => {
    it('logs the instant the pods tell, on the cluster\'s clock, not the reconcile\'s', () => {
      // given a Job whose backoffLimit 1 was exceeded by failures seen at 0:03 and 0:05, arriving
      // after a success seen at 0:09 that meets no rule of its success policy
      const job = anIndexedJob(3, { backoffLimit: 1, successPolicy: { rules: [{ succeededIndexes: '2' }] } });
      const outcome = given(
        job,
        podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(9)),
        podObserved(aPod({ index: 1, phase: 'Failed' }), at(5)),
        podObserved(aPod({ index: 1, name: 'pod-1b', phase: 'Failed' }), at(3)),
      ).when({ now: at(10) });
      // then FailureTarget logs the second failure's instant, 0:05; the latest success only goes with SuccessCriteriaMet
      expect(evidenceOf(outcome, 'FailureTarget')).toMatchObject({ failed: 2, limit: 1, metAt: at(5) });
      expect(evidenceOf(outcome, 'FailureTarget')).not.toHaveProperty('lastSuccessAt');
    });
  });

  describe('When the terminal condition follows later', () => {
    it('says which interim condition it follows', () => {
      const job = aJob({ backoffLimit: 0, parallelism: 2, completions: 2 });
      const outcome = given(
        job,
        podObserved(aPod({ name: 'a', phase: 'Failed' }), at(1)),
        podObserved(aPod({ name: 'b' }), at(1)),
        podDeleted('b', at(2)),
      ).when({ now: at(2) });
      expect(evidenceOf(outcome, 'Failed')).toMatchObject({ follows: 'FailureTarget' });
    });
  });
});
