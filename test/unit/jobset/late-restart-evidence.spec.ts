import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobFailed, jobName, jobReady, jobSetObserved, jobSucceeded } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets: the evidence of a restart (a failed Job of one attempt) can reach the
// log after the Jobs the restart created (the next attempt) or after the failed Job's own
// deletion. The restart is still decided on it, and the JobSet ends as in the cluster's order.
// Counterexamples of test/property/jobset/corpus-orders.property.spec.ts, shrunk.

const withUid = (event: JobSetObservation, uid: string): JobSetObservation =>
  event.type === 'JobObserved' ? { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid } } } : event;
const deletedWithUid = (event: JobSetObservation, uid: string): JobSetObservation => ({ ...event, uid }) as JobSetObservation;

describe('a child Job of a restart attempt the JobSet has not reached', () => {
  // failure-policy__jobset-succeeds-after-one-restart: b-0 fails, the restart recreates a-0 and
  // b-0 (attempt 1), both succeed.
  const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], failurePolicy: { maxRestarts: 1 } });
  const secondAttempt = [
    withUid(jobSucceeded('a', 0, { seconds: 30, attempt: 1 }), 'a-0-1'),
    withUid(jobSucceeded('b', 0, { seconds: 35, attempt: 1 }), 'b-0-1'),
  ];
  const firstFailure = withUid(jobFailed('b', 0, { seconds: 10 }), 'b-0-0');

  it('given the next attempt succeeded, when the earlier attempt\'s failure has not arrived, then the JobSet is not completed on it', () => {
    const outcome = given(spec, ...secondAttempt).whenSettled({ now: at(35) });
    expect(outcome.state.terminalState).toBe('');
    expect(outcome.state.restarts).toBe(0);
    expect(outcome.status.replicatedJobsStatus.map((s) => s.succeeded)).toEqual([0, 0]);
  });

  it('given the next attempt succeeded, when the earlier attempt\'s failure arrives, then the JobSet restarts once and completes', () => {
    const late = given(spec, ...secondAttempt, firstFailure).whenSettled({ now: at(35) });
    const inOrder = given(spec, firstFailure, ...secondAttempt).whenSettled({ now: at(35) });

    expect(late.state.restarts).toBe(1);
    expect(late.state.terminalState).toBe('Completed');
    expect(conditionsOf(late.status)).toEqual([
      { type: 'RestartingJobSet', status: 'False', reason: 'JobSetCompleted', message: 'jobset completed successfully' },
      { type: 'Completed', status: 'True', reason: 'AllJobsCompleted', message: 'jobset completed successfully' },
    ]);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
    expect(late.state.laterAttempts).toEqual({});
  });
});

describe('the failure of a current-attempt child Job that arrives after its deletion', () => {
  // failure-policy__restartjobset-and-ignore-max-restarts-exceeds-max: every attempt's a-0 fails
  // and the restart deletes it; here attempt 1's deletion arrives before its failure.
  const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }], failurePolicy: { maxRestarts: 3 } });
  const restartedOnce = [spec, withUid(jobFailed('a', 0, { seconds: 5 }), 'a-0-0'), deletedWithUid(jobDeleted('a', 0, 10), 'a-0-0')];
  const secondFailure = withUid(jobFailed('a', 0, { seconds: 30, attempt: 1 }), 'a-0-1');
  const secondDeletion = deletedWithUid(jobDeleted('a', 0, 35), 'a-0-1');

  it('given the JobSet restarted once, when the attempt-1 Job is seen deleted and then failed, then it restarts again as in order', () => {
    const late = given(...restartedOnce, secondDeletion, secondFailure).whenSettled({ now: at(35) });
    const inOrder = given(...restartedOnce, secondFailure, secondDeletion).whenSettled({ now: at(35) });

    expect(late.state.restarts).toBe(2);
    expect(late.state.restarts).toBe(inOrder.state.restarts);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    // The deleted Job is not brought back: the attempt-2 Job created under its name holds it.
    expect(late.state.children[jobName('a', 0)]).toMatchObject({ restartAttempt: 2, uid: undefined });
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
  });

  it('given the JobSet restarted once, when a running attempt-1 Job is seen deleted and then running, then it stays gone', () => {
    const { state } = given(...restartedOnce, secondDeletion, withUid(jobReady('a', 0, { seconds: 20, attempt: 1 }), 'a-0-1'));
    expect(state.restarts).toBe(1);
    expect(state.children[jobName('a', 0)]?.uid).not.toBe('a-0-1');
  });

  it('given a held attempt-2 Job failed and was deleted, when attempt 1\'s failure arrives, then both restarts are decided', () => {
    const thirdFailure = withUid(jobFailed('a', 0, { seconds: 55, attempt: 2 }), 'a-0-2');
    const late = given(...restartedOnce, thirdFailure, deletedWithUid(jobDeleted('a', 0, 60), 'a-0-2'), secondFailure).whenSettled({ now: at(60) });
    expect(late.state.restarts).toBe(3);
    expect(late.state.laterAttempts).toEqual({});
  });
});

describe('a JobSet jobfold first sees after its controller restarted it', () => {
  // jobfold deployed while the JobSet ran: the earlier attempt's failure happened before jobfold
  // watched, so only the cluster's `status.restarts` says the restart happened.
  const spec = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], failurePolicy: { maxRestarts: 1 } });
  const reporting = (restarts: number): JobSetObservation =>
    spec.type === 'JobSetObserved' ? { ...spec, jobSet: { ...spec.jobSet, status: { restarts } } } : spec;
  const currentAttempt = [
    withUid(jobSucceeded('a', 0, { seconds: 30, attempt: 1 }), 'a-0-1'),
    withUid(jobSucceeded('b', 0, { seconds: 35, attempt: 1 }), 'b-0-1'),
  ];

  it('given the JobSet reports restarts 1, when its attempt-1 Jobs succeed, then they count and complete it', () => {
    const outcome = given(reporting(1), ...currentAttempt).whenSettled({ now: at(35) });
    expect(outcome.status.replicatedJobsStatus.map((s) => s.succeeded)).toEqual([1, 1]);
    expect(outcome.state.terminalState).toBe('Completed');
    // No evidence of the restart reached the log, so the fold decided none.
    expect(outcome.state.restarts).toBe(0);
    expect(outcome.state.laterAttempts ?? {}).toEqual({});
  });

  it('given its attempt-1 Jobs were held, when the JobSet reporting restarts 1 arrives, then they join the view', () => {
    const outcome = given(spec, ...currentAttempt, reporting(1)).whenSettled({ now: at(35) });
    expect(outcome.state.children[jobName('a', 0)]).toMatchObject({ restartAttempt: 1, uid: 'a-0-1' });
    expect(outcome.state.terminalState).toBe('Completed');
  });

  it('given the JobSet reports restarts 0, when attempt-1 Jobs arrive, then they are still held for the evidence', () => {
    const outcome = given(reporting(0), ...currentAttempt).whenSettled({ now: at(35) });
    expect(outcome.state.terminalState).toBe('');
    expect(Object.keys(outcome.state.laterAttempts ?? {})).toHaveLength(2);
  });
});
