import { describe, expect, it } from 'vitest';
import type { PodObserved } from '../../../shared/job/events.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved, T0, type PodOptions } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';
import { mayHoldUnseenPods } from '../../../shared/job/cluster-finish.ts';
import { jobStatus } from '../../../shared/job/status.ts';

// Issue 21: a pod first seen after the cluster finished the Job (on its clock) can arrive before
// the evidence that finished it. The cluster's order writes the terminal condition at once and
// never counts that pod (upstream does not sync a finished Job); jobfold, holding every pod in one
// view, waited for it at FailureTarget and counted it failed. shared/job/cluster-finish.ts.

/** The pod as the cluster reported it at `rv`, observed at `when`. */
const pod = (name: string, rv: number, when: string, options: PodOptions = {}): PodObserved =>
  ({ ...podObserved(aPod({ name, resourceVersion: String(rv), ...options }), when), eventId: `${name}/${rv}` });

const FAILED = ['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded'];

describe('A Job failed at its start by a pod failed then, another pod first seen 400 s later', () => {
  const job = aJob({ backoffLimit: 0, parallelism: 2, completions: 2 });
  const failure = pod('a', 2, T0, { phase: 'Failed', exitCode: 1 });
  const later = pod('b', 3, at(400));

  it("in the cluster's order: Failed at once, the later pod terminated as lingering and never counted", () => {
    given(job, failure, later)
      .when()
      .then(({ status, commands }) => {
        expect(conditionsOf(status)).toEqual(FAILED);
        expect(status).toMatchObject({ failed: 1, active: 0, terminating: 0 });
        expect(commands).toMatchObject([{ type: 'TerminatePod', podName: 'b' }]);
      });
  });

  it('the later pod first: Failed at once too, the pod neither waited for nor counted', () => {
    given(null, later, jobObserved(job, T0), failure)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(FAILED);
        expect(status).toMatchObject({ failed: 1, active: 0, terminating: 0 });
      });
  });

  it('the later pod first, its failure after the finish: not counted either', () => {
    given(null, later, jobObserved(job, T0), failure, pod('b', 4, at(410), { phase: 'Failed', exitCode: 1 }))
      .when()
      .thenStatus({ failed: 1, active: 0, terminating: 0 });
  });

  it('a pod the cluster saw before the finish, arriving after it, still holds the Job (reopenFinish)', () => {
    given(null, later, jobObserved(job, T0), failure, pod('b', 1, T0))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['FailureTarget=True:BackoffLimitExceeded']);
        expect(status).toMatchObject({ terminating: 1 });
      });
  });
});

describe('A pod first seen within the expectations timeout after the criterion was met', () => {
  // The Job ran before its criterion: its controller may have created the pod then and waited to see it.
  it('is waited for and counted, as when it arrives in order', () => {
    const job = aJob({ backoffLimit: 0, parallelism: 2, completions: 2 });
    const failure = pod('a', 2, at(10), { phase: 'Failed', exitCode: 1 });
    given(null, pod('b', 3, at(200)), jobObserved(job, T0), failure)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(['FailureTarget=True:BackoffLimitExceeded']);
        expect(status).toMatchObject({ failed: 2, terminating: 1 });
      });
  });
});

describe('The later pod\'s own failure arriving before the evidence that failed the Job', () => {
  // Counted when it arrived (nothing told it came after the finish yet), it is left out of the
  // final status once the evidence fixes the finish before it (late-outcome.ts takeOutUnseenCounts):
  // upstream's status is frozen at the finish.
  const job = aJob({ backoffLimit: 1, parallelism: 2, completions: 2 });
  const failures = [pod('a', 2, T0, { phase: 'Failed', exitCode: 1 }), pod('c', 3, T0, { phase: 'Failed', exitCode: 1 })];
  const later = [pod('b', 4, at(400), { phase: 'Failed', exitCode: 1 }), pod('d', 5, at(400))];

  it("in the cluster's order: Failed at once on the two failures, the later pods never counted", () => {
    given(job, ...failures, ...later)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(FAILED);
        expect(status).toMatchObject({ failed: 2, active: 0, terminating: 0 });
      });
  });

  it('the later pods and the Job first: the Job still fails at once, and the final status counts as the cluster did', () => {
    given(null, ...later, jobObserved(job, T0), ...failures)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(FAILED);
        expect(status).toMatchObject({ failed: 2, active: 0, terminating: 0 });
      });
  });

  it('every pod before the Job (one view of all of them): the same', () => {
    given(null, ...later, ...failures, jobObserved(job, T0))
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(FAILED);
        expect(status).toMatchObject({ failed: 2, active: 0, terminating: 0 });
      });
  });
});

describe('backoffLimitPerIndex: an index failed only by a pod first seen after the finish', () => {
  // history-25 of the generated cluster histories: the Job failed on its first failure (backoffLimit
  // 0); a replacement of the same index, seen failing 400 s later, failed the index by its own
  // failure count. The cluster never listed it: neither its failure nor its index is in the status.
  const job = aJob({ backoffLimit: 0, parallelism: 2, completions: 2, completionMode: 'Indexed', backoffLimitPerIndex: 1 });
  const failure = pod('a', 2, T0, { phase: 'Failed', exitCode: 1, index: 0 });
  const replacement = pod('b', 3, at(400), { phase: 'Failed', exitCode: 1, index: 0, failureCount: 1 });

  it("in the cluster's order: failed 1, no failed index", () => {
    given(job, failure, replacement).when().thenStatus({ failed: 1, failedIndexes: '' });
  });

  it('every pod before the Job: the same', () => {
    given(null, replacement, failure, jobObserved(job, T0)).when().thenStatus({ failed: 1, failedIndexes: '' });
  });
});

describe('A failing Job waiting for its terminating pods does not walk them at every sync', () => {
  // decide asks at every sync whether a terminating pod is one the cluster never saw
  // (cluster-finish.ts); while no pod was first seen past the finish floor, none can be.
  const job = aJob({ backoffLimit: 0, parallelism: 3, completions: 3 });
  const running = [pod('b', 2, T0), pod('c', 3, T0)];
  const failure = pod('a', 4, at(10), { phase: 'Failed', exitCode: 1 });

  it('no pod first seen past the floor (the criterion, plus the expectations timeout): none can be unseen', () => {
    const { state } = given(job, ...running, failure).when();
    expect(conditionsOf(jobStatus(state))).toEqual(['FailureTarget=True:BackoffLimitExceeded']);
    expect(mayHoldUnseenPods(state, state.outcomeMetAt ?? 0)).toBe(false);
  });

  it('a pod first seen past it: the pods are walked', () => {
    const { state } = given(job, ...running, failure, pod('d', 5, at(400))).when();
    expect(conditionsOf(jobStatus(state))).toEqual(['FailureTarget=True:BackoffLimitExceeded']);
    expect(mayHoldUnseenPods(state, state.outcomeMetAt ?? 0)).toBe(true);
  });
});

describe('Where only Failed pods are replaced, the later pod seen tracked and deleted before the evidence arrives', () => {
  // observe-pod.ts inferDeletedWhileFailing counts a pod deleted while the Job was failing: not one
  // the cluster saw only after it had finished the Job.
  const job = aJob({ backoffLimit: 0, parallelism: 2, completions: 2, podReplacementPolicy: 'Failed' });
  const failure = pod('a', 2, T0, { phase: 'Failed', exitCode: 1 });
  const later = [pod('b', 3, at(400)), podDeleted('b', at(410))];

  it("in the cluster's order: not counted", () => {
    given(job, failure, ...later).when().thenStatus({ failed: 1 });
  });

  it('the later pod first: not counted either', () => {
    given(null, ...later, jobObserved(job, T0), failure)
      .when()
      .then(({ status }) => {
        expect(conditionsOf(status)).toEqual(FAILED);
        expect(status).toMatchObject({ failed: 1, terminating: 0 });
      });
  });
});
