import { describe, expect, it } from 'vitest';
import { commandIdFor, type JobSetCommand } from '../../../shared/jobset/commands.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import type { JobSet } from '../../../shared/jobset/schemas.ts';
import { childCountStamper } from './child-counts.ts';
import { childJob, FAILURES, T0, type ClusterJob } from './generated-histories.ts';
import { foldedInClusterOrder, unsafeCommandsOf } from './managed-safety.ts';

// The safety check of the managed JobSet closed loop (managed-safety.ts) on a delivery like
// seed 21's history-25 delivery 2: its jobfold saw the user's suspension before the failure that
// restarts the JobSet, so it created every Job (suspended, upstream's rule for a suspended
// JobSet), the driver among them; its cluster made the driver after the failure. Folded in that
// cluster's order, the failure comes first: the reference restarts before the driver exists,
// and never deletes it.

const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString().replace('.000Z', 'Z');

const jobSet = (suspend: boolean, version: number): JobSet =>
  ({
    metadata: { namespace: 'default', name: 'gen', uid: 'gen-uid', resourceVersion: String(version) },
    spec: {
      replicatedJobs: ['workers', 'driver'].map((name) => ({ name, groupName: 'default', replicas: 1, template: { spec: { parallelism: 1, completions: 1, completionMode: 'Indexed' } } })),
      successPolicy: { operator: 'All', targetReplicatedJobs: [] },
      startupPolicy: { startupPolicyOrder: 'InOrder' },
      suspend,
      failurePolicy: { maxRestarts: 1, restartStrategy: 'Recreate', rules: [] },
      managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME,
    },
  }) as JobSet;

const job = (replicatedJob: string, attempt: number, changes: Partial<ClusterJob>): ClusterJob => ({
  name: `gen-${replicatedJob}-0`, replicatedJob, jobIndex: 0, attempt, parallelism: 1, suspend: false, running: false, ready: 0, finished: undefined, terminating: false, unseen: false, ...changes,
});

const stamp = childCountStamper();
let version = 0;
const shown = (seconds: number, cluster: ClusterJob): JobSetObservation => {
  const snapshot = childJob(cluster, at(seconds), FAILURES[0]);
  return stamp({ type: 'JobObserved', at: at(seconds), eventId: undefined, job: { ...snapshot, metadata: { ...snapshot.metadata, resourceVersion: String(++version) } } });
};
const observations: JobSetObservation[] = [
  { type: 'JobSetObserved', at: at(0), eventId: undefined, jobSet: jobSet(false, ++version) },
  shown(1, job('workers', 0, {})),
  shown(2, job('workers', 0, { finished: 'Failed' })),
  { type: 'JobSetObserved', at: at(3), eventId: undefined, jobSet: jobSet(true, ++version) },
  // Made by the delivery's CreateJob, sent before the failure reached it.
  shown(4, job('driver', 0, { suspend: true })),
  stamp({ type: 'JobDeleted', at: at(10), eventId: undefined, name: 'gen-driver-0', uid: 'gen-driver-0-0' }),
  stamp({ type: 'JobDeleted', at: at(11), eventId: undefined, name: 'gen-workers-0', uid: 'gen-workers-0-0' }),
  shown(12, job('workers', 1, { suspend: true })),
];
const cluster = { bus: { observations, batches: observations.map((_, i) => i) }, end: at(12) };

const deleteJob = (attempt: number, name: string, position: number): JobSetCommand => ({
  type: 'DeleteJob', commandId: commandIdFor('gen-uid', attempt, name, 'DeleteJob', position), namespace: 'default', name, propagationPolicy: 'Foreground',
});

describe('the managed closed loop: a deletion judged unsafe', () => {
  it('given a Job of attempt 0 shown after the failure that restarted the JobSet, when folded in the cluster order, then the reference restarts without deleting it', () => {
    const reference = foldedInClusterOrder(cluster);
    expect(reference.state.restarts).toBe(1);
    expect(reference.commands.filter((c) => c.type === 'DeleteJob').map((c) => c.commandId)).not.toContainEqual(expect.stringContaining('/0/gen-driver-0/'));
  });

  it("when a delivery's jobfold deletes that Job at its restart, then the deletion is the restart's, not a healthy Job's", () => {
    expect(unsafeCommandsOf({ ...cluster, sent: [deleteJob(0, 'gen-driver-0', 9), deleteJob(0, 'gen-workers-0', 9)] })).toEqual([]);
  });

  it('when a delivery deletes a healthy Job of the attempt the reference runs, then the deletion is unsafe', () => {
    expect(unsafeCommandsOf({ ...cluster, sent: [deleteJob(1, 'gen-workers-0', 20)] })).toEqual(['deleted healthy 1/gen-workers-0']);
  });
});
