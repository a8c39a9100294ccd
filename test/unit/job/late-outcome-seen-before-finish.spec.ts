import { describe, expect, it } from 'vitest';
import { aJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';
import { writeWarm } from '../../property/job/stored-log.ts';

// Issue 21: an outcome that happened before jobfold finished the Job counts in the final status
// whatever arrived first. A pod first counted by an observation made after the finish is left
// outside the final status (upstream no longer syncs a finished Job); an older observation of it,
// made before the finish and showing it ended with its tracking finalizer, arriving after, tells
// that the cluster's sync counted it before the Job finished. It only moved the pod's outcome
// instant: the failure stayed out, `failed` 0 where the cluster's order counts 1. Found by the
// generated cluster histories (generated-orders.property.spec.ts, seed-5/history-53, delivery 2).

const job = aJob({ completions: 1, parallelism: 1, podReplacementPolicy: 'Failed' });
// p0 failed at 0:59, seen tracked and being deleted at 1:00 and 21:10, then without its finalizer at 27:55
const p0 = (version: string, seconds: number, finalizer: boolean) =>
  podObserved(aPod({ name: 'p0', phase: 'Failed', finishedAt: at(59), deletionTimestamp: at(seconds), finalizer, resourceVersion: version }), at(seconds));
// p4 succeeded at 7:39, seen so at 7:40 and being deleted at 7:45
const p4 = (version: string, seconds: number, deleted: boolean) =>
  podObserved(aPod({ name: 'p4', phase: 'Succeeded', finishedAt: at(459), ...(deleted ? { deletionTimestamp: at(seconds) } : {}), resourceVersion: version }), at(seconds));

const finalStatus = async (batches: { at: string; events: ReturnType<typeof podObserved>[] }[]) =>
  (await writeWarm(job, batches, batches.map(() => false))).written.at(-1)?.status;

describe('a failure seen before the finish, arriving after a newer observation that counted it outside the final status', () => {
  it('given the cluster order, when folded, then the Job completes with the failure counted', async () => {
    const status = await finalStatus([
      { at: at(60), events: [p0('3', 60, true)] },
      { at: at(460), events: [p4('4', 460, false)] },
      { at: at(465), events: [p4('5', 465, true)] },
      { at: at(1270), events: [p0('8', 1270, true)] },
      { at: at(1675), events: [p0('11', 1675, false)] },
    ]);
    expect(status).toMatchObject({ succeeded: 1, failed: 1 });
    expect(status?.conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
  });

  it('given the success first (the Job completes at 7:45), then p0 at 27:55, 21:10 and 1:00, when folded, then the failure counts as in the cluster order', async () => {
    const status = await finalStatus([
      { at: at(465), events: [p4('5', 465, true)] },
      { at: at(1675), events: [p0('11', 1675, false)] },
      { at: at(1270), events: [p0('8', 1270, true)] },
      { at: at(60), events: [p0('3', 60, true)] },
      { at: at(460), events: [p4('4', 460, false)] },
    ]);
    expect(status).toMatchObject({ succeeded: 1, failed: 1 });
    expect(status?.conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
  });

  it('given the outcome counted after the finish, with no observation from before it, when folded, then it stays out of the final status', async () => {
    const status = await finalStatus([
      { at: at(465), events: [p4('5', 465, true)] },
      { at: at(1675), events: [p0('11', 1675, false)] },
      { at: at(1270), events: [p0('8', 1270, true)] },
    ]);
    expect(status).toMatchObject({ succeeded: 1, failed: 0 });
  });
});
