import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';
import { queryFold, writeWarm } from '../../property/job/stored-log.ts';

// Issues 20, 21: same log => same status, whatever snapshot a fold starts from. FailureTarget's
// fold counts every pod still tracked as failed, but those the cluster saw only after it finished
// the Job (observe-pod.ts recountAll), against the instant the cluster finished it, pushed past
// the deadline by each pod it waited for (cluster-finish.ts). A snapshot before it archived p0, the
// pod the cluster waited for until 13:20: a query folding FailureTarget from it found the Job
// finished at 6:00, took p3 (first seen at 6:40) for one the cluster never saw and left it
// uncounted: failed 0 where the replay says 1. Folding FailureTarget restores the archive when an
// archived pod can move that instant (finish-walk.ts). Found by stored-orders.property.spec.ts
// (seed 8, counted history 32, delivery 3, minimized).

const job = aJob({
  parallelism: 2, completions: 2, activeDeadlineSeconds: 60, podReplacementPolicy: 'Failed',
  podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }, { action: 'Count', onExitCodes: { operator: 'In', values: [1] } }] },
});
const stamped = (event: JobEvent, seq: number, jobSeq: number) => ({ ...event, sequence: { epoch: 1, seq, jobSeq } }) as JobEvent;
const p0 = { name: 'p0', phase: 'Succeeded', restartCount: 2, finishedAt: at(-1), finalizer: false } as const;
const batches = [
  // given p3 running, first seen at 6:40 (the forwarder's jobSeq 2: the pod view holds back until
  // jobSeq 1 arrives), and the Job, created at 0:00 with a deadline of 1:00
  { at: at(400), events: [stamped(podObserved(aPod({ name: 'p3', restartCount: 1, failureCount: 1, resourceVersion: '3' }), at(400)), 1, 2)] },
  { at: at(0), events: [jobObserved(job, at(0))] },
  // and p0, succeeded, deleted at 13:20, then its older observation: a snapshot after it archives p0
  { at: at(800), events: [stamped(podObserved(aPod({ ...p0, deletionTimestamp: at(800), resourceVersion: '5' }), at(800)), 2, 4)] },
  { at: at(0), events: [stamped(podObserved(aPod({ ...p0, deletionTimestamp: at(0), resourceVersion: '2' }), at(0)), 1, 1)] },
  // when p2's success arrives, and the Job fails its deadline
  { at: at(400), events: [stamped(podObserved(aPod({ name: 'p2', phase: 'Succeeded', restartCount: 1, failureCount: 1, finishedAt: at(399), resourceVersion: '4' }), at(400)), 1, 3)] },
];
const snapshotAfter = [false, false, false, true, false];

describe('a query folding FailureTarget of a Job jobfold does not run from a snapshot before it', () => {
  it('folds to every position as a replay', async () => {
    const { log, statuses } = await writeWarm(undefined, batches, snapshotAfter);
    // then the replay counts p3, running when the cluster's Job failed, as failed
    expect(statuses[log.head]).toMatchObject({ failed: 1 });
    for (let seq = 1; seq <= log.head; seq++) expect({ seq, status: jobStatus(await queryFold(log, seq)) }).toEqual({ seq, status: statuses[seq] });
  });
});
