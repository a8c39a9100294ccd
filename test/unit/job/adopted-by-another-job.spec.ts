import { describe, expect, it } from 'vitest';
import { parseInbound } from '../../../shared/contract/parse-inbound.ts';
import { CONTROLLER_UID_LABEL } from '../../../shared/k8s/job-controller.ts';
import type { PodObserved } from '../../../shared/job/events.ts';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import { cloneState } from '../../../shared/job/snapshot.ts';
import type { Pod } from '../../../shared/k8s/pod.ts';
import { aJob, aPod, at, podObserved, tick } from '../../support/builders.ts';
import { podObservedEvent } from '../../support/inbound-events.ts';
import { conditionsOf, given, terminatedPods } from '../../support/job-spec.ts';

// A pod this Job created whose controllerRef moved to another Job (released, then adopted).
// Upstream (pkg/controller/job): the pod's update re-syncs the old controller, whose `ClaimPods`
// ignores a pod owned by someone else (controller_ref_manager.go "Owned by someone else.
// Ignore."): it no longer counts, waits on or deletes it. Routing tells the Job that created the
// pod (its controller-uid label) with the observation marked `controlledBy` the new controller.

const OTHER = 'other-job-uid';
const adopted = (event: PodObserved): PodObserved => ({ ...event, eventId: `${event.eventId}/adopted`, controlledBy: OTHER });
const running = (name: string, when: string) => podObserved(aPod({ name }), when);
const failed = (name: string, when: string) => podObserved(aPod({ name, phase: 'Failed' }), when);

describe('A pod another Job controls now', () => {
  it('leaves the Job\'s active count when the other Job adopts it, and is replaced', () => {
    const job = aJob({ completions: 2, parallelism: 2 });
    // given two running pods, and then `b` controlled by another Job
    const outcome = given(job, running('a', at(1)), running('b', at(1)), adopted(running('b', at(2)))).when({ now: at(2) });
    // then only `a` is this Job's, and one pod is created in `b`'s place, as upstream's manageJob does
    expect(outcome.state.counts.active).toBe(1);
    expect(outcome.decisions).toMatchObject([{ type: 'PodCreationsRequested', count: 1 }]);
  });

  it('is neither terminated nor waited for when the Job fails', () => {
    const job = aJob({ completions: 2, parallelism: 2, backoffLimit: 0 });
    const before: JobEvent[] = [running('a', at(1)), running('b', at(1))];
    // given the Job's pod `a` fails with `b` still its own: `b` is terminated and awaited
    const owned = given(job, ...before, failed('a', at(3))).when({ now: at(3) });
    expect(terminatedPods(owned)).toEqual(['b']);
    expect(conditionsOf(owned.status)).toEqual(['FailureTarget=True:BackoffLimitExceeded']);
    // given `b` went to another Job (and `c` replaced it) before `a` failed
    const outcome = given(job, ...before, adopted(running('b', at(2))), running('c', at(2.5)), failed('a', at(3))).when({ now: at(3) });
    // then only `c` is terminated, and the Job fails once `c` is gone, never waiting on `b`
    expect(terminatedPods(outcome)).toEqual(['c']);
    const done = given(job, ...before, adopted(running('b', at(2))), running('c', at(2.5)), failed('a', at(3)),
      { type: 'PodDeleted', eventId: 'c/deleted', clusterId: 'test-cluster', observedAt: at(4), uid: 'c' }).when({ now: at(4) });
    expect(conditionsOf(done.status)).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
    expect(done.status.terminating).toBe(0);
  });

  it('is not counted when it ends under the other Job, and its deletion is not a failure here', () => {
    const job = aJob({ completions: 2, parallelism: 2, backoffLimit: 0 });
    // given `b` adopted, then seen failed and deleted (the other Job's to count)
    const outcome = given(
      job, running('a', at(1)), running('b', at(1)), adopted(running('b', at(2))), adopted(failed('b', at(3))),
      { type: 'PodDeleted', eventId: 'b/deleted', clusterId: 'test-cluster', observedAt: at(4), uid: 'b' }, tick(at(5)),
    ).when({ now: at(5) });
    // then this Job neither failed nor counts it
    expect(outcome.status).toMatchObject({ failed: 0, succeeded: 0 });
    expect(outcome.state.counts.active).toBe(1);
    expect(conditionsOf(outcome.status)).toEqual([]);
  });

  it('keeps what the pod already counted for this Job', () => {
    const job = aJob({ completions: 2, parallelism: 2 });
    // (counted at 2 s with its finalizer, which goes once counted)
    const succeeded = podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(2));
    given(job, running('a', at(1)), running('b', at(1)), succeeded, adopted(podObserved(aPod({ name: 'b', phase: 'Succeeded', finalizer: false }), at(3))))
      .when({ now: at(3) })
      .thenStatus({ active: 1, succeeded: 1 });
  });

  it('ends the same whatever order the pod\'s observations arrive in', () => {
    const job = aJob({ completions: 2, parallelism: 2, backoffLimit: 0 });
    // `b` running as this Job's, then running and failed as the other Job's (resourceVersion order)
    const events = [
      podObserved(aPod({ name: 'b', resourceVersion: '10' }), at(1)),
      adopted(podObserved(aPod({ name: 'b', resourceVersion: '20' }), at(1))),
      adopted(podObserved(aPod({ name: 'b', phase: 'Failed', resourceVersion: '30' }), at(1))),
    ];
    const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    const outcomes = orders.map((order) => given(job, running('a', at(1)), ...order.map((i) => events[i]!), tick(at(2))).when({ now: at(2) }));
    for (const outcome of outcomes) {
      expect(outcome.status).toEqual(outcomes[0]!.status);
      expect(outcome.status).toMatchObject({ failed: 0, succeeded: 0 });
      expect(outcome.state.counts.active).toBe(1);
    }
  });

  it('stays another Job\'s through a snapshot', () => {
    const job = aJob({ completions: 2, parallelism: 2 });
    const { state } = given(job, running('a', at(1)), running('b', at(1)), adopted(running('b', at(2)))).fold();
    const copy = cloneState(state);
    expect(copy.pods.get('b')?.controlledBy).toBe(OTHER);
    expect(copy.counts.active).toBe(1);
  });
});

describe('Routing a pod another Job controls now', () => {
  const first = aJob({}, { name: 'first', uid: 'first-uid' });
  const second = aJob({}, { name: 'second', uid: 'second-uid' });
  const createdByFirst = (pod: Pod): Pod => ({ ...pod, metadata: { ...pod.metadata, labels: { [CONTROLLER_UID_LABEL]: 'first-uid' } } });

  it('sends it to its controller\'s log and, marked, to the log of the Job that created it', () => {
    const parsed = parseInbound(podObservedEvent(createdByFirst(aPod({ name: 'p' })), second, at(1)));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.targets.map((t) => [t.stream.uid, (t.entry.body as PodObserved).controlledBy])).toEqual([
      ['second-uid', undefined],
      ['first-uid', 'second-uid'],
    ]);
  });

  it('sends a pod still controlled by the Job that created it to that log only', () => {
    const parsed = parseInbound(podObservedEvent(createdByFirst(aPod({ name: 'p' })), first, at(1)));
    expect(parsed.ok && parsed.targets.map((t) => t.stream.uid)).toEqual(['first-uid']);
  });
});
