import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobFailed, jobObserved, jobReady, jobSetObserved, jobSucceeded, versioned } from './support/builders.ts';
import { given } from './support/given.ts';

// Issue 21 for InOrder JobSets whose Jobs have ttlSecondsAfterFinished: a Job that finished is
// deleted by the cluster's TTL controller after the walk completed, the JobSet's controller creates
// it again, and the walk begins anew. StartupPolicyCompleted was written when the walk first
// completed, so where it stands among the conditions is told by that first completion, not by
// whether the walk looked complete at a later instant (the deleted Job no longer counts then).
// Shrunk from ttl-orders.property.spec.ts history-39 (seed 21) and history-3 (seed 7).

const withUid = (event: JobSetObservation, uid: string): JobSetObservation =>
  event.type === 'JobObserved' ? { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid } } } : { ...event, uid } as JobSetObservation;
const conditions = (events: readonly JobSetObservation[]) => given(...events).whenSettled({ now: at(200) }).status.conditions.map((c) => `${c.type}=${c.status}`);
const ordered = (events: readonly JobSetObservation[], order: readonly number[]) => order.map((i) => events[i] as JobSetObservation);

describe('an InOrder JobSet whose walk completed, whose finished driver its TTL deleted, then suspended, resumed and walked again (seed 7 history-3)', () => {
  const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'workers' }, { name: 'driver' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, suspend });
  const events = [
    versioned(1, jobSetObserved(spec(false), { seconds: 1 })),
    withUid(versioned(2, jobReady('workers', 0, { seconds: 1 })), 'w0'),
    withUid(versioned(3, jobReady('driver', 0, { seconds: 6 })), 'd0'),
    withUid(versioned(4, jobSucceeded('driver', 0, { seconds: 6 })), 'd0'),
    withUid(jobDeleted('driver', 0, 36), 'd0'),
    versioned(5, jobSetObserved(spec(true), { seconds: 66 })),
    withUid(versioned(6, jobObserved('workers', 0, { seconds: 67, suspend: true })), 'w0'),
    versioned(7, jobSetObserved(spec(false), { seconds: 97 })),
    withUid(versioned(8, jobReady('workers', 0, { seconds: 103 })), 'w0'),
    withUid(versioned(9, jobReady('driver', 0, { seconds: 133 })), 'd1'),
  ];
  const upstream = ['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'Suspended=False'];

  it('given the events in order, when settled, then StartupPolicyCompleted stands before Suspended: the first walk completed at 0:06, before the suspension at 1:06', () => {
    expect(conditions(events)).toEqual(upstream);
  });

  it('given the suspension and the resumption first, when settled, then the same', () => {
    expect(conditions(ordered(events, [5, 7, 6, 0, 2, 1, 3, 4, 8, 9]))).toEqual(upstream);
    expect(conditions(ordered(events, [6, 5, 7, 2, 8, 3, 4, 9, 1, 0]))).toEqual(upstream);
  });
});

describe('an InOrder JobSet whose walk completed, whose finished Job its TTL deleted, then a failure restarted it', () => {
  const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'workers', replicas: 2 }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 1 }, suspend });
  const running = versioned(1, jobSetObserved(spec(false), { seconds: 0 }));
  const w0Ready = withUid(versioned(2, jobReady('workers', 0, { seconds: 0 })), 'w0a');
  const w1Ready = withUid(versioned(5, jobReady('workers', 1, { seconds: 10 })), 'w1a');
  const w0Done = withUid(versioned(6, jobSucceeded('workers', 0, { seconds: 20 })), 'w0a');
  const w0Gone = withUid(jobDeleted('workers', 0, 50), 'w0a');
  const w1Failed = withUid(versioned(7, jobFailed('workers', 1, { seconds: 60 })), 'w1a');

  describe('never suspended', () => {
    const events = [running, w0Ready, w1Ready, w0Done, w0Gone, w1Failed];
    const upstream = ['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False', 'RestartingJobSet=True'];

    it('given the events in order, when settled, then the first walk\'s StartupPolicyCompleted (False since the walk began again) stands before RestartingJobSet', () => {
      expect(conditions(events)).toEqual(upstream);
    });

    it('given the TTL\'s deletion before the ready snapshots that completed the walk, when settled, then the same: the walk completed before the deletion', () => {
      expect(conditions(ordered(events, [0, 1, 4, 2, 3, 5]))).toEqual(upstream);
      expect(conditions(ordered(events, [0, 1, 4, 2, 5, 3]))).toEqual(upstream);
      expect(conditions(ordered(events, [0, 1, 3, 4, 2, 5]))).toEqual(upstream);
    });
  });

  describe('suspended before the walk completed, resumed, and suspended again after the restart', () => {
    const events = [
      running, w0Ready,
      versioned(3, jobSetObserved(spec(true), { seconds: 5 })),
      versioned(4, jobSetObserved(spec(false), { seconds: 10 })),
      w1Ready, w0Done, w0Gone, w1Failed,
      versioned(8, jobSetObserved(spec(true), { seconds: 70 })),
    ];
    const upstream = ['StartupPolicyInProgress=True', 'Suspended=True', 'StartupPolicyCompleted=False', 'RestartingJobSet=False'];

    it('given the events in order, when settled, then Suspended stands before StartupPolicyCompleted: the first suspension came before the walk completed', () => {
      expect(conditions(events)).toEqual(upstream);
    });

    it('given the first suspension after the restart the fold decided, when settled, then the same', () => {
      expect(conditions(ordered(events, [0, 1, 2, 3, 6, 8, 5, 4, 7]))).toEqual(upstream);
      expect(conditions(ordered(events, [0, 1, 2, 7, 8, 6, 5, 3, 4]))).toEqual(upstream);
      expect(conditions(ordered(events, [0, 1, 3, 5, 7, 8, 6, 2, 4]))).toEqual(upstream);
    });
  });
});
