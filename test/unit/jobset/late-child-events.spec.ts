import { describe, expect, it } from 'vitest';
import { fold, type JobSetEvent } from '../../../shared/jobset/index.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobFailed, jobName, jobObserved, jobReady, jobSetObserved, jobSucceeded } from './support/builders.ts';
import { given } from './support/given.ts';

// Child Job snapshots reach a JobSet's log from jobfold's own Job reconciles, and deletions from
// the cluster's watch: they can cross. A snapshot of a Job already deleted must not bring it
// back, a stale snapshot must not replace a newer one, and a status that comes back to an
// earlier value is news again.

const withUid = (event: JobSetObservation, uid: string, seq?: number): JobSetObservation => {
  if (event.type !== 'JobObserved') return event;
  return { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid } }, ...(seq === undefined ? {} : { sequence: { epoch: 0, seq } }) };
};
const deletedWithUid = (event: JobSetObservation, uid: string): JobSetObservation => ({ ...event, uid }) as JobSetObservation;

describe('a child Job snapshot that arrives late', () => {
  const spec = jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }], failurePolicy: { maxRestarts: 3 } });

  it('does not bring a deleted Job back into its JobSet', () => {
    const events: JobSetEvent[] = [
      spec,
      withUid(jobReady('a', 0, { seconds: 1 }), 'uid-0'),
      deletedWithUid(jobDeleted('a', 0, 2), 'uid-0'),
      withUid(jobReady('a', 0, { seconds: 1 }), 'uid-0'),
    ];
    const state = fold(events);
    expect(state.children[jobName('a', 0)]).toBeUndefined();
    expect(state.position).toBe(4);
  });

  it('but a new Job of the same name (a new uid) is a new child', () => {
    const state = fold([
      spec,
      withUid(jobReady('a', 0, { seconds: 1 }), 'uid-0'),
      deletedWithUid(jobDeleted('a', 0, 2), 'uid-0'),
      withUid(jobReady('a', 0, { seconds: 3, attempt: 1 }), 'uid-0b'),
    ]);
    expect(state.children[jobName('a', 0)]?.uid).toBe('uid-0b');
  });

  it('stamped older than the snapshot held is dropped (ready stays 1)', () => {
    const state = fold([
      spec,
      withUid(jobReady('a', 0, { seconds: 2 }), 'uid-0', 7),
      withUid(jobObserved('a', 0, { seconds: 1, active: 1, ready: 0 }), 'uid-0', 5),
    ]);
    expect(state.children[jobName('a', 0)]?.ready).toBe(1);
  });

  it('never un-fails a JobSet: a late Job failure after Completed changes neither conditions nor terminal state', () => {
    const outcome = given(
      jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }], successPolicy: { operator: 'Any' } }),
      jobSucceeded('a', 0, { seconds: 3 }),
    ).whenSettled({ now: at(3) });
    expect(outcome.state.terminalState).toBe('Completed');
    const after = given(
      jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }], successPolicy: { operator: 'Any' } }),
      jobSucceeded('a', 0, { seconds: 3 }),
      jobFailed('a', 1, { seconds: 5 }),
    ).whenSettled({ now: at(5) });
    expect(after.state.terminalState).toBe('Completed');
    expect(after.state.conditions).toEqual(outcome.state.conditions);
  });
});
