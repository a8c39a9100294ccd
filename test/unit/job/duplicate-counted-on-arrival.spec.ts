import { describe, expect, it } from 'vitest';
import type { JobObserved, PodObserved } from '../../../shared/job/events.ts';
import { anIndexedJob, aPod, at, jobObserved, podObserved, withSpec } from '../../support/builders.ts';
import { writeWarm } from '../../property/job/stored-log.ts';

// Issue 21: two pods of one index, created together, one Running and one Pending, both seen
// before the Job's deadline passed: the cluster's sync that read both deleted the Pending one as
// a duplicate (upstream appendDuplicatedIndexPodsForRemoval keeps the most advanced, removing the
// finalizer first), so the deadline's failing sync counted only the Running one. When the
// deadline was met on a view that held neither (the Job's later observations arrived first), the
// failing sync counted each as it arrived, both failed, whichever came first. Found by the
// generated elastic history-36 (generated-orders.property.spec.ts, 5 of 10 orders, 8 now).

const job = anIndexedJob(2, { parallelism: 1, activeDeadlineSeconds: 300, podReplacementPolicy: 'Failed' }, { status: { startTime: at(0) } });
type Event = JobObserved | PodObserved;
const scaled = jobObserved(withSpec(job, { parallelism: 4 }), at(441));
const running = podObserved(aPod({ name: 'p4', index: 0, ready: true, resourceVersion: '4' }), at(36));
const pending = podObserved(aPod({ name: 'p0', index: 0, phase: 'Pending', nodeName: null, resourceVersion: '6' }), at(41));
const succeeded = podObserved(aPod({ name: 'p2', index: 0, phase: 'Succeeded', finishedAt: at(40), deletionTimestamp: at(41), resourceVersion: '5' }), at(41));

const statusAfter = async (batches: { at: string; events: Event[] }[]) => (await writeWarm(undefined, batches, batches.map(() => false))).written.at(-1)?.status;
const first = { at: at(0), events: [jobObserved(job, at(0))] };

describe('a duplicate of an index, counted by a failing sync decided before either pod arrived', () => {
  it('given the cluster order, when folded, then only the Running pod counts failed', async () => {
    const status = await statusAfter([first, { at: at(36), events: [running] }, { at: at(41), events: [succeeded, pending] }, { at: at(441), events: [scaled] }]);
    expect(status).toMatchObject({ failed: 1, succeeded: 1 });
    expect(status?.conditions.map((c) => `${c.type}:${c.reason}`)).toEqual(['FailureTarget:DeadlineExceeded']);
  });

  it('given the deadline met first, then the Pending pod, then the Running one, when folded, then only the Running pod counts failed', async () => {
    const status = await statusAfter([first, { at: at(441), events: [scaled] }, { at: at(41), events: [succeeded, pending] }, { at: at(36), events: [running] }]);
    expect(status).toMatchObject({ failed: 1, succeeded: 1 });
  });

  it('given the deadline met first, then the Running pod, then the Pending one, when folded, then only the Running pod counts failed', async () => {
    const status = await statusAfter([first, { at: at(441), events: [scaled] }, { at: at(36), events: [running] }, { at: at(41), events: [succeeded, pending] }]);
    expect(status).toMatchObject({ failed: 1, succeeded: 1 });
  });
});
