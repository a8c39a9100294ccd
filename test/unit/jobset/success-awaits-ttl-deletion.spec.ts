import { describe, expect, it } from 'vitest';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import { explainJobSet } from '../../../shared/jobset/explain.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobObserved, jobSetObserved, jobSucceeded, versioned } from './support/builders.ts';
import { given } from './support/given.ts';

// Issue 21 for JobSets whose Jobs have ttlSecondsAfterFinished: success policy All over two Jobs;
// w1 completed at 0:05 and its TTL (30 s) ran out at 0:35, when the cluster's TTL controller deleted
// it; the JobSet's controller created it again, and w0 completed at 1:05. Upstream's success policy
// at 1:05 counted the Jobs it listed, w0 alone: the JobSet did not complete. Delivered with w0's
// success before w1's deletion, the fold completed the JobSet on both successes, and the deletion,
// arriving after, took nothing back. Now a success whose TTL ran out before the last success is
// not counted until its deletion is folded: the success policy is held for that evidence.
// Shrunk from ttl-orders.property.spec.ts history-39 (seed 21, 9 of 10 orders).

const spec = (ttl: number, managedBy?: string) => {
  const observed = versioned(1, jobSetObserved({ replicatedJobs: [{ name: 'w', replicas: 2 }], successPolicy: { operator: 'All' }, ...(managedBy === undefined ? {} : { managedBy }) }, { seconds: 0 }));
  if (observed.type !== 'JobSetObserved') throw new Error('a JobSet observation');
  const replicatedJobs = observed.jobSet.spec.replicatedJobs.map((rjob) => ({ ...rjob, template: { ...rjob.template, spec: { ...rjob.template.spec, ttlSecondsAfterFinished: ttl } } }));
  return { ...observed, jobSet: { ...observed.jobSet, spec: { ...observed.jobSet.spec, replicatedJobs } } } as JobSetObservation;
};
const withUid = (event: JobSetObservation, uid: string): JobSetObservation =>
  event.type === 'JobObserved' ? { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid } } } : ({ ...event, uid } as JobSetObservation);

const w1Done = withUid(versioned(2, jobSucceeded('w', 1, { seconds: 5 })), 'w1-first');
const w0Running = withUid(versioned(3, jobObserved('w', 0, { seconds: 5, active: 1, ready: 1 })), 'w0');
const w1Gone = (seconds: number) => withUid(jobDeleted('w', 1, seconds), 'w1-first');
const w0Done = withUid(versioned(4, jobSucceeded('w', 0, { seconds: 65 })), 'w0');
const w1Again = withUid(versioned(5, jobObserved('w', 1, { seconds: 66, active: 1, ready: 1 })), 'w1-again');
const completed = (events: readonly JobSetObservation[]) =>
  given(...events).whenSettled({ now: at(70) }).status.conditions.some((c) => c.type === 'Completed' && c.status === 'True');

describe('a JobSet (success policy All) whose first success its TTL deleted before the last success (ttl history-39)', () => {
  it('given the events in order, when settled, then it is not Completed: the controller listed w0 alone at 1:05', () => {
    expect(completed([spec(30), w1Done, w0Running, w1Gone(35), w0Done, w1Again])).toBe(false);
  });

  it('given w0\'s success before w1\'s deletion, when settled before the deletion arrives, then it is not Completed (held for the deletion)', () => {
    expect(completed([spec(30), w1Done, w0Running, w0Done])).toBe(false);
  });

  it('given the same, when explained, then the summary says the success policy waits for w1\'s deletion, and no longer once it arrived', () => {
    const held = given(spec(30), w1Done, w0Running, w0Done).whenSettled({ now: at(70) });
    expect(explainJobSet(held.state).summary).toContain('is met only counting js-w-1 (ttlSecondsAfterFinished ran out at 2026-01-01T00:00:35.000Z), whose TTL ran out before the last success: it is not decided until its deletion arrives');
    const settled = given(spec(30), w1Done, w0Running, w0Done, w1Gone(35)).whenSettled({ now: at(70) });
    expect(explainJobSet(settled.state).summary).not.toContain('not decided until');
  });

  it('given w0\'s success before w1\'s deletion, when the deletion arrives, then it is not Completed, as in order', () => {
    expect(completed([spec(30), w1Done, w0Running, w0Done, w1Gone(35), w1Again])).toBe(false);
    expect(completed([w0Done, w1Done, spec(30), w0Running, w1Again, w1Gone(35)])).toBe(false);
  });

  it('given the TTL controller deleted w1 only after w0\'s success, when the deletion arrives, then it is Completed: both were listed at 1:05', () => {
    expect(completed([spec(30), w1Done, w0Running, w0Done, w1Gone(66)])).toBe(true);
  });

  it('given a TTL that runs out after the last success, when settled, then it is Completed without waiting for a deletion', () => {
    expect(completed([spec(60), w1Done, w0Running, w0Done])).toBe(true);
  });

  it('given a JobSet jobfold runs, when settled, then its own view decides: both successes listed, Completed', () => {
    expect(completed([spec(30, JOBFOLD_JOBSET_CONTROLLER_NAME), w1Done, w0Running, w0Done])).toBe(true);
  });
});
