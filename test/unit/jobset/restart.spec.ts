import { describe, expect, it } from 'vitest';
import { at, jobDeleted, jobFailed, jobReady, jobSetObserved, jobSucceeded } from './support/builders.ts';
import { commandsOf, conditionsOf, given } from './support/given.ts';

const twoReplicatedJobs = (failurePolicy?: Record<string, unknown>) =>
  jobSetObserved({
    replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }],
    ...(failurePolicy === undefined ? {} : { failurePolicy }),
  });

const restartOnBackoff = { maxRestarts: 1, rules: [{ name: 'restartOnBackoff', action: 'RestartJobSet', onJobFailureReasons: ['BackoffLimitExceeded'] }] };

describe('a failed child Job under RestartJobSet', () => {
  it('records the restart with the rule, the failed Job and the observation that tipped it', () => {
    const failure = jobFailed('b', 1, { seconds: 5, message: 'Job has reached the specified backoff limit' });
    const outcome = given(twoReplicatedJobs(restartOnBackoff), failure).when({ now: at(5) });

    const position = outcome.log.indexOf(failure) + 1;
    expect(outcome.events).toEqual([
      {
        type: 'JobSetRestarted',
        at: at(5),
        action: 'RestartJobSet',
        rule: { index: 0, name: 'restartOnBackoff', action: 'RestartJobSet' },
        failedJob: {
          name: 'js-b-1',
          replicatedJob: 'b',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
          failedAt: at(5),
          observedAt: position,
        },
        restarts: 1,
        restartsCountTowardsMax: 1,
        condition: {
          type: 'RestartingJobSet',
          status: 'True',
          reason: 'FailurePolicy_restartOnBackoff',
          message: 'applying RestartJobSet failure policy action (first failed job: js-b-1)',
        },
        tippedBy: position,
      },
    ]);
    expect(outcome.commands).toEqual([]);
  });

  it('deletes every Job of the earlier attempt on the next pass, foreground', () => {
    const outcome = given(twoReplicatedJobs(restartOnBackoff), jobFailed('b', 1, { seconds: 5 })).whenSettled({ now: at(5) });

    expect(outcome.commands.map((c) => c.type === 'DeleteJob' && `${c.name} ${c.propagationPolicy}`)).toEqual([
      'js-a-0 Foreground',
      'js-b-0 Foreground',
      'js-b-1 Foreground',
    ]);
    expect(outcome.childJobs.every((job) => job.terminating)).toBe(true);
  });

  it('recreates each Job with the new restart attempt as soon as its old Job is gone (Recreate)', () => {
    const outcome = given(
      twoReplicatedJobs(restartOnBackoff),
      jobFailed('b', 1, { seconds: 5 }),
      jobDeleted('a', 0, 10),
    ).whenSettled({ now: at(10) });

    expect(outcome.commands.map((c) => c.type === 'CreateJob' && `${c.name} attempt ${c.restartAttempt}`)).toEqual([
      'js-a-0 attempt 1',
    ]);
  });

  it('waits for every old Job to be gone before recreating any (BlockingRecreate)', () => {
    const blocking = { ...restartOnBackoff, restartStrategy: 'BlockingRecreate' };
    const history = [twoReplicatedJobs(blocking), jobFailed('b', 1, { seconds: 5 }), jobDeleted('a', 0, 10), jobDeleted('b', 0, 15)];

    expect(given(...history).whenSettled({ now: at(15) }).commands).toEqual([]);
    const last = given(...history, jobDeleted('b', 1, 20)).whenSettled({ now: at(20) });
    expect(commandsOf(last.commands)).toEqual(['CreateJob js-a-0', 'CreateJob js-b-0', 'CreateJob js-b-1']);
  });

  it('turns RestartingJobSet False with JobsReady once every recreated Job is ready', () => {
    const outcome = given(
      twoReplicatedJobs(restartOnBackoff),
      jobFailed('b', 1, { seconds: 5 }),
      jobDeleted('a', 0, 10),
      jobDeleted('b', 0, 11),
      jobDeleted('b', 1, 12),
      jobReady('a', 0, { seconds: 15, attempt: 1 }),
      jobReady('b', 0, { seconds: 16, attempt: 1 }),
      jobReady('b', 1, { seconds: 17, attempt: 1 }),
    ).whenSettled({ now: at(17) });

    expect(conditionsOf(outcome.status)).toEqual([
      { type: 'RestartingJobSet', status: 'False', reason: 'JobsReady', message: 'all jobs are ready' },
    ]);
  });

  it('fails with ReachedMaxRestarts on the next failure and turns RestartingJobSet False', () => {
    const outcome = given(
      twoReplicatedJobs(restartOnBackoff),
      jobFailed('b', 1, { seconds: 5 }),
      jobDeleted('a', 0, 10),
      jobDeleted('b', 0, 11),
      jobDeleted('b', 1, 12),
      jobFailed('a', 0, { seconds: 20, attempt: 1 }),
    ).whenSettled({ now: at(20) });

    expect(conditionsOf(outcome.status)).toEqual([
      { type: 'RestartingJobSet', status: 'False', reason: 'JobSetFailed', message: 'jobset failed' },
      {
        type: 'Failed',
        status: 'True',
        reason: 'ReachedMaxRestarts',
        message: 'jobset failed due to reaching max number of restarts (first failed job: js-a-0)',
      },
    ]);
    expect(outcome.status.terminalState).toBe('Failed');
    expect(commandsOf(outcome.commands)).toEqual(['DeleteJob js-b-0', 'DeleteJob js-b-1']);
  });

  it('turns RestartingJobSet False with JobSetCompleted when the recreated Jobs succeed', () => {
    const outcome = given(
      twoReplicatedJobs(restartOnBackoff),
      jobFailed('b', 1, { seconds: 5 }),
      jobDeleted('a', 0, 10),
      jobDeleted('b', 0, 11),
      jobDeleted('b', 1, 12),
      jobSucceeded('a', 0, { seconds: 15, attempt: 1 }),
      jobSucceeded('b', 0, { seconds: 16, attempt: 1 }),
      jobSucceeded('b', 1, { seconds: 17, attempt: 1 }),
    ).whenSettled({ now: at(17) });

    expect(conditionsOf(outcome.status)).toContainEqual(
      { type: 'RestartingJobSet', status: 'False', reason: 'JobSetCompleted', message: 'jobset completed successfully' },
    );
    expect(outcome.status.terminalState).toBe('Completed');
  });
});

describe('a failed child Job without a failure policy', () => {
  it('fails the JobSet with FailedJobs and deletes the Jobs still running, keeping the failed one', () => {
    const outcome = given(twoReplicatedJobs(), jobFailed('a', 0, { seconds: 5 })).whenSettled({ now: at(5) });

    expect(conditionsOf(outcome.status)).toEqual([
      {
        type: 'Failed',
        status: 'True',
        reason: 'FailedJobs',
        message: 'jobset failed due to one or more job failures (first failed job: js-a-0)',
      },
    ]);
    expect(commandsOf(outcome.commands)).toEqual(['DeleteJob js-b-0', 'DeleteJob js-b-1']);
    expect(outcome.childJobs.find((job) => job.name === 'js-a-0')?.terminating).toBe(false);
  });

  it('differs from an empty failure policy, which applies the default restart with maxRestarts 0', () => {
    const outcome = given(twoReplicatedJobs({}), jobFailed('a', 0, { seconds: 5 })).whenSettled({ now: at(5) });

    expect(conditionsOf(outcome.status)[0]?.reason).toBe('ReachedMaxRestarts');
  });
});
