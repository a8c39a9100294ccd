import { describe, expect, it } from 'vitest';
import { fold, type JobSetEvent } from '../../../shared/jobset/index.ts';
import { at, jobDeleted, jobFailed, jobObserved, jobReady, jobSetObserved } from './support/builders.ts';
import { given } from './support/given.ts';

describe('replaying the log', () => {
  it('reproduces the state the decisions were taken on', () => {
    const outcome = given(
      jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }], failurePolicy: { maxRestarts: 2 } }),
      jobReady('a', 0, { seconds: 3 }),
      jobFailed('b', 1, { seconds: 5 }),
      jobDeleted('a', 0, 10),
    ).whenSettled({ now: at(10) });

    expect(fold(outcome.log)).toEqual(outcome.state);
  });

  it('gives every command a distinct id, and the same id when the same decision is taken again', () => {
    const history = given(
      jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 3 }], failurePolicy: { maxRestarts: 2 } }),
      jobFailed('a', 1, { seconds: 5 }),
    );
    const first = history.whenSettled({ now: at(5) });
    const again = history.whenSettled({ now: at(5) });
    const ids = [...history.log, ...first.events].flatMap((event) => ('commandId' in event ? [event.commandId] : []));

    expect(new Set(ids).size).toBe(ids.length);
    expect(again.commands.map((c) => c.commandId)).toEqual(first.commands.map((c) => c.commandId));
  });
});

describe('a child Job snapshot', () => {
  it('does not undo a pending deletion of the same Job', () => {
    const outcome = given(
      jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }], successPolicy: { operator: 'Any' } }),
      jobObserved('a', 0, { seconds: 3, succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] }),
      jobReady('a', 1, { seconds: 6 }),
    ).whenSettled({ now: at(6) });

    expect(outcome.childJobs.find((job) => job.name === 'js-a-1')?.terminating).toBe(true);
  });

  it('is a new Job when its restart attempt differs, so it is not terminating', () => {
    const restarted = given(jobSetObserved({ replicatedJobs: [{ name: 'a' }], failurePolicy: { maxRestarts: 1 } }), jobFailed('a', 0, { seconds: 1 })).whenSettled({ now: at(1) });
    expect(restarted.childJobs.find((job) => job.name === 'js-a-0')?.terminating).toBe(true);
    const events: JobSetEvent[] = [...restarted.log, jobReady('a', 0, { seconds: 2, attempt: 1 })];
    expect(fold(events).children['js-a-0']).toMatchObject({ restartAttempt: 1, terminating: false });
  });
});

describe('a JobSet whose spec fails admission', () => {
  const invalid = jobSetObserved({
    replicatedJobs: [{ name: 'a' }],
    failurePolicy: { rules: [{ action: 'FailJobSet', onJobFailureReasons: ['OOMKilled'] }] },
  });

  it('is rejected once, with every violation, and gets no child Jobs', () => {
    const first = given(invalid).whenSettled({ now: at(0) });

    expect(first.commands).toEqual([]);
    expect(first.events).toEqual([
      {
        type: 'JobSetRejected',
        at: at(0),
        errors: [
          {
            field: 'spec.failurePolicy.rules[0].onJobFailureReasons[0]',
            type: 'FieldValueInvalid',
            detail: "invalid job failure reason 'OOMKilled' in failure policy is not a recognized job failure reason",
          },
        ],
        tippedBy: 1,
      },
    ]);
    expect(given(invalid, invalid).whenSettled({ now: at(1) }).events).toEqual([]);
  });
});
