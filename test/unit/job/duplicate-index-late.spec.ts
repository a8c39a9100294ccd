import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { aJob, aPod, at, jobObserved, podObserved, tick } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// Issue 21, generated elastic history-36: two pods of index 0 created in one second, one Running
// and one still Pending. In the cluster's order the sync that read both deleted the Pending one as
// a duplicate (uncounted, its finalizer removed first), and the deadline sync later counted the
// Running one failed. Delivered with the Job after the Running pod's newest observation (its
// finalizer gone), the deadline sync counts the Pending one, the only pod it sees tracked; the
// Running pod's older observation, arriving last, shows it tracked and running before the
// deadline: the cluster kept it and released the Pending one, which is then not counted.
const job = aJob({ completionMode: 'Indexed', completions: 2, parallelism: 1, activeDeadlineSeconds: 300 });
const running = podObserved(aPod({ name: 'p4', index: 0, phase: 'Running', ready: at(30), resourceVersion: '4' }), at(36));
const pending = podObserved(aPod({ name: 'p0', index: 0, phase: 'Pending', resourceVersion: '6' }), at(41));
const stripped = podObserved(aPod({ name: 'p4', index: 0, phase: 'Running', ready: at(30), resourceVersion: '9', finalizer: false }), at(846));

const statusAfter = (events: readonly JobEvent[]) => given(null, ...events, tick(at(900))).when().status;

describe('A Running pod and a Pending duplicate of its index, the Job failing at its deadline', () => {
  it("in the cluster's order: the duplicate is released, the Running pod counts failed at the deadline", () => {
    expect(statusAfter([jobObserved(job, at(0)), running, pending, stripped])).toMatchObject({ failed: 1, terminating: 2 });
  });

  it("the Job after the Running pod's finalizer-less observation, its tracked one last: the duplicate the cluster released is not counted", () => {
    expect(statusAfter([pending, jobObserved(job, at(0)), stripped, running])).toMatchObject({ failed: 1, terminating: 2 });
  });

  it("both of the Running pod's observations before the Job: the failing sync that counts it leaves the duplicate uncounted", () => {
    expect(statusAfter([pending, running, stripped, jobObserved(job, at(0))])).toMatchObject({ failed: 1, terminating: 2 });
  });
});
