import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { anIndexedJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';
import type { Batch } from '../../property/job/arbitraries.ts';
import { queryFold, writeWarm } from '../../property/job/stored-log.ts';
import { expectScanAsBefore } from '../../property/job/tail-scan-before.ts';

// Issue 20: a fold from a snapshot reads its tail once before folding it (finish-walk.ts
// scanTail), and the finish-walk check reads a pod new in the tail at its first mention, where its
// record is created and first seen: a later observation cannot make it first seen later. The
// check before read every observation of such a pod, and folded with the check (O(pods) at each
// walk) a tail whose pods were only seen again after the criterion's instant, as the query bench's
// Job view's is (1,000 pods new in its 4,068 entries, ended after the success policy was met).

const job = anIndexedJob(2, { successPolicy: { rules: [{ succeededIndexes: '0' }] } });
const failedLate = { index: 1, phase: 'Failed', finishedAt: at(35), deletionTimestamp: at(25) } as const;
const succeeded = { index: 0, phase: 'Succeeded', finishedAt: at(19) } as const;
/** The Job observed, a snapshot after it; pod 0 (and pod 1, when `seen`) seen running at 0:10; pod 0's success meets the policy at 0:20, pod 1 terminated then. */
const toSuccess = (seen: boolean, pod1: Batch[]): Batch[] => [
  { at: at(0), events: [jobObserved(job, at(0))] },
  { at: at(10), events: [podObserved(aPod({ index: 0 }), at(10)), ...(seen ? [podObserved(aPod({ index: 1 }), at(10))] : [])] },
  { at: at(20), events: [podObserved(aPod(succeeded), at(20))] },
  ...pod1,
  { at: at(50), events: [podObserved(aPod({ ...succeeded, finalizer: false }), at(50)), podObserved(aPod({ ...failedLate, finalizer: false }), at(50))] },
];

/** The checks other than none at each position, and the positions from the Complete walk to the head. */
async function foldEveryPosition(batches: Batch[]): Promise<{ checks: string[]; fromWalk: number[] }> {
  const { log, statuses } = await writeWarm(undefined, batches, batches.map((_, i) => i === 0));
  const checks: string[] = [];
  for (let seq = 1; seq <= log.head; seq++) {
    // when the query folds to each position from the snapshot, the one pass asked beside the loops before it
    const check = await expectScanAsBefore(log, seq);
    if (check !== undefined && (check.before !== 'none' || check.now !== 'none')) checks.push(`${seq} ${check.before}->${check.now}`);
    // then its status is the replay's
    expect({ seq, status: jobStatus(await queryFold(log, seq)) }).toEqual({ seq, status: statuses[seq] });
  }
  const walk = log.entries.findIndex((e: JobEvent) => e.type === 'JobConditionChanged' && e.condition.type === 'Complete') + 1;
  expect(walk).toBeGreaterThan(0);
  return { checks, fromWalk: Array.from({ length: log.head - walk + 1 }, (_, i) => walk + i) };
}

describe('the finish-walk check of a fold from a snapshot reads each new pod at its first mention', () => {
  it('given pod 1 first seen before the criterion was met and seen again after it: no check of the walk, the replay\'s status', async () => {
    const batches = toSuccess(true, [
      { at: at(30), events: [podObserved(aPod({ index: 1, deletionTimestamp: at(25) }), at(30))] },
      { at: at(40), events: [podObserved(aPod(failedLate), at(40))] },
    ]);
    const { checks, fromWalk } = await foldEveryPosition(batches);
    // the loops before folded every position from the walk on with the check; the one pass asks none
    expect(checks).toEqual(fromWalk.map((seq) => `${seq} fold->none`));
  });

  it('given pod 1 first seen after the criterion was met: the walk is checked, as before', async () => {
    const batches = toSuccess(false, [{ at: at(40), events: [podObserved(aPod(failedLate), at(40))] }]);
    const { checks, fromWalk } = await foldEveryPosition(batches);
    expect(checks).toEqual(fromWalk.map((seq) => `${seq} fold->fold`));
  });
});
