import { describe, expect, it } from 'vitest';
import type { JobObserved, PodObserved } from '../../../shared/job/events.ts';
import { aJob, aPod, at, jobObserved, podObserved } from '../../support/builders.ts';
import { writeWarm } from '../../property/job/stored-log.ts';

// Issue 21: a pod observation that arrives before its Job, showing the pod tracked and being
// deleted but not finished, tells its outcome's instant only once the spec says how a deletion
// counts: where only Failed pods are replaced (podReplacementPolicy: Failed) a deletion ends
// nothing. Taken as the outcome's instant before the spec was known, it put p2's failure (seen at
// 0:06) at 0:00, so the backoff limit was met at 0:00 and p5's failure of 0:01 fell outside the
// final status; the cluster's order meets it at 0:01 on p5 and counts p2, still tracked then, in
// the failing sync. Found by the generated cluster histories (seed-5/history-23, 8 of 10 orders).

const job = aJob({ parallelism: 3, completions: 1, backoffLimit: 0, podReplacementPolicy: 'Failed' });
type Event = JobObserved | PodObserved;
const p2Deleted = podObserved(aPod({ name: 'p2', ready: true, deletionTimestamp: at(0), resourceVersion: '3' }), at(0));
const p5Failed = podObserved(aPod({ name: 'p5', phase: 'Failed', exitCode: 3, finishedAt: at(0), deletionTimestamp: at(1), resourceVersion: '4' }), at(1));
const p2Failed = podObserved(aPod({ name: 'p2', phase: 'Failed', exitCode: 1, finishedAt: at(5), deletionTimestamp: at(0), resourceVersion: '5' }), at(6));

const statusAfter = async (batches: { at: string; events: Event[] }[]) => (await writeWarm(undefined, batches, batches.map(() => false))).written.at(-1)?.status;
const expected = { failed: 2, succeeded: 0, terminating: 0 };

describe('a pod being deleted, seen before its Job, where only Failed pods are replaced', () => {
  it('given the cluster order, when folded, then the backoff limit is met on p5 and p2 counts failed too', async () => {
    const status = await statusAfter([{ at: at(0), events: [jobObserved(job, at(0)), p2Deleted] }, { at: at(1), events: [p5Failed] }, { at: at(6), events: [p2Failed] }]);
    expect(status).toMatchObject(expected);
    expect(status?.conditions.map((c) => `${c.type}:${c.reason}`)).toEqual(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded']);
  });

  it('given p2\'s observations before the Job and p5\'s failure after it, when folded, then both count failed as in the cluster order', async () => {
    const status = await statusAfter([{ at: at(0), events: [p2Deleted] }, { at: at(6), events: [p2Failed] }, { at: at(0), events: [jobObserved(job, at(0))] }, { at: at(1), events: [p5Failed] }]);
    expect(status).toMatchObject(expected);
    expect(status?.conditions.map((c) => `${c.type}:${c.reason}`)).toEqual(['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded']);
  });
});
