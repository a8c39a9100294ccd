import { describe, expect, it } from 'vitest';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';
import { queryFold, writeWarm } from '../../property/job/stored-log.ts';

// Issues 20, 21: same log => same status, whatever snapshot a fold starts from. CriterionMetEarlier
// moves the finish of a Job jobfold does not run back to its criterion's earlier instant, and
// leaves out of the final status the pods the cluster saw only after that earlier finish
// (late-outcome.ts finishMetEarlier, a walk of every pod). A query folding it from a snapshot that
// archived such a pod (p2, first seen at 13:29, long after the deadline) lacked it, and counted
// its failure (failed 2 where the replay says 1). Folding CriterionMetEarlier restores the
// archive when a pod archived was seen after the criterion's instant (finish-walk.ts). Found by
// stored-orders.property.spec.ts (seed 99, cluster history 7, minimized).

const job = aJob({
  completionMode: 'Indexed', completions: 2, parallelism: 2, activeDeadlineSeconds: 300, backoffLimit: 0, backoffLimitPerIndex: 2, maxFailedIndexes: 2,
  successPolicy: { rules: [{ succeededCount: 2 }] },
  podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [1] } }, { action: 'FailIndex', onExitCodes: { operator: 'In', values: [3] } }] },
});
const batches = [
  // given p2 of index 0, failed at 13:28 and first seen at 13:29, arriving before the Job
  { at: at(809), events: [podObserved(aPod({ name: 'p2', index: 0, phase: 'Failed', exitCode: 1, restartCount: 1, finishedAt: at(808), deletionTimestamp: at(809), failureCount: 1, resourceVersion: '7' }), at(809))] },
  // and the Job, created at 0:00 with a deadline of 5:00
  { at: at(0), events: [jobObserved(job, at(0))] },
  // and index 1 succeeded at 6:41 (seen at 6:42): a snapshot after it archives p2
  { at: at(402), events: [podObserved(aPod({ name: 'p5', index: 1, phase: 'Succeeded', finishedAt: at(401), failureCount: 2, finalizer: false, resourceVersion: '3' }), at(402))] },
  // when an older failure of index 1 arrives
  { at: at(403), events: [podObserved(aPod({ name: 'p1', index: 1, phase: 'Failed', exitCode: 42, restartCount: 2, finishedAt: at(402), resourceVersion: '5' }), at(403))] },
];
const snapshotAfter = [false, false, true, false];

describe('a query folding CriterionMetEarlier of a Job jobfold does not run from a snapshot before it', () => {
  it('folds to every position as a replay', async () => {
    const { log, statuses } = await writeWarm(undefined, batches, snapshotAfter);
    // then the log moves the finish back, and the replay leaves p2 out of the final status
    expect(log.entries.some((e) => e.type === 'CriterionMetEarlier')).toBe(true);
    for (let seq = 1; seq <= log.head; seq++) expect({ seq, status: jobStatus(await queryFold(log, seq)) }).toEqual({ seq, status: statuses[seq] });
  });
});
