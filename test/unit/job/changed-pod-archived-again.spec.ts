import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, jobObserved, podObserved, withSpec } from '../../support/builders.ts';
import { writeCold, writeWarm } from '../../property/job/stored-log.ts';

// Issues 20, 21: a writer loaded cold writes as one kept warm. A pod archived at a snapshot and
// changed by the tail folded after it (an older observation of it, arriving late, counts it) is in
// the cold state in its new form; a batch that then reads the whole archive (decider.ts
// restoreForBatch: a suspension read after the outcome) marked every archived pod as stored in the
// form the state holds, that one included, which the archive does not hold: the next snapshot left
// it out of the save, the load after it put back the old form, and a yet older observation counted
// the pod a second time. Found by stored-orders.property.spec.ts at seed 5 (cluster and counted
// history 53, delivery 2).

const job = aJob({ completions: 1, parallelism: 1, podReplacementPolicy: 'Failed' });
// p0 failed at 0:59, each observation made at the instant it is being deleted
const p0 = (version: string, seconds: number, finalizer: boolean) =>
  podObserved(aPod({ name: 'p0', phase: 'Failed', finishedAt: at(59), deletionTimestamp: at(seconds), finalizer, resourceVersion: version }), at(seconds));
const p4 = (version: string, seconds: number) =>
  podObserved(aPod({ name: 'p4', phase: 'Succeeded', finishedAt: at(464), deletionTimestamp: at(seconds), resourceVersion: version }), at(seconds));
const batches = [
  { at: at(0), events: [jobObserved(job, at(0))] },
  // given p0 seen failed at 27:55, without its tracking finalizer (counted nowhere)
  { at: at(1675), events: [p0('11', 1675, false)] },
  // and the Job completed on p4's success at 7:45, a snapshot after it and after p0's replay (p0 archived)
  { at: at(465), events: [p4('5', 465)] },
  { at: at(1675), events: [p0('10', 1675, false)] },
  // and p0's older observation of 21:10, still tracked, arriving after: counted failed
  { at: at(1270), events: [p0('8', 1270, true)] },
  // when the Job is read suspended (a batch that reads the whole archive), a snapshot after it
  { at: at(1275), events: [jobObserved(withSpec(job, { suspend: true }), at(1275))] },
  // and p4's later observation, a snapshot after it
  { at: at(870), events: [p4('7', 870)] },
  // and then p0's yet older observation of 1:00
  { at: at(60), events: [p0('3', 60, true)] },
];
const snapshotAfter = [false, false, true, true, false, true, true, false];

describe('a pod the tail changed after it was archived', () => {
  it('is archived again in its new form, so a cold writer counts it once, as a warm one', async () => {
    const warm = await writeWarm(undefined, batches, snapshotAfter);
    // then the warm writer counts p0 failed once, p4 succeeded
    expect(warm.written.at(-1)?.status).toMatchObject({ succeeded: 1, failed: 1 });
    expect(await writeCold(undefined, batches, snapshotAfter)).toEqual(warm.written);
  });
});
