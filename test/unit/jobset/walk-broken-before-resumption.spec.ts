import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobObserved, jobReady, jobSetObserved, versioned } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21: an InOrder JobSet whose walk completed, suspended, then a user deleted a ready Job
// (the JobSet's controller created it again under its name, not started) before the resumption.
// Upstream's resumeJobsIfNecessary on the resumed JobSet found a replica not started and left
// Suspended True. Delivered with the resumption before the suspension and the deletion last, the
// fold revealed the suspension late on a walk the deleted Job still completed in its view and
// turned Suspended False / ResumeJobs; the deletion, arriving after, did not take it back.
// Counterexample of test/property/jobset/user-delete-orders.property.spec.ts at seed 99
// (history-45, 7 of 10 orders), shrunk.

const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'a', replicas: 2 }], startupPolicy: { startupPolicyOrder: 'InOrder' }, suspend });
const jobSet = (version: number, suspend: boolean, seconds: number) => versioned(version, jobSetObserved(spec(suspend), { seconds }));
const withUid = (event: JobSetObservation, uid: string): JobSetObservation =>
  event.type === 'JobObserved' ? { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid } } } : event;
const deletedWithUid = (event: JobSetObservation, uid: string): JobSetObservation => ({ ...event, uid }) as JobSetObservation;

// v1 running; v2, v3 its two Jobs ready (the walk completes); v4 suspended at 0:36; a user
// deletes a-0 at 0:37; v5 resumed at 1:07; v6 a-1 inactive; v7 a-0 created again, not started.
const [v1, ready0, ready1] = [jobSet(1, false, 35), versioned(2, withUid(jobReady('a', 0, { seconds: 35 }), 'a-0-first')), versioned(3, withUid(jobReady('a', 1, { seconds: 35 }), 'a-1'))];
const [v4, deleted, v5] = [jobSet(4, true, 36), deletedWithUid(jobDeleted('a', 0, 37), 'a-0-first'), jobSet(5, false, 67)];
const [v6, v7] = [versioned(6, withUid(jobObserved('a', 1, { seconds: 68 }), 'a-1')), versioned(7, withUid(jobObserved('a', 0, { seconds: 69 }), 'a-0-again'))];
const status = (type: string, s: 'True' | 'False') => expect.objectContaining({ type, status: s });

describe('an InOrder JobSet resumed after a user deleted a Job that had completed its walk (user-delete seed 99 history-45)', () => {
  const inOrder = given(v1, ready0, ready1, v4, deleted, v5, v6, v7).whenSettled({ now: at(69) });

  it('in order: the resumption finds a replica not started, Suspended stays True', () => {
    expect(conditionsOf(inOrder.status)).toContainEqual(status('Suspended', 'True'));
  });

  it('given the resumption before the suspension and the deletion last, when settled, then Suspended is True as in order', () => {
    const late = given(ready1, v1, ready0, v6, v7, v5, v4, deleted).whenSettled({ now: at(69) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given the deletion made after the resumption instead, when settled, then the resumption found the walk complete: Suspended False', () => {
    const deletedLater = deletedWithUid(jobDeleted('a', 0, 68), 'a-0-first');
    const late = given(ready1, v1, ready0, v6, v7, v5, v4, deletedLater).whenSettled({ now: at(69) });
    expect(conditionsOf(late.status)).toContainEqual(status('Suspended', 'False'));
  });
});
