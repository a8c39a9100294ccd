import { describe, expect, it } from 'vitest';
import { aJob, anIndexedJob, aPod, at, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { conditionsOf, given, newConditions, terminatedPods } from '../../support/job-spec.ts';

const failJobRule = { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } };

describe('Interim and terminal conditions', () => {
  describe('When the outcome is known and a pod is still terminating', () => {
    const job = aJob({ backoffLimit: 0, parallelism: 2, completions: 2 });
    const history = [podObserved(aPod({ name: 'a', phase: 'Failed' }), at(1)), podObserved(aPod({ name: 'b', deletionTimestamp: at(1) }), at(1))];

    it('writes only the interim condition', () => {
      given(job, ...history)
        .when({ now: at(1) })
        .then((o) => expect(conditionsOf(o.status)).toEqual(['FailureTarget=True:BackoffLimitExceeded']));
    });

    it('writes nothing more while the pod keeps terminating', () => {
      given(job, ...history, tick(at(5))).when({ now: at(5) }).thenNothingHappened();
    });

    it('writes the terminal condition once the pod is gone, after the interim one', () => {
      given(job, ...history, podDeleted('b', at(9)))
        .when({ now: at(9) })
        .then((o) => expect(conditionsOf(o.status)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']));
    });

    it('writes the terminal condition once the pod is terminal', () => {
      given(job, ...history, podObserved(aPod({ name: 'b', phase: 'Failed', deletionTimestamp: at(1) }), at(9)))
        .when({ now: at(9) })
        .then((o) => expect(newConditions(o)).toEqual(['Failed=True:BackoffLimitExceeded']));
    });
  });

  describe('When FailureTarget is set', () => {
    const job = anIndexedJob(2, { ...failJobRule, successPolicy: { rules: [{ succeededIndexes: '1' }] } });

    it('stays on course for Failed even when the success policy is met later', () => {
      given(
        job,
        podObserved(aPod({ index: 0, phase: 'Failed', exitCode: 42 }), at(1)),
        podObserved(aPod({ index: 1 }), at(1)),
        podObserved(aPod({ index: 1, phase: 'Succeeded', deletionTimestamp: at(1) }), at(2)),
      )
        .when({ now: at(2) })
        .then((o) => expect(conditionsOf(o.status)).toEqual(['FailureTarget=True:PodFailurePolicy_0', 'Failed=True:PodFailurePolicy_0']));
    });
  });

  describe('When SuccessCriteriaMet is set', () => {
    const job = anIndexedJob(2, { ...failJobRule, successPolicy: { rules: [{ succeededIndexes: '0' }] } });

    it('stays on course for Complete even when a FailJob rule matches later', () => {
      given(
        job,
        podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(1)),
        podObserved(aPod({ index: 1 }), at(1)),
        podObserved(aPod({ index: 1, phase: 'Failed', exitCode: 42, deletionTimestamp: at(1) }), at(2)),
      )
        .when({ now: at(2) })
        .then((o) => expect(conditionsOf(o.status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']));
    });
  });

  describe('When the Job is finished', () => {
    const finished = [podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1))];

    it('decides nothing more', () => {
      given(aJob(), ...finished, tick(at(5))).when({ now: at(5) }).thenNothingHappened();
    });

    it('deletes a pod that shows up running afterwards, once', () => {
      const late = podObserved(aPod({ name: 'late' }), at(5));
      const outcome = given(aJob(), ...finished, late)
        .when({ now: at(5) })
        .then({ decisions: [{ type: 'PodsTerminationRequested', cause: 'JobFinished', finalizersRemoved: false }] });
      expect(terminatedPods(outcome)).toEqual(['late']);
      given(aJob(), ...finished, late, tick(at(6))).when({ now: at(6) }).thenNothingHappened();
    });

    it('reports no active pod, even for pods it asked for and never saw', () => {
      given(aJob({ activeDeadlineSeconds: 60 }), tick(at(0)), tick(at(400)))
        .when({ now: at(400) })
        .thenStatus({ active: 0, conditions: [{ type: 'FailureTarget', reason: 'DeadlineExceeded' }, { type: 'Failed' }] });
    });

    it('never has Complete and Failed together', () => {
      const failedLate = podObserved(aPod({ name: 'b', phase: 'Failed' }), at(5));
      given(aJob({ backoffLimit: 0 }), ...finished, failedLate)
        .when({ now: at(5) })
        .then((o) => expect(conditionsOf(o.status)).toEqual(['SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached']));
    });
  });
});
