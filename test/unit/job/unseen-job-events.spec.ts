import { describe, expect, it } from 'vitest';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { JobCommand } from '../../../shared/job/commands.ts';
import type { JobObserved, PodObserved } from '../../../shared/job/events.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { explainJob } from '../../../shared/job/explain.ts';
import { restoreSnapshot, takeSnapshot } from '../../../shared/job/snapshot.ts';
import { decide } from '../../../shared/job/decide.ts';
import { missingJobEvents } from '../../../shared/job/job-view-gap.ts';
import { knownObservation } from '../../../shared/job/known-observation.ts';
import { aJob, aPod, at, jobObserved, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given, newConditions } from '../../support/job-spec.ts';

// Issue 21, "no harmful command from a transient view", the Job's own observations
// (shared/job/job-view-gap.ts). The forwarder numbers the events it sends of each Job
// (`sequence.jobEvents` on a Job event) and stamps each pod event with that count as it stood
// when the pod event was sent (`jobEvents`, `jobEpoch`). While the log holds a pod event naming
// a Job event it lacks, a Job jobfold runs neither creates nor deletes pods nor decides a new
// outcome, as upstream, whose informers show a Job's spec before the pod events that followed it,
// never would.

const EPOCH = 1_000;
const POD_EPOCH = 2_000;

/** The Job event as the forwarder stamps it: its own count among the Job's events (resourceVersion `count` too). */
function jobEvent(job: Job, seconds: number, count: number, epoch = EPOCH): JobObserved {
  const versioned = { ...job, metadata: { ...job.metadata, resourceVersion: String(count) } };
  return { ...jobObserved(versioned, at(seconds)), eventId: `job/${count}`, sequence: { epoch, seq: count, jobEvents: count } };
}

/** The pod event as the forwarder stamps it: its own count, the Job's pod count, and the count of the Job's events sent before it. */
function podEvent(event: PodObserved, seq: number, jobSeq: number, jobEvents: number, jobEpoch = EPOCH): PodObserved {
  return { ...event, sequence: { epoch: POD_EPOCH, seq, jobSeq, jobEvents, jobEpoch } };
}

const created = (commands: readonly JobCommand[]) => commands.filter((c) => c.type === 'CreatePod').length;
const terminated = (commands: readonly JobCommand[]) => commands.flatMap((c) => (c.type === 'TerminatePod' ? [c.podName] : []));

describe('A managed Job whose log holds a pod event naming a Job event it lacks (the deadline)', () => {
  // activeDeadlineSeconds 10. In the cluster: the Job is created (Job event 1) and started at 0,
  // its pod a seen at 1; the user suspends it at 3 (2) and resumes it at 5 (3), which moves its
  // start to 5; a runs again at 6, sent after both. The log got 1, a's two events, not 2 and 3.
  const job = aJob({ activeDeadlineSeconds: 10, managedBy: JOBFOLD_CONTROLLER_NAME, suspend: false });
  const createdAt0 = jobEvent(job, 0, 1);
  const suspended = jobEvent(withSpec(job, { suspend: true }), 3, 2);
  const resumed = jobEvent(withSpec(job, { suspend: false }), 5, 3);
  const aSeen = podEvent(podObserved(aPod({ name: 'a' }), at(1)), 1, 1, 1);
  const aRunning = podEvent(podObserved(aPod({ name: 'a', phase: 'Running', ready: true }), at(6)), 2, 2, 3);
  const start = [createdAt0, tick(at(0)), aSeen];

  it('given the suspension and resumption missing, when reconciled at 10, then no deadline is met and no pod terminated; the Job is woken when the wait runs out', () => {
    const outcome = given(null, ...start, aRunning).when({ now: at(10) });
    expect(newConditions(outcome)).toEqual([]);
    expect(terminated(outcome.commands)).toEqual([]);
    expect(Date.parse(outcome.wakeAt ?? '')).toBe(Date.parse(at(306)) + 1);
  });

  it('given the same view without the counts (an older forwarder), when reconciled at 10, then the deadline passes on the start of 0, as before', () => {
    const unstamped = [...start, aRunning].map((e) => ('sequence' in e ? { ...e, sequence: undefined } : e));
    const outcome = given(null, ...unstamped).when({ now: at(10) });
    expect(newConditions(outcome)).toContain('FailureTarget=True:DeadlineExceeded');
    expect(terminated(outcome.commands)).toEqual(['a']);
  });

  it('given the suspension and resumption arriving after a, when reconciled at 10, then the start moves to 5 and no deadline is met', () => {
    const outcome = given(null, ...start, aRunning, resumed, suspended).when({ now: at(10) });
    expect(newConditions(outcome)).toEqual([]);
    expect(outcome.decisions).toContainEqual(expect.objectContaining({ type: 'StartTimeSet', startTime: at(5) }));
  });

  it('given them missing past the expectation timeout, when reconciled at 307, then the wait is given up: a lost event never wedges the Job', () => {
    const outcome = given(null, ...start, aRunning).when({ now: at(307) });
    expect(newConditions(outcome)).toContain('FailureTarget=True:DeadlineExceeded');
  });

  it('given a Job jobfold does not run, when reconciled at 10, then it does not wait (it only computes)', () => {
    const unmanaged = aJob({ activeDeadlineSeconds: 10, suspend: false });
    const outcome = given(null, jobEvent(unmanaged, 0, 1), tick(at(0)), aSeen, aRunning).when({ now: at(10) });
    expect(newConditions(outcome)).toContain('FailureTarget=True:DeadlineExceeded');
  });

  it('given a Job event missing between two the log holds, when reconciled at 10, then it waits too', () => {
    const outcome = given(null, ...start, resumed).when({ now: at(10) });
    expect(missingJobEvents(given(null, ...start, resumed).fold().state)).toEqual({ count: 1, since: Date.parse(at(5)) });
    expect(newConditions(outcome)).toEqual([]);
  });

  it('given the stale suspension arriving after the resumption, then it is logged for its count, and an older one the log counted is not', () => {
    const { state } = given(null, ...start, aRunning, resumed).fold();
    expect(knownObservation(state, suspended)).toBeUndefined();
    const { state: full } = given(null, ...start, aRunning, resumed, suspended).fold();
    expect(knownObservation(full, { ...suspended, eventId: 'job/2/again' })).toBe('stale');
  });

  it('given a newer Job epoch (the forwarder listed the Jobs again), then the counts start again: a pod naming its first Job event waits for it', () => {
    const relisted = podEvent(podObserved(aPod({ name: 'a', phase: 'Running', ready: true }), at(6)), 2, 2, 1, EPOCH + 1);
    expect(missingJobEvents(given(null, ...start, relisted).fold().state)).toEqual({ count: 1, since: Date.parse(at(6)) });
    const resumedAgain = jobEvent(withSpec(job, { suspend: false }), 5, 1, EPOCH + 1);
    expect(missingJobEvents(given(null, ...start, relisted, resumedAgain).fold().state)).toBeUndefined();
  });

  it('given a snapshot taken while it waits, when restored and reconciled at 10, then it still waits', () => {
    const { state } = given(null, ...start, aRunning).fold();
    const { snapshot } = takeSnapshot(state);
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)));
    const outcome = decide(restored, at(10));
    expect(outcome.decisions.map((d) => d.type)).not.toContain('JobConditionChanged');
  });

  it('says what it waits for', () => {
    const { state } = given(null, ...start, aRunning).fold();
    expect(explainJob(state).summary).toContain('2 events of the Job sent before an event in the log have not arrived');
  });
});

describe('A managed Job whose log lacks its scale-down (the extra creation)', () => {
  // Parallelism 2, completions 4. In the cluster: a and b run; the user scales to 1 (Job event 2)
  // at 5; a succeeds at 6, sent after it. The log got a's success, not the scale: two active
  // pods wanted, one seen, and jobfold would create a pod the cluster no longer wants.
  const job = aJob({ parallelism: 2, completions: 4, managedBy: JOBFOLD_CONTROLLER_NAME });
  const createdAt0 = jobEvent(job, 0, 1);
  const scaled = jobEvent(withSpec(job, { parallelism: 1 }), 5, 2);
  const a = podEvent(podObserved(aPod({ name: 'a', phase: 'Running' }), at(1)), 1, 1, 1);
  const b = podEvent(podObserved(aPod({ name: 'b', phase: 'Running' }), at(1)), 1, 2, 1);
  const aSucceeded = podEvent(podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(6)), 2, 3, 2);

  it('given the scale-down missing, when reconciled at 6, then no pod is created', () => {
    expect(created(given(null, createdAt0, a, b, aSucceeded).when({ now: at(6) }).commands)).toBe(0);
  });

  it('given the scale-down arriving, when reconciled at 7, then none is created either: one is active, one wanted', () => {
    expect(created(given(null, createdAt0, a, b, aSucceeded, scaled, tick(at(7))).when({ now: at(7) }).commands)).toBe(0);
  });

  it('given no counts, when reconciled at 6, then the pod the cluster no longer wants is created, as before', () => {
    const unstamped = [createdAt0, a, b, aSucceeded].map((e) => ({ ...e, sequence: undefined }));
    expect(created(given(null, ...unstamped).when({ now: at(6) }).commands)).toBe(1);
  });
});
