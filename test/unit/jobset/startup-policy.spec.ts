import { describe, expect, it } from 'vitest';
import { defaultJobSetSpec } from '../../../shared/jobset/defaulting.ts';
import type { ReplicatedJobStatus } from '../../../shared/jobset/replicated-jobs-status.ts';
import { JobSetSpecSchema } from '../../../shared/jobset/schemas.ts';
import { matchStartupPolicy } from '../../../shared/jobset/startup-policy.ts';
import { jobReady, jobSetObserved, jobSucceeded, at } from './support/builders.ts';
import { commandsOf, conditionsOf, given } from './support/given.ts';

const driverAndWorkers = (extra: Record<string, unknown> = {}) =>
  jobSetObserved({
    replicatedJobs: [{ name: 'driver' }, { name: 'workers', replicas: 2 }],
    startupPolicy: { startupPolicyOrder: 'InOrder' },
    ...extra,
  });

const IN_PROGRESS = {
  type: 'StartupPolicyInProgress',
  status: 'True',
  reason: 'InOrderStartupPolicyInProgress',
  message: 'in order startup policy is in progress',
};

describe('matchStartupPolicy', () => {
  const spec = (order: string, suspend = false) =>
    defaultJobSetSpec(
      JobSetSpecSchema.parse({
        replicatedJobs: [
          { name: 'a', replicas: 1, template: { spec: {} } },
          { name: 'b', replicas: 2, template: { spec: {} } },
        ],
        startupPolicy: { startupPolicyOrder: order },
        suspend,
      }),
    );
  const status = (name: string, counts: Partial<ReplicatedJobStatus>): ReplicatedJobStatus => ({
    name, ready: 0, succeeded: 0, failed: 0, active: 0, suspended: 0, ...counts,
  });

  it.each([
    { name: 'AnyOrder releases every replicated job and writes no condition', order: 'AnyOrder', suspend: false,
      statuses: [], want: { release: ['a', 'b'], condition: undefined, walkComplete: true } },
    { name: 'InOrder releases only the first replicated job that has not started', order: 'InOrder', suspend: false,
      statuses: [status('a', { active: 1 })], want: { release: ['a'], condition: 'InProgress', walkComplete: false } },
    { name: 'InOrder moves on once every Job is ready or finished', order: 'InOrder', suspend: false,
      statuses: [status('a', { succeeded: 1 }), status('b', { ready: 1 })], want: { release: ['b'], condition: 'InProgress', walkComplete: false } },
    { name: 'InOrder completes when all replicated jobs started', order: 'InOrder', suspend: false,
      statuses: [status('a', { ready: 1 }), status('b', { ready: 1, failed: 1 })], want: { release: [], condition: 'Completed', walkComplete: true } },
    { name: 'a suspended InOrder JobSet releases everything, without a condition', order: 'InOrder', suspend: true,
      statuses: [], want: { release: ['a', 'b'], condition: undefined, walkComplete: true } },
  ])('$name', ({ order, suspend, statuses, want }) => {
    expect(matchStartupPolicy(spec(order, suspend), statuses)).toEqual(want);
  });
});

describe('InOrder startup', () => {
  it('creates only the first replicated job and reports the startup in progress', () => {
    const outcome = given(driverAndWorkers()).whenSettled({ now: at(0) });

    expect(commandsOf(outcome.commands)).toEqual(['CreateJob js-driver-0']);
    expect(conditionsOf(outcome.status)).toEqual([IN_PROGRESS]);
  });

  it('creates the next replicated job once every Job of the previous one is ready', () => {
    const outcome = given(driverAndWorkers(), jobReady('driver', 0, { seconds: 5 })).whenSettled({ now: at(5) });

    expect(commandsOf(outcome.commands)).toEqual(['CreateJob js-workers-0', 'CreateJob js-workers-1']);
  });

  it('does not count an active Job that is not ready as started', () => {
    const outcome = given(driverAndWorkers(), jobReady('driver', 0, { seconds: 5, ready: 0 })).whenSettled({ now: at(5) });

    expect(outcome.commands).toEqual([]);
  });

  it('counts a Job that completed without ever being ready as started', () => {
    const outcome = given(driverAndWorkers(), jobSucceeded('driver', 0, { seconds: 5 })).whenSettled({ now: at(5) });

    expect(commandsOf(outcome.commands)).toEqual(['CreateJob js-workers-0', 'CreateJob js-workers-1']);
  });

  it('flips StartupPolicyInProgress to False, keeping its reason, when the startup completes', () => {
    const outcome = given(
      driverAndWorkers(),
      jobReady('driver', 0, { seconds: 5 }),
      jobReady('workers', 0, { seconds: 10 }),
      jobReady('workers', 1, { seconds: 15 }),
    ).whenSettled({ now: at(15) });

    expect(conditionsOf(outcome.status)).toEqual([
      { ...IN_PROGRESS, status: 'False' },
      {
        type: 'StartupPolicyCompleted',
        status: 'True',
        reason: 'InOrderStartupPolicyCompleted',
        message: 'in order startup policy has completed',
      },
    ]);
  });
});

describe('InOrder startup of a suspended JobSet', () => {
  it('creates every Job suspended and writes no startup condition', () => {
    const outcome = given(driverAndWorkers({ suspend: true })).whenSettled({ now: at(0) });

    expect(outcome.commands.map((c) => c.type === 'CreateJob' && c.suspend)).toEqual([true, true, true]);
    expect(conditionsOf(outcome.status)).toEqual([
      { type: 'Suspended', status: 'True', reason: 'SuspendedJobs', message: 'jobset is suspended' },
    ]);
  });

  it('resumes replicated jobs one at a time and stays Suspended until the last one started', () => {
    const resumed = given(driverAndWorkers({ suspend: true }), driverAndWorkers({ suspend: false }))
      .whenSettled({ now: at(5) });

    expect(commandsOf(resumed.commands)).toEqual(['ResumeJob js-driver-0']);
    expect(conditionsOf(resumed.status)).toContainEqual(
      { type: 'Suspended', status: 'True', reason: 'SuspendedJobs', message: 'jobset is suspended' },
    );
  });
});
