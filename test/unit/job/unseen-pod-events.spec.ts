import { describe, expect, it } from 'vitest';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { JobCommand } from '../../../shared/job/commands.ts';
import type { PodDeleted, PodObserved } from '../../../shared/job/events.ts';
import { explainJob } from '../../../shared/job/explain.ts';
import { restoreSnapshot, takeSnapshot } from '../../../shared/job/snapshot.ts';
import { decide } from '../../../shared/job/decide.ts';
import { missingPodEvents } from '../../../shared/job/pod-view-gap.ts';
import { knownObservation } from '../../../shared/job/known-observation.ts';
import { aJob, aPod, at, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { given, play } from '../../support/job-spec.ts';

// Issue 21, "no harmful command from a transient view" (shared/job/pod-view-gap.ts). The
// forwarder numbers the pod events it sends for each Job (`sequence.jobSeq`); while the log lacks
// one sent before the newest it holds, a Job jobfold runs neither creates nor deletes pods, as
// upstream, whose informer only ever shows a prefix of the cluster's history, never would.

const EPOCH = 1_000;
const managed = { managedBy: JOBFOLD_CONTROLLER_NAME };

/** The event as the forwarder stamps it: the pod's own count and the Job's. */
function sent<E extends PodObserved | PodDeleted>(event: E, seq: number, jobSeq: number, epoch = EPOCH): E {
  return { ...event, sequence: { epoch, seq, jobSeq } };
}

const terminated = (commands: readonly JobCommand[]) => commands.flatMap((c) => (c.type === 'TerminatePod' ? [c.podName] : []));
const created = (commands: readonly JobCommand[]) => commands.filter((c) => c.type === 'CreatePod').length;

// Completions 3, parallelism 2. In the cluster: a and b run (1, 2), a succeeds (3), and the
// pod created in its place, c, starts (4). The log got 1, 2 and 4: a still looks active.
const job = aJob({ ...managed, completions: 3, parallelism: 2 });
const a = sent(podObserved(aPod({ name: 'a' }), at(1)), 1, 1);
const b = sent(podObserved(aPod({ name: 'b' }), at(1)), 1, 2);
const aSucceeded = sent(podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)), 2, 3);
const c = sent(podObserved(aPod({ name: 'c' }), at(1)), 1, 4);

describe('A managed Job whose log lacks a pod event sent before the newest it holds', () => {
  it('deletes no pod as excess while it waits, and is woken when the wait runs out', () => {
    const outcome = given(job, a, b, c).when({ now: at(1) });
    expect(terminated(outcome.commands)).toEqual([]);
    expect(outcome.decisions.map((d) => d.type)).not.toContain('PodsTerminationRequested');
    expect(Date.parse(outcome.wakeAt ?? '')).toBe(Date.parse(at(301)) + 1);
  });

  it('decides as soon as the missing event arrives: a succeeded, nothing is in excess', () => {
    const outcome = given(job, a, b, c, aSucceeded).when({ now: at(1) });
    expect(terminated(outcome.commands)).toEqual([]);
    expect(created(outcome.commands)).toBe(0);
    expect(outcome.status).toMatchObject({ active: 2, succeeded: 1 });
  });

  it('without the counts (an older forwarder) the same view deletes a running pod as before', () => {
    const unstamped = [a, b, c].map(({ sequence: _s, ...event }) => event);
    expect(terminated(given(job, ...unstamped).when({ now: at(1) }).commands)).toHaveLength(1);
  });

  it('gives the wait up after the expectation timeout: a lost event never wedges the Job', () => {
    const outcome = given(job, a, b, c).when({ now: at(302) });
    expect(terminated(outcome.commands)).toHaveLength(1);
  });

  it('creates no pod for a slot whose pod it has not seen yet', () => {
    // Parallelism 2: a (1), b (2) created, a ready (3). The log got 1 and 3: one pod looks missing.
    const aReady = sent(podObserved(aPod({ name: 'a', ready: true }), at(1)), 2, 3);
    const twoPods = aJob({ ...managed, completions: 2, parallelism: 2 });
    expect(created(given(twoPods, a, aReady).when({ now: at(1) }).commands)).toBe(0);
    expect(created(given(twoPods, a, aReady, b).when({ now: at(1) }).commands)).toBe(0);
    expect(created(given(twoPods, a, aReady).when({ now: at(302) }).commands)).toBe(1);
  });

  it('counts deletions too', () => {
    // a (1), b (2), c (3) created, b deleted (4). The log got 1, 2, 4, then 3.
    const bGone = sent(podDeleted('b', at(1)), 2, 4);
    const cCreated = sent(podObserved(aPod({ name: 'c' }), at(1)), 1, 3);
    expect(missingPodEvents(given(job, a, b, bGone).fold().state)).toEqual({ count: 1, since: Date.parse(at(1)) });
    expect(missingPodEvents(given(job, a, b, bGone, cCreated).fold().state)).toBeUndefined();
  });

  it('starts counting again with a newer pod epoch (the forwarder listed pods again)', () => {
    const relisted = sent(podObserved(aPod({ name: 'd' }), at(1)), 1, 1, EPOCH + 1);
    expect(terminated(given(job, a, b, c, relisted).when({ now: at(1) }).commands)).toHaveLength(2);
  });

  it('keeps waiting across a snapshot', () => {
    const { state } = given(job, a, b, c).fold();
    const { snapshot } = takeSnapshot(state);
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)));
    expect(terminated(decide(restored, at(1)).commands)).toEqual([]);
  });

  it('takes a snapshot of the counts as they are: the event folded after it does not reach it', () => {
    const { state } = given(job, a, b, c).fold();
    const { snapshot } = takeSnapshot(state);
    play(state, [aSucceeded]);
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)));
    expect(terminated(decide(restored, at(1)).commands)).toEqual([]);
  });

  it('logs a late event that changes nothing of its pod when the log lacks its count', () => {
    const { state } = given(job, a, b, aSucceeded, c).fold();
    // a's first version again under another id: stale, and its count (1) is in the log.
    expect(knownObservation(state, { ...a, eventId: 'a/again' })).toBe('stale');
    const { state: gap } = given(job, b, aSucceeded, c).fold();
    expect(knownObservation(gap, a)).toBeUndefined();
  });

  it('says why nothing was created or deleted yet', () => {
    const { state } = given(job, a, b, c).fold();
    expect(explainJob(state).summary).toContain('1 pod event sent before');
  });
});

describe('A managed Job decides no outcome on a view with a hole in it', () => {
  // Completions 1, parallelism 2, backoffLimit 0. In the cluster: a and b run (1, 2), a succeeds
  // (3), b fails (4). The log got 1, 2 and 4: a still looks active, and b's failure exceeds the
  // backoff limit. Deciding then would terminate a, which had succeeded, and fail the Job.
  const oneCompletion = aJob({ ...managed, completions: 1, parallelism: 2, backoffLimit: 0 });
  const bFailed = sent(podObserved(aPod({ name: 'b', phase: 'Failed' }), at(1)), 2, 4);
  const aDone = sent(podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)), 2, 3);

  it('while the event is missing: no condition, no termination, a wake-up when the wait runs out', () => {
    const outcome = given(oneCompletion, a, b, bFailed).when({ now: at(1) });
    expect(outcome.decisions.filter((d) => d.type === 'JobConditionChanged')).toEqual([]);
    expect(terminated(outcome.commands)).toEqual([]);
    expect(Date.parse(outcome.wakeAt ?? '')).toBe(Date.parse(at(301)) + 1);
    expect(explainJob(outcome.state).summary).toContain('no outcome decided');
  });

  it('once it arrives: decided on the whole view, and the succeeded pod is not terminated', () => {
    const outcome = given(oneCompletion, a, b, bFailed, aDone).when({ now: at(1) });
    expect(terminated(outcome.commands)).toEqual([]);
    expect(outcome.status).toMatchObject({ succeeded: 1, failed: 1, active: 0 });
    expect(outcome.status.conditions.map((c) => c.type)).toContain('FailureTarget');
  });

  it('after the expectation timeout it decides on what it has', () => {
    const outcome = given(oneCompletion, a, b, bFailed).when({ now: at(302) });
    expect(terminated(outcome.commands)).toEqual(['a']);
  });

  it('an outcome already decided goes on: its terminal condition waits for the hole to close', () => {
    // The Job failed on b (1, 2, 3: b failed); then c's creation (5) arrives without 4.
    const failing = given(oneCompletion, a, b, sent(podObserved(aPod({ name: 'b', phase: 'Failed' }), at(1)), 2, 3), tick(at(2)));
    const { state } = failing.fold();
    expect(state.status.conditions.map((c) => c.type)).toContain('FailureTarget');
    const aGone = sent(podDeleted('a', at(3)), 2, 5);
    const held = given(oneCompletion, a, b, sent(podObserved(aPod({ name: 'b', phase: 'Failed' }), at(1)), 2, 3), tick(at(2)), aGone).when({ now: at(3) });
    expect(held.status.conditions.map((c) => c.type)).not.toContain('Failed');
  });
});

describe('A managed Job that waited decides as the syncs between the missing events would have', () => {
  // Indexed, completions 2, success policy: index 0; backoffLimit 0. In the cluster: a (index 0)
  // and b (index 1) run (1, 2), a succeeds at 0:02 (3), b fails at 0:03 (4). The log got 1, 2 and
  // 4, then 3: upstream synced after 3 (SuccessCriteriaMet) before it read 4.
  const leader = aJob({ ...managed, completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimit: 0, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const a0 = sent(podObserved(aPod({ name: 'a', index: 0 }), at(1)), 1, 1);
  const b1 = sent(podObserved(aPod({ name: 'b', index: 1 }), at(1)), 1, 2);
  const a0Succeeded = sent(podObserved(aPod({ name: 'a', index: 0, phase: 'Succeeded' }), at(2)), 2, 3);
  const b1Failed = sent(podObserved(aPod({ name: 'b', index: 1, phase: 'Failed' }), at(3)), 2, 4);

  it('the success met first wins over the backoff limit exceeded after it', () => {
    const inOrder = given(leader, a0, b1, a0Succeeded, b1Failed).when();
    expect(inOrder.status.conditions.filter((c) => c.status === 'True').map((c) => c.type)).toContain('SuccessCriteriaMet');
    const waited = given(leader, a0, b1, b1Failed, a0Succeeded).when({ now: at(3) });
    expect(waited.status.conditions.filter((c) => c.status === 'True').map((c) => `${c.type}:${c.reason}`)).toContain('SuccessCriteriaMet:SuccessPolicy');
    expect(waited.status.conditions.map((c) => c.type)).not.toContain('FailureTarget');
  });
});

describe('A Job jobfold does not run', () => {
  it('computes its decisions as before, missing events or not', () => {
    const own = aJob({ completions: 3, parallelism: 2 });
    expect(terminated(given(own, a, b, c).when({ now: at(1) }).commands)).toHaveLength(1);
  });

  // Its lingering pods' TerminatePod commands are sent (contract/outbound.ts, isDispatched), so
  // they wait for the hole as a managed Job's decisions do. Indexed, completions 3, success policy:
  // index 0. In the cluster: a (0), b (1), c (2) run (1, 2, 3), b succeeds (4), then a (5). The log
  // got 1, 2, 3 and 5: b still looks active when the leader's success arrives.
  const leaderOnly = aJob({ completionMode: 'Indexed', completions: 3, parallelism: 3, successPolicy: { rules: [{ succeededIndexes: '0' }] } });
  const a0 = sent(podObserved(aPod({ name: 'a', index: 0 }), at(1)), 1, 1);
  const b1 = sent(podObserved(aPod({ name: 'b', index: 1 }), at(1)), 1, 2);
  const c2 = sent(podObserved(aPod({ name: 'c', index: 2 }), at(1)), 1, 3);
  const b1Succeeded = sent(podObserved(aPod({ name: 'b', index: 1, phase: 'Succeeded' }), at(2)), 2, 4);
  const a0Succeeded = sent(podObserved(aPod({ name: 'a', index: 0, phase: 'Succeeded' }), at(3)), 2, 5);

  it('terminates no pod, and decides no outcome, while a pod event sent before the success is missing', () => {
    const outcome = given(leaderOnly, a0, b1, c2, a0Succeeded).when({ now: at(3) });
    expect(terminated(outcome.commands)).toEqual([]);
    expect(outcome.status.conditions.map((c) => c.type)).not.toContain('SuccessCriteriaMet');
    expect(Date.parse(outcome.wakeAt ?? '')).toBe(Date.parse(at(3)) + 300_000 + 1);
    expect(explainJob(outcome.state).summary).toContain('No outcome is decided and no pod terminated, while 1 pod event');
  });

  it('once it arrives, terminates only the pod still running: the succeeded one is not deleted', () => {
    const outcome = given(leaderOnly, a0, b1, c2, a0Succeeded, b1Succeeded).when({ now: at(3) });
    expect(terminated(outcome.commands)).toEqual(['c']);
    expect(outcome.status).toMatchObject({ succeeded: 2 });
  });

  it('after the expectation timeout it decides on what it has: a lost event never wedges the Job', () => {
    const outcome = given(leaderOnly, a0, b1, c2, a0Succeeded).when({ now: at(304) });
    expect(terminated(outcome.commands).sort()).toEqual(['b', 'c']);
  });

  it('a Job whose outcome is decided holds the termination of a pod seen after it while a pod event is missing', () => {
    // SuccessCriteriaMet in order (c terminated), then a pod d (8) arrives without 7.
    const d = sent(podObserved(aPod({ name: 'd', index: 2 }), at(5)), 1, 8);
    const decided = [leaderOnly, a0, b1, c2, b1Succeeded, a0Succeeded, tick(at(4))] as const;
    expect(given(...decided).fold().state.status.conditions.map((cond) => cond.type)).toContain('SuccessCriteriaMet');
    expect(terminated(given(...decided, d).when({ now: at(5) }).commands)).toEqual([]);
    expect(terminated(given(...decided, d).when({ now: at(306) }).commands)).toEqual(['d']);
  });
});
