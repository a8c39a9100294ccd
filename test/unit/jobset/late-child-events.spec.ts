import { describe, expect, it } from 'vitest';
import { fold, jobSetDecider, type JobSetEvent } from '../../../shared/jobset/index.ts';
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
/** The observation with the resourceVersion a Kubernetes 1.35 cluster gave it (KEP-5504). */
const versioned = (event: JobSetObservation, resourceVersion: string): JobSetObservation => {
  if (event.type === 'JobObserved') return { ...event, job: { ...event.job, metadata: { ...event.job.metadata, resourceVersion } } };
  if (event.type === 'JobSetObserved') return { ...event, jobSet: { ...event.jobSet, metadata: { ...event.jobSet.metadata, resourceVersion } } };
  return event;
};

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
      withUid(jobReady('a', 0, { seconds: 3 }), 'uid-0b'),
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

  it('older by resourceVersion than the snapshot held is dropped, whatever the stamps say', () => {
    const state = fold([
      spec,
      versioned(withUid(jobReady('a', 0, { seconds: 2 }), 'uid-0', 1), '90'),
      versioned(withUid(jobObserved('a', 0, { seconds: 1, active: 1, ready: 0 }), 'uid-0', 2), '85'),
    ]);
    expect(state.children[jobName('a', 0)]?.ready).toBe(1);
    expect(state.children[jobName('a', 0)]?.version).toBe('90');
  });

  // Restarted once (a-1 failed): the view's Jobs are of attempt 1 from here on.
  const restartedOnce = [spec, withUid(jobFailed('a', 1, { seconds: 2 }), 'uid-1')];

  it('of an earlier restart attempt does not replace the Job that took its name', () => {
    const { state } = given(
      ...restartedOnce,
      withUid(jobReady('a', 0, { seconds: 5, attempt: 1 }), 'uid-0b'),
      withUid(jobFailed('a', 0, { seconds: 3 }), 'uid-0'),
    );
    expect(state.restarts).toBe(1);
    expect(state.children[jobName('a', 0)]).toMatchObject({ uid: 'uid-0b', restartAttempt: 1, ready: 1, finished: undefined });
  });

  it('as a deletion of the earlier attempt leaves the Job that took its name', () => {
    const { state } = given(
      ...restartedOnce,
      withUid(jobReady('a', 0, { seconds: 5, attempt: 1 }), 'uid-0b'),
      deletedWithUid(jobDeleted('a', 0, 4), 'uid-0'),
    );
    expect(state.children[jobName('a', 0)]?.uid).toBe('uid-0b');
    expect(state.deletedChildren).toHaveProperty('uid-0');
  });

  it('as a snapshot stored before the deletions had times restores them: a late snapshot of the Job still stays out', () => {
    const { state } = given(spec, deletedWithUid(jobDeleted('a', 0, 4), 'uid-0'));
    const { deletedChildren: _times, ...stored } = state;
    const restored = jobSetDecider().snapshot.restore({ ...stored, deletedChildUids: ['uid-0'] });
    const late = fold([withUid(jobReady('a', 0, { seconds: 3 }), 'uid-0')], restored);
    expect(late.children[jobName('a', 0)]).toBeUndefined();
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

describe('a JobSet observation that arrives late', () => {
  const observed = (suspend: boolean, resourceVersion: string, seconds: number) =>
    versioned(jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 1 }], suspend }, { seconds }), resourceVersion);

  it('older by resourceVersion than the one held is dropped: a resumed JobSet is not suspended again', () => {
    const state = fold([observed(false, '12', 2), observed(true, '11', 1)]);
    expect(state.jobSet?.spec.suspend).toBe(false);
    expect(state.jobSetOrder).toEqual({ version: '12', sequence: undefined });
    expect(state.position).toBe(2);
  });

  it('older by the forwarder stamp is dropped when versions are not comparable', () => {
    const stamped = (suspend: boolean, seq: number) => ({ ...jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 1 }], suspend }), sequence: { epoch: 1, seq } });
    expect(fold([stamped(false, 2), stamped(true, 1)]).jobSet?.spec.suspend).toBe(false);
  });

  it('newer replaces it', () => {
    expect(fold([observed(false, '11', 1), observed(true, '12', 2)]).jobSet?.spec.suspend).toBe(true);
  });

  it('of another JobSet under the same name (a new uid) starts over, whatever its version', () => {
    const other = versioned(jobSetObserved({ replicatedJobs: [{ name: 'b', replicas: 1 }] }, { uid: 'js-uid-2', seconds: 3 }), '5');
    expect(fold([observed(false, '12', 2), other]).jobSet?.metadata.uid).toBe('js-uid-2');
  });
});
