import { describe, expect, it } from 'vitest';
import type { PodObserved } from '../../../shared/job/events.ts';
import { explainJob } from '../../../shared/job/explain.ts';
import { aJob, aPod, at, podObserved, tick, type PodOptions } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';
import { EXPECTATIONS_TIMEOUT_MS } from '../../../shared/k8s/job-controller.ts';

// Issue 21: "Decisions may be taken earlier or later depending on the order; the outcome may
// not." A Job jobfold does not run has its outcome decided by its controller, on the criterion
// met first on the cluster's clock (a failure at the same instant: syncJob checks failures
// first). When jobfold decided on the evidence that arrived first and the evidence of the other
// criterion, earlier, arrives later, the outcome is corrected by a logged JobOutcomeCorrected
// (shared/job/outcome-correction.ts). A Job jobfold runs never is: what it enacted stands.

/** The pod as the cluster reported it at `rv`, observed at `when`. */
const pod = (name: string, rv: number, when: string, options: PodOptions = {}): PodObserved =>
  ({ ...podObserved(aPod({ name, resourceVersion: String(rv), ...options }), when), eventId: `${name}/${rv}` });
const MANAGED = 'jobfold.io/job-controller';

/** success-policy__met-earlier-ignores-fail-job-rule: index 1 succeeds at 0:30, index 0 fails at 10:00 with DisruptionTarget (FailJob). */
const job = (managedBy?: string, completions = 2) =>
  aJob({
    completionMode: 'Indexed',
    completions,
    parallelism: completions,
    backoffLimit: 6,
    successPolicy: { rules: [{ succeededCount: 1 }] },
    podFailurePolicy: { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
    ...(managedBy === undefined ? {} : { managedBy }),
  });
// b is first seen succeeded; the failure comes 10 minutes later, when the creation jobfold's model
// asked for at 0:10 (index 1, not seen yet) no longer holds a decision back.
const running = [pod('a', 1, at(10), { index: 0 })] as const;
const succeeded = pod('b', 2, at(30), { index: 1, phase: 'Succeeded' });
const disrupted = pod('a', 3, at(600), { index: 0, phase: 'Failed', conditions: [{ type: 'DisruptionTarget' }] });

describe('A Job jobfold does not run: the criterion met first decides, whichever evidence arrived first', () => {
  it('given the success at 0:30 in order, the FailJob failure at 10:00 changes nothing (the cluster\'s own order)', () => {
    given(job(), ...running, succeeded, disrupted)
      .when()
      .then(({ status }) => expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']));
  });

  it('given the failure at 10:00 arrived first and failed the Job, when the success at 0:30 arrives, the outcome is corrected and audited', () => {
    given(job(), ...running, disrupted, succeeded)
      .when()
      .then(({ status, decisions, history, log, state }) => {
        expect(history.flatMap((h) => h.decisions.filter((d) => d.type === 'JobConditionChanged').map((d) => d.condition.type))).toEqual(['FailureTarget', 'Failed']);
        expect(decisions.map((d) => d.type)).toEqual(['JobOutcomeCorrected', 'JobConditionChanged', 'JobConditionChanged']);
        expect(decisions[0]).toMatchObject({
          retracted: [{ type: 'FailureTarget', reason: 'PodFailurePolicy_0' }, { type: 'Failed', reason: 'PodFailurePolicy_0' }],
          retractedMetAt: at(600),
          reason: 'SuccessPolicy',
          evidence: { metAt: at(30), rule: { policy: 'successPolicy', index: 0 } },
        });
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']);
        expect(status).toMatchObject({ succeeded: 1, failed: 1, completedIndexes: '1' });
        const explained = explainJob(state, log);
        expect(explained.corrections).toEqual([
          expect.objectContaining({ retracted: ['FailureTarget', 'Failed'], retractedMetAt: at(600), reason: 'SuccessPolicy', metAt: at(30) }),
        ]);
        expect(explained.summary).toContain(`took back FailureTarget and Failed (its criterion met at ${at(600)})`);
      });
  });

  it('given the success decided first, a backoff-limit failure of the same instant arriving later wins (one sync: failures are checked first)', () => {
    const strict = aJob({ completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimit: 0, successPolicy: { rules: [{ succeededIndexes: '1' }] } });
    const a = pod('a', 1, at(1), { index: 0 });
    const b = pod('b', 2, at(1), { index: 1 });
    const bSucceeded = pod('b', 4, at(60), { index: 1, phase: 'Succeeded' });
    const aFailed = pod('a', 3, at(60), { index: 0, phase: 'Failed' });
    const want = ['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded'];
    given(strict, a, b, aFailed, bSucceeded).when().then(({ status }) => expect(conditionsOf(status)).toEqual(want));
    // The success is decided at 1:00 (the sync after it); a's failure of 1:00 arrives after a sync at 1:01.
    given(strict, a, b, bSucceeded, tick(at(61)), aFailed)
      .when()
      .then(({ status, log }) => {
        const corrected = log.filter((e) => e.type === 'JobOutcomeCorrected');
        expect(corrected).toEqual([
          expect.objectContaining({ retractedMetAt: at(60), reason: 'BackoffLimitExceeded', evidence: expect.objectContaining({ metAt: at(60) }) }),
        ]);
        expect(conditionsOf(status)).toEqual(want);
        expect(status).toMatchObject({ succeeded: 1, failed: 1 });
      });
  });

  describe('a correction held back by the expectations of the outcome it corrects (a pod it terminated, not yet seen gone)', () => {
    // success-policy__pod-failure-policy-wins-over-success-policy, the failure arriving last: the
    // success terminated a2, the FailJob failure of the same instant wins, but only once the
    // deletion expected for a2 is seen or expires; the finishing Job asked for no wake-up then.
    const a2 = pod('a2', 1, at(3600), { index: 0 });
    const bSucceeded = pod('b', 2, at(3600), { index: 1, phase: 'Succeeded' });
    const a1Failed = pod('a1', 3, at(3600), { index: 0, phase: 'Failed', conditions: [{ type: 'DisruptionTarget' }] });
    const history = [a2, bSucceeded, tick(at(3601)), a1Failed] as const;
    const expiry = new Date(Date.parse(at(3600)) + EXPECTATIONS_TIMEOUT_MS + 1).toISOString();

    it('asks to be woken when the expectation expires', () => {
      given(job(), ...history)
        .when({ now: at(3601) })
        .then(({ status, wakeAt }) => {
          expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy']);
          expect(wakeAt).toBe(expiry);
        });
    });

    it('and corrects the outcome then', () => {
      given(job(), ...history, tick(expiry))
        .when({ now: expiry })
        .then(({ status, log }) => {
          expect(log.filter((e) => e.type === 'JobOutcomeCorrected')).toHaveLength(1);
          expect(conditionsOf(status)).toEqual(['FailureTarget=True:PodFailurePolicy_0']);
        });
    });
  });

  it('a failure after the success on the cluster\'s clock, arriving late, corrects nothing', () => {
    const late = pod('a', 3, at(900), { index: 0, phase: 'Failed', conditions: [{ type: 'DisruptionTarget' }] });
    given(job(), ...running, succeeded, late)
      .when()
      .then(({ status, log }) => {
        expect(log.filter((e) => e.type === 'JobOutcomeCorrected')).toEqual([]);
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']);
      });
  });
  it('given the failure decided first terminated a lingering pod, the correction sends it no second TerminatePod; the one sent keeps the retracted reason', () => {
    const three = job(undefined, 3);
    const c = pod('c', 2, at(10), { index: 2 });
    const cTerminated = pod('c', 5, at(610), { index: 2, phase: 'Failed' });
    given(three, ...running, c, disrupted, cTerminated, succeeded)
      .when()
      .then(({ status, history, log }) => {
        expect(log.filter((e) => e.type === 'JobOutcomeCorrected')).toHaveLength(1);
        expect(conditionsOf(status)).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']);
        const terminations = history.flatMap((h) => h.commands.filter((command) => command.type === 'TerminatePod'));
        expect(terminations.map((t) => [t.podName, t.reason])).toEqual([['c', 'PodFailurePolicy_0']]);
      });
  });
});

describe('A Job jobfold runs is never corrected: what it enacted stands', () => {
  it('the failure it decided on stays, though a success of an earlier instant arrives later', () => {
    given(job(MANAGED), ...running, disrupted, succeeded)
      .when()
      .then(({ status, log }) => {
        expect(log.filter((e) => e.type === 'JobOutcomeCorrected')).toEqual([]);
        expect(conditionsOf(status)).toEqual(['FailureTarget=True:PodFailurePolicy_0', 'Failed=True:PodFailurePolicy_0']);
      });
  });
});
