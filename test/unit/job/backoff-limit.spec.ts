import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, podDeleted, podObserved } from '../../support/builders.ts';
import { conditionsOf, given, newConditions, terminatedPods } from '../../support/job-spec.ts';

const BACKOFF_MESSAGE = 'Job has reached the specified backoff limit';
const FAILED_ON_BACKOFF = ['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded'];
const failedPods = (count: number, when: string) =>
  Array.from({ length: count }, (_, i) => podObserved(aPod({ name: `failed-${i}`, phase: 'Failed' }), when));

describe('backoffLimit with restartPolicy Never', () => {
  describe('When failures stay within the limit', () => {
    it('tolerates as many failures as backoffLimit and replaces the failed pods', () => {
      given(aJob({ backoffLimit: 2 }), ...failedPods(2, at(100)))
        .when({ now: at(100) })
        .then({
          decisions: [{ type: 'StartTimeSet' }, { type: 'PodCreationsRequested', count: 1 }],
          status: { failed: 2, conditions: [] },
        });
    });

    it('tolerates six failures with the default backoffLimit', () => {
      given(aJob(), ...failedPods(6, at(1000)))
        .when({ now: at(1000) })
        .thenStatus({ failed: 6, conditions: [] });
    });
  });

  describe('When failures exceed the limit', () => {
    it('fails the Job with BackoffLimitExceeded, interim condition first', () => {
      given(aJob({ backoffLimit: 2 }), ...failedPods(3, at(1)))
        .when({ now: at(1) })
        .then({
          decisions: [
            { type: 'StartTimeSet' },
            {
              type: 'JobConditionChanged',
              condition: { type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', message: BACKOFF_MESSAGE },
            },
            {
              type: 'JobConditionChanged',
              condition: { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: BACKOFF_MESSAGE },
            },
          ],
          commands: [],
          status: { failed: 3, completionTime: null },
        });
    });

    it('fails on the seventh failure with the default backoffLimit', () => {
      given(aJob(), ...failedPods(7, at(1)))
        .when({ now: at(1) })
        .then((outcome) => expect(newConditions(outcome)).toEqual(FAILED_ON_BACKOFF));
    });

    it('fails on the first failure with backoffLimit 0', () => {
      given(aJob({ backoffLimit: 0 }), ...failedPods(1, at(1)))
        .when({ now: at(1) })
        .then((outcome) => expect(conditionsOf(outcome.status)).toEqual(FAILED_ON_BACKOFF));
    });
  });

  describe('When the limit is exceeded while pods still run', () => {
    const history = [
      podObserved(aPod({ name: 'running' }), at(1)),
      ...failedPods(2, at(1)),
    ];

    it('deletes the running pods keeping their finalizers, and counts them as failed', () => {
      const outcome = given(aJob({ backoffLimit: 1, parallelism: 2, completions: 3 }), ...history)
        .when({ now: at(1) })
        .then({
          decisions: [
            { type: 'StartTimeSet' },
            { type: 'PodsTerminationRequested', cause: 'JobFinishing', finalizersRemoved: false },
            { type: 'JobConditionChanged', condition: { type: 'FailureTarget' } },
          ],
          status: { active: 0, terminating: 1, failed: 3 },
        });
      expect(terminatedPods(outcome)).toEqual(['running']);
    });

    it('writes Failed once the deleted pod is gone', () => {
      given(aJob({ backoffLimit: 1, parallelism: 2, completions: 3 }), ...history, podDeleted('running', at(2)))
        .when({ now: at(2) })
        .then({
          decisions: [{ type: 'JobConditionChanged', condition: { type: 'Failed', reason: 'BackoffLimitExceeded' } }],
          status: { terminating: 0, failed: 3 },
        });
    });
  });
});

describe('backoffLimit with restartPolicy OnFailure', () => {
  const restarting = (restartCount: number) => podObserved(aPod({ name: 'a', restartCount }), at(1));

  describe('When running pods restarted fewer times than the limit', () => {
    it('keeps the Job running', () => {
      given(aJob({ backoffLimit: 3 }, { restartPolicy: 'OnFailure' }), restarting(2))
        .when({ now: at(1) })
        .thenStatus({ conditions: [], active: 1 });
    });
  });

  describe('When the restarts of running pods reach the limit', () => {
    it('fails the Job with BackoffLimitExceeded', () => {
      given(aJob({ backoffLimit: 3 }, { restartPolicy: 'OnFailure' }), restarting(3))
        .when({ now: at(1) })
        .then((outcome) => expect(newConditions(outcome)).toEqual(['FailureTarget=True:BackoffLimitExceeded']));
    });

    it('sums restarts over containers and init containers', () => {
      const pod = aPod({
        name: 'a',
        restartCount: 1,
        containers: [{ name: 'side', restartCount: 1 }],
        initContainers: [{ name: 'init', exitCode: 0, restartCount: 1 }],
      });
      given(aJob({ backoffLimit: 3 }, { restartPolicy: 'OnFailure' }), podObserved(pod, at(1)))
        .when({ now: at(1) })
        .then((outcome) => expect(newConditions(outcome)).toEqual(['FailureTarget=True:BackoffLimitExceeded']));
    });
  });

  describe('When backoffLimit is 0', () => {
    it('fails on the first restart', () => {
      given(aJob({ backoffLimit: 0 }, { restartPolicy: 'OnFailure' }), restarting(1))
        .when({ now: at(1) })
        .then((outcome) => expect(newConditions(outcome)).toEqual(['FailureTarget=True:BackoffLimitExceeded']));
    });

    it('keeps running while nothing restarted', () => {
      given(aJob({ backoffLimit: 0 }, { restartPolicy: 'OnFailure' }), restarting(0))
        .when({ now: at(1) })
        .thenStatus({ conditions: [] });
    });
  });

  describe('When restarted pods have finished', () => {
    it('no longer counts their restarts', () => {
      const done = aPod({ name: 'a', phase: 'Succeeded', restartCount: 5 });
      given(aJob({ backoffLimit: 3, completions: 2 }, { restartPolicy: 'OnFailure' }), podObserved(done, at(1)))
        .when({ now: at(1) })
        .thenStatus({ conditions: [], succeeded: 1 });
    });
  });
});
