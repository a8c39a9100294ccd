import { describe, expect, it } from 'vitest';
import { anIndexedJob, aPod, at, podDeleted, podObserved } from '../../support/builders.ts';
import { conditionsOf, given, newConditions, terminatedPods } from '../../support/job-spec.ts';

const succeeded = (index: number, when = at(1)) => podObserved(aPod({ index, phase: 'Succeeded' }), when);
const running = (index: number, when = at(1)) => podObserved(aPod({ index }), when);
const leaderRule = { successPolicy: { rules: [{ succeededIndexes: '0' }] } };

describe('successPolicy', () => {
  describe('When a rule’s indexes all succeeded while other indexes run', () => {
    const job = anIndexedJob(3, leaderRule);

    it('sets SuccessCriteriaMet with SuccessPolicy and deletes the running pods', () => {
      const outcome = given(job, succeeded(0), running(1), running(2))
        .when({ now: at(1) })
        .then({
          decisions: [
            { type: 'StartTimeSet' },
            { type: 'PodsTerminationRequested', cause: 'JobFinishing', reason: 'SuccessPolicy', finalizersRemoved: false },
            {
              type: 'JobConditionChanged',
              condition: { type: 'SuccessCriteriaMet', status: 'True', reason: 'SuccessPolicy', message: 'Matched rules at index 0' },
            },
          ],
        });
      expect(terminatedPods(outcome).sort()).toEqual(['pod-1', 'pod-2']);
    });

    it('does not count the pods it deleted as failed when they simply leave', () => {
      given(job, succeeded(0), running(1), running(2), podDeleted('pod-1', at(2)), podDeleted('pod-2', at(2)))
        .when({ now: at(2) })
        .thenStatus({ failed: 0, succeeded: 1, completedIndexes: '0' });
    });

    // Upstream trackJobStatusAndRemoveFinalizers counts any "failed" pod that still carries the
    // finalizer (corpus: success-policy__met-earlier-complete-once-no-pod-is-left).
    it('counts a deleted pod that shows up Failed with its finalizer still on', () => {
      const failedLater = podObserved(aPod({ index: 1, phase: 'Failed', deletionTimestamp: at(1) }), at(2));
      given(job, succeeded(0), running(1), running(2), failedLater)
        .when({ now: at(2) })
        .thenStatus({ failed: 1, succeeded: 1 });
    });

    it('writes Complete, with the same reason, once no pod is left', () => {
      given(job, succeeded(0), running(1), running(2), podDeleted('pod-1', at(2)), podDeleted('pod-2', at(2)))
        .when({ now: at(2) })
        .then({
          decisions: [
            { type: 'JobConditionChanged', condition: { type: 'Complete', reason: 'SuccessPolicy', message: 'Matched rules at index 0' } },
          ],
          status: { completionTime: at(2) },
        });
    });
  });

  describe('When a succeededCount rule is met', () => {
    it('sets SuccessCriteriaMet naming the first matching rule', () => {
      const job = anIndexedJob(4, { successPolicy: { rules: [{ succeededIndexes: '3' }, { succeededCount: 2 }] } });
      given(job, succeeded(0), succeeded(1), running(2), running(3))
        .when({ now: at(1) })
        .then(({ status }) => expect(status.conditions[0]).toMatchObject({ type: 'SuccessCriteriaMet', message: 'Matched rules at index 1' }));
    });
  });

  describe('When no rule is met yet', () => {
    it('keeps the Job running', () => {
      const job = anIndexedJob(3, { successPolicy: { rules: [{ succeededIndexes: '0,1' }] } });
      given(job, succeeded(0), running(1), running(2)).when({ now: at(1) }).thenStatus({ conditions: [] });
    });
  });

  describe('When a failure is found in the same sync', () => {
    it('lets backoffLimit win over the success policy', () => {
      const job = anIndexedJob(3, { ...leaderRule, backoffLimit: 0 });
      given(job, succeeded(0), podObserved(aPod({ index: 1, phase: 'Failed' }), at(1)), running(2))
        .when({ now: at(1) })
        .then((o) => expect(newConditions(o)).toEqual(['FailureTarget=True:BackoffLimitExceeded']));
    });
  });

  describe('When SuccessCriteriaMet is set', () => {
    const job = anIndexedJob(3, { ...leaderRule, backoffLimit: 0 });

    it('ignores later failures for the outcome but counts them', () => {
      const lateFailure = podObserved(aPod({ index: 1, phase: 'Failed', exitCode: 1 }), at(2));
      given(job, succeeded(0), running(1), running(2), lateFailure)
        .when({ now: at(2) })
        .thenNothingHappened()
        .then(({ status }) => {
          expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy']);
          expect(status.failed).toBe(1);
        });
    });
  });

  describe('When an Indexed Job has no success policy', () => {
    it('completes with CompletionsReached once every index succeeded', () => {
      given(anIndexedJob(2), succeeded(0), succeeded(1))
        .when({ now: at(1) })
        .then((o) => expect(newConditions(o)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']));
    });
  });
});
