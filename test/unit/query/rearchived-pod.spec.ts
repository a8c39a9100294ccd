import { describe, expect, it } from 'vitest';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';
import { queryFold, writeWarm } from '../../property/job/stored-log.ts';

// Issues 20, 21: a settled pod whose archived form changes is archived again by a later snapshot
// (pod-record.ts storedAs), and the archive answers with its newest form. A fold from an older
// snapshot (the query's, to a position before that save) took the newer form: here p1, archived
// uncounted, was counted failed later by an older copy that arrived late; restored counted into a
// snapshot whose counts did not hold it, it counted nowhere, and the query said failed 0 where the
// replay said 1. The archive records the snapshot each form was stored at (archivedAt), and a
// fold that would restore a form stored after its snapshot folds the whole log instead.
// Found by stored-orders.property.spec.ts (cluster history 25, delivery 3).

const job = aJob({
  completionMode: 'Indexed', completions: 1, parallelism: 2, backoffLimit: 0, backoffLimitPerIndex: 2, maxFailedIndexes: 1,
  podReplacementPolicy: 'Failed', successPolicy: { rules: [{ succeededCount: 1 }] },
  podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [1] } }] },
});
const p1 = { name: 'p1', index: 0, phase: 'Failed', exitCode: 3, failureCount: 1, restartCount: 1, conditions: [{ type: 'DisruptionTarget' }] } as const;
const batches = [
  { at: at(440), events: [podObserved(aPod({ name: 'p4', index: 0, failureCount: 4, resourceVersion: '5' }), at(440))] },
  { at: at(0), events: [jobObserved(job, at(0))] },
  // given p1 seen failed without its finalizer, being deleted (resourceVersion 3): left uncounted, archived by the snapshot after
  { at: at(5), events: [podObserved(aPod({ ...p1, finalizer: false, deletionTimestamp: at(5), resourceVersion: '3' }), at(5))] },
  // and an older copy, still with the finalizer (2), arriving late: it counts p1 failed; archived again by the snapshot after
  { at: at(0), events: [podObserved(aPod({ ...p1, resourceVersion: '2' }), at(0))] },
];
const snapshotAfter = [false, false, true, true];

describe('a query folding from a snapshot older than the newest archived form of a pod its tail names', () => {
  it('folds to every position as a replay', async () => {
    const { log, statuses } = await writeWarm(undefined, batches, snapshotAfter);
    // then the replay counts p1 failed once the late copy is folded
    expect(statuses[log.head]).toMatchObject({ failed: 1 });
    for (let seq = 1; seq <= log.head; seq++) expect({ seq, status: jobStatus(await queryFold(log, seq)) }).toEqual({ seq, status: statuses[seq] });
  });
});
