import { describe, expect, it } from 'vitest';
import type { JobObserved, PodDeleted, PodObserved } from '../../../shared/job/events.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { writeWarm } from '../../property/job/stored-log.ts';

// Issue 21: a deletion of a pod the log never saw observed (a tombstone) counts nothing when it
// arrives after the Job; arriving before the Job, it was counted failed once the spec was known
// (observe-pod.ts countKnownPod), a failure the cluster's order never counts. Found by the
// generated cluster histories (seed-99/history-45, 8 of 10 orders): backoffLimit 0, p0 failed.

const job = aJob({ parallelism: 1, completions: 4, backoffLimit: 0 });
type Event = JobObserved | PodObserved | PodDeleted;
const p0Running = podObserved(aPod({ name: 'p0', ready: true, deletionTimestamp: at(1), resourceVersion: '2' }), at(1));
const p0Failed = podObserved(aPod({ name: 'p0', phase: 'Failed', exitCode: 3, finishedAt: at(0), deletionTimestamp: at(1), resourceVersion: '3' }), at(1));
const p1Gone = podDeleted('p1', at(1));

const statusAfter = async (batches: { at: string; events: Event[] }[]) => (await writeWarm(undefined, batches, batches.map(() => false))).written.at(-1)?.status;

describe('a deletion of a pod never observed, arriving before or after the Job', () => {
  it('given the cluster order, when folded, then only p0 counts failed', async () => {
    expect(await statusAfter([{ at: at(0), events: [jobObserved(job, at(0))] }, { at: at(1), events: [p0Running, p0Failed, p1Gone] }])).toMatchObject({ failed: 1 });
  });

  it('given p1\'s deletion before the Job, when folded, then only p0 counts failed, as in the cluster order', async () => {
    expect(await statusAfter([{ at: at(1), events: [p1Gone] }, { at: at(0), events: [jobObserved(job, at(0))] }, { at: at(1), events: [p0Running, p0Failed] }])).toMatchObject({ failed: 1 });
  });
});
