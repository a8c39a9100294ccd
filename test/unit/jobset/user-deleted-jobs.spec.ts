import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobName, jobReady, jobSetObserved, jobSucceeded } from './support/builders.ts';
import { commandsOf, given } from './support/given.ts';

// A user deletes a child Job (issue 21, "nothing wedged"); its deletion comes from the cluster's
// watch and can reach the log before the Job's last snapshot. A deleted object has no snapshot
// newer than its deletion, so a late one showing the Job complete is what the cluster showed
// before the deletion: the JobSet's controller counted it toward the success policy then.

const withUid = (event: JobSetObservation, uid: string): JobSetObservation =>
  event.type === 'JobObserved' ? { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid } } } : event;
const deletedWithUid = (event: JobSetObservation, uid: string): JobSetObservation => ({ ...event, uid }) as JobSetObservation;

describe('a user deleted a child Job, and its completion arrives after the deletion', () => {
  const anyOf = jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }], successPolicy: { operator: 'Any' } });
  const allOf = jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }] });

  it('given success policy Any, when reconciled, then the JobSet completes on it and counts it nowhere', () => {
    const outcome = given(
      anyOf,
      withUid(jobReady('a', 1, { seconds: 1 }), 'uid-1'),
      deletedWithUid(jobDeleted('a', 0, 4), 'uid-0'),
      withUid(jobSucceeded('a', 0, { seconds: 3 }), 'uid-0'),
    ).whenSettled({ now: at(4) });
    expect(outcome.state.terminalState).toBe('Completed');
    expect(outcome.status.replicatedJobsStatus[0]).toMatchObject({ succeeded: 0 });
    expect(commandsOf(outcome.commands)).not.toContain(`CreateJob ${jobName('a', 0)}`);
  });

  it('given success policy All, when reconciled, then the JobSet runs on and creates the deleted Job again', () => {
    const outcome = given(
      withUid(jobReady('a', 1, { seconds: 1 }), 'uid-1'),
      deletedWithUid(jobDeleted('a', 0, 4), 'uid-0'),
      withUid(jobSucceeded('a', 0, { seconds: 3 }), 'uid-0'),
      allOf,
    ).whenSettled({ now: at(4) });
    expect(outcome.state.terminalState).toBe('');
    expect(commandsOf(outcome.commands)).toEqual([`CreateJob ${jobName('a', 0)}`]);
  });

  it('given the Job created again under its name was seen, when reconciled, then the late completion stays dropped', () => {
    const outcome = given(
      anyOf,
      deletedWithUid(jobDeleted('a', 0, 4), 'uid-0'),
      withUid(jobReady('a', 0, { seconds: 5 }), 'uid-0b'),
      withUid(jobSucceeded('a', 0, { seconds: 3 }), 'uid-0'),
    ).whenSettled({ now: at(5) });
    expect(outcome.state.terminalState).toBe('');
    expect(outcome.state.children[jobName('a', 0)]).toMatchObject({ uid: 'uid-0b', ready: 1, finished: undefined });
  });

  it('given the completion and then the deletion folded before the JobSet was seen, when reconciled, then the JobSet completes on it', () => {
    const outcome = given(
      withUid(jobSucceeded('a', 0, { seconds: 2 }), 'uid-0'),
      deletedWithUid(jobDeleted('a', 0, 3), 'uid-0'),
      anyOf,
    ).whenSettled({ now: at(3) });
    expect(outcome.state.terminalState).toBe('Completed');
    expect(outcome.status.replicatedJobsStatus[0]).toMatchObject({ succeeded: 0 });
  });
});
