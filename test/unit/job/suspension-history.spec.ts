import { describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved, tick, withSpec, type JobSpecInput } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';

// Issue 21: a Job's spec.suspend at each instant of the cluster's clock, from its observations
// in whatever order they arrive (shared/job/suspension-order.ts): an older observation landing
// between two others changes the value from its instant to the next observation only, and of two
// observations of one instant the newer by resourceVersion is the spec in force. Found by the
// closed-loop generated histories of Jobs jobfold runs (test/property/job/managed-orders).

/** The Job with `spec` applied, as the cluster reported it at `rv`, observed at `when`. */
function jobAt(job: Job, spec: Partial<JobSpecInput>, rv: string, when: string) {
  const observed = jobObserved(withSpec(job, spec), when);
  return { ...observed, eventId: `job/${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
}

const job = aJob({ parallelism: 2, activeDeadlineSeconds: 60, managedBy: JOBFOLD_CONTROLLER_NAME });
/** The pod jobfold asked for on the resumption, seen Pending (terminated at the deadline, still there). */
const created = podObserved(aPod({ name: 'p0', phase: 'Pending', resourceVersion: '10', creationTimestamp: at(96) }), at(96));

const conditionsAfter = (events: readonly JobEvent[]) => {
  let conditions: string[] = [];
  given(null, ...events, tick(at(1000)))
    .when()
    .then(({ status }) => void (conditions = conditionsOf(status)));
  return conditions;
};

describe('A Job suspended from its creation, scaled while suspended and resumed, the resumption arriving first', () => {
  // Managed history-7: created at 0:00 and suspended in the same second (rv 1, rv 2), scaled
  // while suspended at 0:35 (rv 3), resumed at 1:35 (rv 4); its deadline passes after.
  const observations = [
    jobAt(job, {}, '1', at(0)),
    jobAt(job, { suspend: true }, '2', at(0)),
    jobAt(job, { suspend: true, parallelism: 1 }, '3', at(35)),
    jobAt(job, { suspend: false, parallelism: 1 }, '4', at(95)),
  ] as const;
  const [creation, suspension, scaled, resumption] = observations;
  const conditions = ['Suspended=False:JobResumed', 'FailureTarget=True:DeadlineExceeded'];

  it("in the cluster's order: suspended at the creation, resumed at 1:35, failed at its deadline", () => {
    expect(conditionsAfter([creation, suspension, scaled, resumption, created])).toEqual(conditions);
  });

  it('the resumption first, then the creation and the suspensions: the resumption still ends the suspension (it was not lost when the older running creation came in)', () => {
    expect(conditionsAfter([resumption, creation, created, scaled, suspension])).toEqual(conditions);
  });

  it('the suspension of the creation\'s second, newer by resourceVersion, arriving after the creation: the spec in force at that second is suspended', () => {
    expect(conditionsAfter([resumption, created, scaled, creation, suspension])).toEqual(conditions);
  });

  it('the creation alone first (started at 0:00, its deadline met at 1:36), the suspension of its second last: the cluster\'s deadline ran from the resumption, so JobResumed stands beside the outcome', () => {
    expect(conditionsAfter([creation, scaled, resumption, created, suspension])).toEqual(conditions);
  });
});

describe('A Job jobfold runs, started, suspended, and resumed after its deadline, the resumption arriving before the suspension', () => {
  // Generated history-1 (cluster, with the forwarder's counts): the resuming sync checks the
  // deadline on the start time of 0:00, before the resumption resets it, and fails the Job;
  // Suspended stays True beside the outcome.
  const one = withSpec(job, { parallelism: 1 });
  const creation = jobAt(one, {}, '1', at(0));
  const pod = podObserved(aPod({ name: 'p0', phase: 'Pending', resourceVersion: '2', creationTimestamp: at(1) }), at(1));
  const suspension = jobAt(one, { suspend: true }, '3', at(30));
  const resumption = jobAt(one, { suspend: false }, '4', at(860));
  const conditions = ['Suspended=True:JobSuspended', 'FailureTarget=True:DeadlineExceeded'];

  it("in the cluster's order: failed at the resumption, still suspended", () => {
    expect(conditionsAfter([creation, pod, suspension, resumption]).slice(0, 2)).toEqual(conditions);
  });

  it('the resumption first: the suspension arriving after is written in its place, not a JobResumed', () => {
    expect(conditionsAfter([creation, pod, resumption, suspension]).slice(0, 2)).toEqual(conditions);
  });
});

describe('A Job suspended and resumed within one second, the resumption arriving first', () => {
  // Managed history-48: one sync of the controller read the suspension and the resumption
  // (rv 2, rv 3, both at 0:30) and wrote no Suspended condition.
  const one = withSpec(job, { parallelism: 1 });
  const creation = jobAt(one, {}, '1', at(0));
  const suspension = jobAt(one, { suspend: true }, '2', at(30));
  const resumption = jobAt(one, { suspend: false }, '3', at(30));
  const pod = podObserved(aPod({ name: 'p0', phase: 'Pending', resourceVersion: '10', creationTimestamp: at(1) }), at(1));
  const conditions = ['FailureTarget=True:DeadlineExceeded'];

  it("in the cluster's order: no Suspended condition", () => {
    expect(conditionsAfter([creation, pod, suspension, resumption])).toEqual(conditions);
  });

  it('the resumption first, the suspension after a later event: still none', () => {
    expect(conditionsAfter([creation, resumption, pod, suspension])).toEqual(conditions);
  });
});

describe('A Job suspended, resumed, and failed at its deadline, the resumption arriving after the finish', () => {
  // Managed history-28: suspended at 0:30 (rv 2), resumed at 1:00 (rv 3), its deadline passed at
  // 6:00, then suspended and resumed again (rv 4 at 8:10, rv 5 at 8:40). The resumption at 1:00
  // reaches jobfold only after the one at 8:40, which it read as the end of the suspension it
  // enacted at 0:30, with the deadline long passed (it runs from 0:00 in jobfold's view).
  const one = withSpec(job, { parallelism: 1, activeDeadlineSeconds: 300 });
  const creation = jobAt(one, {}, '1', at(0));
  const suspension = jobAt(one, { suspend: true }, '2', at(30));
  const resumption = jobAt(one, { suspend: false }, '3', at(60));
  const again = jobAt(one, { suspend: true }, '4', at(490));
  const last = jobAt(one, { suspend: false }, '5', at(520));
  const seen = (name: string, rv: number, when: number, options: Parameters<typeof aPod>[0] = {}) =>
    ({ ...podObserved(aPod({ name, resourceVersion: String(rv), creationTimestamp: at(when), ...options }), at(when)), eventId: `${name}/${rv}` });
  // The pod of the first sync, deleted by the suspension; the pod of the resumption, by the deadline.
  const first = [seen('p0', 10, 1, { phase: 'Pending' }), podDeleted('p0', at(31))];
  const second = [seen('p1', 12, 61, { phase: 'Pending' }), podDeleted('p1', at(361))];
  const conditions = ['Suspended=False:JobResumed', 'FailureTarget=True:DeadlineExceeded', 'Failed=True:DeadlineExceeded'];

  it("in the cluster's order: JobResumed at 1:00, then the deadline; the later suspension comes after the finish", () => {
    expect(conditionsAfter([creation, ...first, suspension, resumption, ...second, again, last])).toEqual(conditions);
  });

  it('the last resumption first, the one at 1:00 after: the controller wrote JobResumed then, before the outcome', () => {
    expect(conditionsAfter([creation, first[0] as JobEvent, suspension, first[1] as JobEvent, last, resumption, ...second, again])).toEqual(conditions);
  });
});

describe('A Job jobfold runs, suspended while its view lacked a pod event, resumed before the event arrived', () => {
  // Managed history-58: jobfold's syncs on the suspended spec waited for the missing event
  // (pod-view-gap.ts), and the resumption arrived first, so no sync of jobfold's wrote Suspended;
  // in the cluster's order, without the hole, jobfold suspended the Job at 0:30 and resumed it at 1:00.
  const two = withSpec(job, { parallelism: 2, completions: 2, activeDeadlineSeconds: undefined });
  const counted = <E extends JobEvent>(event: E, jobSeq: number, seq: number): E => ({ ...event, sequence: { epoch: 1, seq, jobSeq } });
  const pod = (name: string, rv: number, when: number, options: Parameters<typeof aPod>[0] = {}) =>
    ({ ...podObserved(aPod({ name, resourceVersion: String(rv), creationTimestamp: at(1), ...options }), at(when)), eventId: `${name}/${rv}` });
  const creation = jobAt(two, {}, '1', at(0));
  const suspension = jobAt(two, { suspend: true }, '2', at(30));
  const resumption = jobAt(two, { suspend: false }, '3', at(60));
  const p0 = counted(pod('p0', 10, 1, { phase: 'Pending' }), 1, 1);
  const p1 = counted(pod('p1', 11, 1, { phase: 'Pending' }), 2, 1);
  const p0Succeeded = counted(pod('p0', 12, 5, { phase: 'Succeeded', finishedAt: at(5) }), 3, 2);
  // The suspension deletes p1 (jobfold removes its finalizer); the resumption creates p2, which succeeds.
  const p1Gone = [counted(pod('p1', 13, 31, { phase: 'Failed', exitCode: 137, finishedAt: at(31), deletionTimestamp: at(31), finalizer: false }), 4, 2), counted(podDeleted('p1', at(31)), 5, 3)];
  const p2 = [counted(pod('p2', 14, 61, { phase: 'Pending', creationTimestamp: at(61) }), 6, 1), counted(pod('p2', 15, 90, { phase: 'Succeeded', finishedAt: at(90), creationTimestamp: at(61) }), 7, 2)];
  const conditions = ['Suspended=False:JobResumed', 'SuccessCriteriaMet=True:CompletionsReached', 'Complete=True:CompletionsReached'];

  it("in the cluster's order: suspended at 0:30, resumed at 1:00, complete", () => {
    expect(conditionsAfter([creation, p0, p1, p0Succeeded, suspension, ...p1Gone, resumption, ...p2])).toEqual(conditions);
  });

  it('p1 first seen after the resumption: the suspension jobfold held back is written in its place, resumed', () => {
    expect(conditionsAfter([creation, p0, p0Succeeded, suspension, resumption, p1, ...p1Gone, ...p2])).toEqual(conditions);
  });
});

describe('A Job jobfold runs, first seen suspended, its creation (running) arriving after', () => {
  // Managed generated history (seed 8) 42: created running at 0:00 and suspended at 0:02; resumed
  // at 6:40, when its deadline (60 s from its start at 0:00) had passed: the resuming sync failed it.
  // Seen suspended first, jobfold had never started the Job, and started it at the resumption.
  const idle = withSpec(job, { parallelism: 0, activeDeadlineSeconds: 60 });
  const creation = jobAt(idle, {}, '1', at(0));
  const suspension = jobAt(idle, { suspend: true }, '2', at(2));
  const resumption = jobAt(idle, { suspend: false }, '3', at(400));
  const conditions = ['Suspended=True:JobSuspended', 'FailureTarget=True:DeadlineExceeded', 'Failed=True:DeadlineExceeded'];

  it("in the cluster's order: started at 0:00, suspended, failed by the sync that resumed it", () => {
    expect(conditionsAfter([creation, suspension, resumption])).toEqual(conditions);
  });

  it('the suspension first: the creation, arriving after, starts the Job at 0:00, and the resuming sync fails it as in order', () => {
    expect(conditionsAfter([suspension, creation, resumption])).toEqual(conditions);
  });
});

describe('A Job whose success policy was met at its creation, suspended and resumed a minute later, the success\'s first observation arriving last', () => {
  // Generated cluster history-21 (seed 21): index 0's pod succeeded before the Job's first sync
  // and was seen so at 0:00, 1:00 and 1:03 (rv 2, 4, 7); the Job was suspended at 1:01 (rv 5) and
  // resumed at 1:38 (rv 9). The cluster finished the Job at 0:00 and never synced it again: no
  // Suspended condition. The resumption arriving first and the suspension after, jobfold takes the
  // controller to have written Suspended=True at 1:01 and flips it (JobResumed); the success then
  // weighs the suspension by the instant the pod was seen succeeded, 0:00 once its oldest
  // observation arrives (observe-pod.ts outcomeSeenEarlier), and the flip is taken back.
  const indexed = aJob({ completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const succeeded = (rv: string, seconds: number) =>
    podObserved(aPod({ name: 'p0', index: 0, phase: 'Succeeded', finishedAt: at(-1), deletionTimestamp: at(seconds), resourceVersion: rv }), at(seconds));
  const creation = jobAt(indexed, {}, '1', at(0));
  const suspension = jobAt(indexed, { suspend: true }, '5', at(61));
  const resumption = jobAt(indexed, { suspend: false }, '9', at(98));
  const conditions = ['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy'];

  it("in the cluster's order: complete at 0:00, no Suspended", () => {
    expect(conditionsAfter([creation, succeeded('2', 0), succeeded('4', 60), suspension, succeeded('7', 63), resumption])).toEqual(conditions);
  });

  it('the resumption, the suspension and the newest success first, the oldest success last: no Suspended either', () => {
    expect(conditionsAfter([resumption, suspension, succeeded('7', 63), creation, succeeded('4', 60), succeeded('2', 0)])).toEqual(conditions);
  });
});

describe('A Job jobfold runs, suspended, resumed at the very second its deadline passes on its start, and suspended again before that sync could finish it', () => {
  // Managed history-20 (closed loop, a cluster per delivery): created at 0:00 with a deadline of
  // 60 s, suspended at 0:30 (its pods deleted), resumed at 1:00, suspended again at 1:01, resumed
  // at 2:49. The sync of the resumption at 1:00 finds the deadline passed on the start of 0:00
  // (checked before a resumption resets the start) and chooses the finish, kept back while the
  // deletions it expects are not seen; the syncs after it read a suspended spec (no deadline); the
  // resuming sync at 2:49 finds it passed again and fails the Job. No sync flipped Suspended:
  // it stays True beside the outcome, as upstream's syncJob keeps it (pastActiveDeadline before
  // manageJob, and the Suspended condition written only by a sync that chose no finish).
  const two = withSpec(job, { parallelism: 2 });
  const pod = (name: string, rv: number, when: number, options: Parameters<typeof aPod>[0] = {}) =>
    ({ ...podObserved(aPod({ name, resourceVersion: String(rv), creationTimestamp: at(5), ...options }), at(when)), eventId: `${name}/${rv}` });
  const history = [
    jobAt(two, {}, '1', at(0)),
    pod('p0', 2, 5, { phase: 'Pending' }),
    pod('p1', 3, 5, { phase: 'Pending' }),
    jobAt(two, { suspend: true }, '4', at(30)),
    jobAt(two, { suspend: false }, '5', at(60)),
    pod('p0', 6, 61, { phase: 'Failed', exitCode: 137, deletionTimestamp: at(61) }),
    jobAt(two, { suspend: true }, '7', at(61)),
    pod('p1', 8, 96, { phase: 'Failed', exitCode: 137, deletionTimestamp: at(91) }),
    jobAt(two, { suspend: false }, '9', at(169)),
    pod('p0', 10, 265, { phase: 'Failed', exitCode: 137, deletionTimestamp: at(61), finalizer: false }),
    podDeleted('p0', at(265)),
    pod('p1', 11, 267, { phase: 'Failed', exitCode: 137, deletionTimestamp: at(91), finalizer: false }),
    podDeleted('p1', at(267)),
  ];

  it("in the cluster's order: failed at its deadline, still suspended (no JobResumed)", () => {
    expect(conditionsAfter(history)).toEqual(['Suspended=True:JobSuspended', 'FailureTarget=True:DeadlineExceeded', 'Failed=True:DeadlineExceeded']);
  });
});
