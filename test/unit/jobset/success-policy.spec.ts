import { describe, expect, it } from 'vitest';
import { defaultJobSetSpec } from '../../../shared/jobset/defaulting.ts';
import type { ChildJobView } from '../../../shared/jobset/index.ts';
import { JobSetSpecSchema } from '../../../shared/jobset/schemas.ts';
import { matchSuccessPolicy } from '../../../shared/jobset/success-policy.ts';
import { at, jobFailed, jobSetObserved, jobSucceeded } from './support/builders.ts';
import { commandsOf, conditionsOf, given } from './support/given.ts';

const succeeded = (name: string, replicatedJob: string): ChildJobView => ({
  name, uid: undefined, replicatedJob, jobIndex: 0, restartAttempt: 0, parallelism: 1, completions: 1,
  suspend: false, active: 0, ready: 0, succeeded: 1, failed: 0, finished: 'Complete', failure: undefined,
  terminating: false, observedAt: 1,
});

const specWith = (successPolicy: Record<string, unknown>) =>
  defaultJobSetSpec(
    JobSetSpecSchema.parse({
      replicatedJobs: [
        { name: 'a', replicas: 1, template: { spec: {} } },
        { name: 'b', replicas: 3, template: { spec: {} } },
      ],
      successPolicy,
    }),
  );

describe('matchSuccessPolicy', () => {
  it.each([
    { name: 'All without targets needs every Job', policy: { operator: 'All' }, jobs: ['a', 'b', 'b'], want: { met: false, required: 4 } },
    { name: 'All without targets is met by every Job', policy: { operator: 'All' }, jobs: ['a', 'b', 'b', 'b'], want: { met: true, required: 4 } },
    { name: 'All with targets counts only targeted Jobs', policy: { operator: 'All', targetReplicatedJobs: ['b'] }, jobs: ['b', 'b', 'b'], want: { met: true, required: 3 } },
    { name: 'Any is met by one Job', policy: { operator: 'Any' }, jobs: ['a'], want: { met: true, required: 1 } },
    { name: 'Any ignores Jobs of a non-target replicated job', policy: { operator: 'Any', targetReplicatedJobs: ['b'] }, jobs: ['a'], want: { met: false, required: 1 } },
  ])('$name', ({ policy, jobs, want }) => {
    const result = matchSuccessPolicy(specWith(policy), jobs.map((rjob, i) => succeeded(`js-${rjob}-${i}`, rjob)));
    expect({ met: result.met, required: result.required }).toEqual(want);
  });
});

describe('success policy Any', () => {
  const anyOf = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }], successPolicy: { operator: 'Any' } });

  it('completes the JobSet on the first success and deletes the Jobs still running', () => {
    const outcome = given(anyOf, jobSucceeded('b', 0, { seconds: 5 })).whenSettled({ now: at(5) });

    expect(conditionsOf(outcome.status)).toEqual([
      { type: 'Completed', status: 'True', reason: 'AllJobsCompleted', message: 'jobset completed successfully' },
    ]);
    expect(outcome.status.terminalState).toBe('Completed');
    expect(commandsOf(outcome.commands)).toEqual(['DeleteJob js-a-0', 'DeleteJob js-b-1']);
  });

  it('records which succeeded Jobs met the policy', () => {
    const success = jobSucceeded('b', 0, { seconds: 5 });
    const outcome = given(anyOf, success).when({ now: at(5) });

    expect(outcome.events[0]).toMatchObject({
      type: 'JobSetCompleted',
      operator: 'Any',
      succeededJobs: ['js-b-0'],
      required: 1,
      tippedBy: outcome.log.indexOf(success) + 1,
    });
  });

  it('ignores a later failure once the JobSet is Completed', () => {
    const outcome = given(anyOf, jobSucceeded('b', 0, { seconds: 5 }), jobFailed('a', 0, { seconds: 10 }))
      .whenSettled({ now: at(10) });

    expect(outcome.events).toEqual([]);
    expect(outcome.status.replicatedJobsStatus[0]).toMatchObject({ name: 'a', failed: 1 });
  });
});

describe('success policy All', () => {
  it('keeps the JobSet running while one Job is unfinished', () => {
    const outcome = given(
      jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }] }),
      jobSucceeded('a', 0, { seconds: 5 }),
    ).whenSettled({ now: at(5) });

    expect(outcome.events).toEqual([]);
    expect(outcome.status.terminalState).toBe('');
  });
});
