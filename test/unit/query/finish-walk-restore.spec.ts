import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { queryFold, writeWarm } from '../../property/job/stored-log.ts';

// Issues 20, 21: the finish of a Job jobfold does not run leaves out of its final status the pods
// the cluster saw only after it finished (late-outcome.ts leaveOutUnseenPods), a walk of every
// pod. Which pods those are is known only once the criterion's instant is: a snapshot taken
// before archives them as any settled pod. A query folding the finish from such a snapshot
// restored only the pods its tail names, left them counted, and said failed 2, failedIndexes "0"
// where the replay said 1, "". Folding a finish now restores the whole archive
// (interim-instants.ts walksEveryPod). Found by stored-orders.property.spec.ts (counted history
// 25, delivery 5, minimized).

const job = aJob({
  completionMode: 'Indexed', completions: 1, parallelism: 2, backoffLimit: 0, backoffLimitPerIndex: 2, maxFailedIndexes: 1,
  podReplacementPolicy: 'Failed', successPolicy: { rules: [{ succeededCount: 1 }] },
  podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [1] } }] },
});
const stamped = (event: JobEvent, seq: number, jobSeq: number) => ({ ...event, sequence: { epoch: 1, seq, jobSeq } }) as JobEvent;
const failed = { phase: 'Failed', index: 0, restartCount: 1 } as const;
const batches = [
  // given pods of index 0 the cluster saw only late (6:50, 7:20), long after p1 failed at 0:00
  { at: at(410), events: [stamped(podObserved(aPod({ ...failed, name: 'p0', exitCode: 42, finishedAt: at(409), finalizer: false, conditions: [{ type: 'DisruptionTarget' }] }), at(410)), 1, 3)] },
  { at: at(440), events: [stamped(podObserved(aPod({ name: 'p4', index: 0, failureCount: 4 }), at(440)), 1, 5)] },
  { at: at(0), events: [stamped(podObserved(aPod({ ...failed, name: 'p1', exitCode: 3, failureCount: 1, conditions: [{ type: 'DisruptionTarget' }] }), at(0)), 1, 1)] },
  { at: at(440), events: [stamped(podObserved(aPod({ ...failed, name: 'p2', exitCode: 1, finishedAt: at(439), failureCount: 2, deletionTimestamp: at(440) }), at(440)), 1, 6)] },
  { at: at(410), events: [stamped(podDeleted('p3', at(410)), 1, 4)] },
  // and the Job, arriving last: a snapshot after it archives the finished pods
  { at: at(0), events: [jobObserved(job, at(0))] },
  // when p1's finalizer is seen gone, and the Job fails (backoff limit exceeded at 0:00)
  { at: at(5), events: [stamped(podObserved(aPod({ ...failed, name: 'p1', exitCode: 3, failureCount: 1, finalizer: false, deletionTimestamp: at(5), conditions: [{ type: 'DisruptionTarget' }] }), at(5)), 2, 2)] },
];
const snapshotAfter = [false, false, false, false, false, true, false];

describe('a query folding the finish of a Job jobfold does not run from a snapshot before it', () => {
  it('folds to every position as a replay', async () => {
    const { log, statuses } = await writeWarm(undefined, batches, snapshotAfter);
    // then the replay leaves the pods seen after the finish out of the final status
    expect(statuses[log.head]).toMatchObject({ failed: 1, failedIndexes: '' });
    for (let seq = 1; seq <= log.head; seq++) expect({ seq, status: jobStatus(await queryFold(log, seq)) }).toEqual({ seq, status: statuses[seq] });
  });
});
