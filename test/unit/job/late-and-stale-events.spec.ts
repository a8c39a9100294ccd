import { describe, expect, it } from 'vitest';
import type { PodObserved } from '../../../shared/job/events.ts';
import type { ObjectSequence } from '../../../shared/k8s/object-sequence.ts';
import { aJob, anIndexedJob, aPod, at, jobObserved, podDeleted, podObserved, tick } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// EventBridge neither orders nor deduplicates: an older observation of a pod can arrive after a
// newer one. With the forwarder's stamp (docs/events.md, "Ordering") the fold ignores it; without
// one, the Ready condition's transition time keeps readiness from flipping back.

const job = aJob({ completions: 2, parallelism: 2 });
const stamped = (event: PodObserved, epoch: number, seq: number): PodObserved => ({ ...event, sequence: { epoch, seq } });
const notReady = (when: string, since?: string) =>
  podObserved(aPod({ name: 'a', conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: since ?? at(0) }] }), when);
const ready = (since: string, when: string) => podObserved(aPod({ name: 'a', ready: since }), when);

describe('Late, stale and repeated pod observations', () => {
  describe('with the forwarder\'s order stamp', () => {
    it('a late older `not ready` after `ready` does not flip ready (the stamp decides, not the times)', () => {
      given(job, stamped(ready(at(1), at(1)), 1, 2), stamped(notReady(at(2), at(2)), 1, 1))
        .when({ now: at(2) })
        .thenStatus({ ready: 1 });
    });

    it('a newer `not ready` does flip it', () => {
      given(job, stamped(ready(at(1), at(1)), 1, 1), stamped(notReady(at(2), at(2)), 1, 2))
        .when({ now: at(2) })
        .thenStatus({ ready: 0 });
    });

    it('a relist (a later epoch) is newer than any watch event before it, whatever its seq', () => {
      given(job, stamped(ready(at(1), at(1)), 1, 7), stamped(notReady(at(2), at(2)), 2, 1))
        .when({ now: at(2) })
        .thenStatus({ ready: 0 });
    });

    it('a watch event of an earlier epoch arriving after a relist is stale', () => {
      given(job, stamped(notReady(at(2), at(2)), 2, 1), stamped(ready(at(1), at(1)), 1, 7))
        .when({ now: at(2) })
        .thenStatus({ ready: 0 });
    });

    it('the same stamp again (a replay) changes nothing', () => {
      const first = stamped(ready(at(1), at(1)), 1, 1);
      const replayed = { ...stamped(notReady(at(2)), 1, 1), eventId: 'another-id' };
      given(job, first, replayed).when({ now: at(2) }).thenStatus({ ready: 1 });
    });

    // The kubelet never removes the Ready condition, so an observation without one tells nothing
    // of readiness, stamped newer or not (test:explore, stamped-arrival, seed 1538991330).
    it('an observation stamped newer but without any Ready condition, in either order with `ready`, leaves the pod ready', () => {
      const earlier = stamped(ready(at(0), at(0)), 1, 1);
      const silent = { ...stamped(podObserved(aPod({ name: 'a' }), at(0)), 1, 2), eventId: 'a/silent' };
      given(job, earlier, silent).when({ now: at(1) }).thenStatus({ ready: 1 });
      given(job, silent, earlier).when({ now: at(1) }).thenStatus({ ready: 1 });
    });

    it('a pod never moves back from Succeeded to Running', () => {
      const done = stamped(podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(2)), 1, 3);
      const late = stamped(podObserved(aPod({ name: 'a', ready: at(1) }), at(3)), 1, 2);
      given(job, done, late).when({ now: at(3) }).thenStatus({ ready: 0, succeeded: 1 });
    });
  });

  describe('without a stamp (older forwarders)', () => {
    it('a late `not ready` from before the pod became ready does not flip ready', () => {
      given(job, ready(at(1), at(1)), notReady(at(2), at(0)))
        .when({ now: at(2) })
        .thenStatus({ ready: 1 });
    });

    it('a `not ready` after the pod became ready does flip it', () => {
      given(job, ready(at(1), at(1)), notReady(at(2), at(2)))
        .when({ now: at(2) })
        .thenStatus({ ready: 0 });
    });

    // The kubelet adds the Ready condition at the pod's first sync and never removes it: an
    // observation without one is from before (writer-packed property, seed -920106403: such an
    // observation, first dropped as adding nothing, was redelivered after `ready` and flipped it).
    it('an observation without any Ready condition, in either order with `ready`, leaves the pod ready', () => {
      const silent = podObserved(aPod({ name: 'a' }), at(1));
      given(job, ready(at(1), at(1)), silent).when({ now: at(1) }).thenStatus({ ready: 1 });
      given(job, silent, ready(at(1), at(1))).when({ now: at(1) }).thenStatus({ ready: 1 });
    });
  });
});

describe('A tracked pod deleted, then seen finished with its finalizer already gone', () => {
  // status-invariants property, seed 1982798861: the deletion counted the pod failed (upstream
  // isPodFailed, podReplacementPolicy TerminatingOrFailed); its finished observation replaced that
  // count with how it ended, and, showing no finalizer, left it uncounted: failed went 1 → 0.
  const job = anIndexedJob(4, { parallelism: 1, backoffLimit: 2, podReplacementPolicy: 'TerminatingOrFailed' });
  const tracked = podObserved(aPod({ name: 'p0', index: 0, phase: 'Pending' }), at(0));
  const ended = podObserved(aPod({ name: 'p0', index: 0, phase: 'Failed', exitCode: 1, finishedAt: at(399), finalizer: false }), at(400));

  it('stays counted failed once, as the controller counted it when it removed the finalizer', () => {
    given(job, tick(at(0)), tracked, podDeleted('p0', at(0)), tick(at(1)), ended).when({ now: at(400) }).thenStatus({ failed: 1 });
  });

  it('and so when the older tracked observation comes again after', () => {
    given(job, tick(at(0)), tracked, podDeleted('p0', at(0)), tick(at(1)), ended, { ...tracked, eventId: 'again', observedAt: at(400) })
      .when({ now: at(400) })
      .thenStatus({ failed: 1 });
  });
});

describe('Late and stale Job observations', () => {
  const seq = (epoch: number, n: number): { sequence: ObjectSequence } => ({ sequence: { epoch, seq: n } });

  it('an older spec (suspended) arriving after the newer one (resumed) is ignored', () => {
    const suspended = { ...jobObserved(aJob({ completions: 2, parallelism: 2, suspend: true }), at(1)), ...seq(1, 1) };
    const resumed = { ...jobObserved(aJob({ completions: 2, parallelism: 2, suspend: false }), at(2)), ...seq(1, 2) };
    const outcome = given(null, resumed, { ...suspended, observedAt: at(3) }, tick(at(3))).when({ now: at(3) });
    expect(outcome.state.spec?.suspend).toBe(false);
    expect(outcome.log.filter((e) => e.type === 'JobObserved')).toHaveLength(2);
  });

  it('without stamps, the last Job observation folded wins (as before)', () => {
    const suspended = jobObserved(aJob({ completions: 2, parallelism: 2, suspend: true }), at(1));
    const resumed = jobObserved(aJob({ completions: 2, parallelism: 2, suspend: false }), at(2));
    const outcome = given(null, resumed, { ...suspended, observedAt: at(3) }).when({ now: at(3) });
    expect(outcome.state.spec?.suspend).toBe(true);
  });
});

describe('An elastic Indexed Job: a failure counts by the completions in force when it happened', () => {
  /** The Job with `completions` (and as many in parallel), as the cluster reported it at `rv`, observed at `when`. */
  const elastic = (completions: number, rv: string, when: string) => {
    const observed = jobObserved(aJob({ completionMode: 'Indexed', completions, parallelism: completions }), when);
    return { ...observed, eventId: `job/${rv}`, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
  };
  const failed = { ...podObserved(aPod({ name: 'c', index: 2, phase: 'Failed', resourceVersion: '2' }), at(2)), eventId: 'c/2' };
  const succeeded = { ...podObserved(aPod({ name: 'a', index: 0, phase: 'Succeeded', resourceVersion: '3' }), at(90)), eventId: 'a/3' };

  it('index 2 failed while completions was 3; lowered to 1 after: the failure stays counted, its index gone (in order)', () => {
    given(null, elastic(3, '1', at(0)), failed, elastic(1, '10', at(60)), succeeded)
      .when()
      .thenStatus({ failed: 1, succeeded: 1, completedIndexes: '0' });
  });

  it('the same when the lowered Job arrives first and the Job as it was when the pod failed arrives last (elastic-indexed__scale-down)', () => {
    given(null, elastic(1, '10', at(60)), failed, succeeded, elastic(3, '1', at(0)))
      .when({ now: at(90) })
      .thenStatus({ failed: 1, succeeded: 1, completedIndexes: '0' });
  });

  it('a failure of index 2 after completions was lowered to 1 is not counted, whichever arrives first', () => {
    const late = { ...failed, observedAt: at(70) };
    given(null, elastic(3, '1', at(0)), elastic(1, '10', at(60)), late, succeeded).when().thenStatus({ failed: 0, succeeded: 1 });
    given(null, elastic(3, '1', at(0)), late, elastic(1, '10', at(60)), succeeded).when().thenStatus({ failed: 0, succeeded: 1 });
  });
});
