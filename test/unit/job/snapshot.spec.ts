import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decide } from '../../../shared/job/decide.ts';
import { restoreArchived, restoreSnapshot, takeSnapshot, type JobSnapshot, type JobSnapshotForm1 } from '../../../shared/job/snapshot.ts';
import type { JobState } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { aJob, anIndexedJob, aPod, at, jobObserved, podDeleted, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given, play } from '../../support/job-spec.ts';

const job = anIndexedJob(4, { parallelism: 2, backoffLimitPerIndex: 1, backoffLimit: 10 });
const history = [
  tick(at(0)),
  podObserved(aPod({ index: 0 }), at(1)),
  podObserved(aPod({ index: 1 }), at(1)),
  podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(2)),
  podObserved(aPod({ index: 1, phase: 'Failed' }), at(2)),
  podDeleted('pod-0', at(3)),
];
const future = [
  podObserved(aPod({ name: 'pod-1-retry', index: 1, failureCount: 1 }), at(4)),
  podObserved(aPod({ index: 2 }), at(4)),
  podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(5)), // a late replay of an archived pod
  podObserved(aPod({ index: 1, phase: 'Failed' }), at(5)),
  podObserved(aPod({ name: 'pod-1-retry', index: 1, phase: 'Succeeded', failureCount: 1 }), at(6)),
  podObserved(aPod({ index: 2, phase: 'Succeeded' }), at(6)),
  tick(at(700)),
];

/** The state through its snapshot form: JSON, then restored with every archived pod. */
function roundTrip(state: JobState, restoreAll = true): JobState {
  const { snapshot, archived } = takeSnapshot(state);
  const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)) as JobSnapshot);
  if (restoreAll) restoreArchived(restored, JSON.parse(JSON.stringify(archived)));
  return restored;
}

// test/fixtures/snapshot-257ac7f/snapshot.json: taken by 257ac7f's takeSnapshot (form 1, every
// field of a live pod whole) from this history: UUID pods named `pod-<index>-<suffix>` of the Job
// `myjob` (names not after it), one pod of another uid and name, a success, a failure and its index's retry.
const form1History = (() => {
  const uid = (i: number) => `6a1f0c2e-8b3d-4c5e-9f70-${String(i).padStart(12, '0')}`;
  return [
    ...[0, 1, 2, 3, 4].map((i) => podObserved(aPod({ name: `pod-${i}-ab${i}de`, uid: uid(i), index: i, resourceVersion: String(1000 + i) }), at(1))),
    podObserved(aPod({ name: 'odd-name', uid: 'not-a-uuid', index: 5, resourceVersion: '2000' }), at(1)),
    podObserved(aPod({ name: 'pod-0-ab0de', uid: uid(0), index: 0, phase: 'Succeeded', resourceVersion: '1100' }), at(2)),
    podObserved(aPod({ name: 'pod-1-ab1de', uid: uid(1), index: 1, phase: 'Failed', resourceVersion: '1101' }), at(2)),
    podObserved(aPod({ name: 'pod-1-retry', uid: uid(9), index: 1, failureCount: 1, resourceVersion: '1200' }), at(3)),
  ];
})();
const form1Job = anIndexedJob(6, { parallelism: 6, backoffLimitPerIndex: 1, backoffLimit: 10 });

describe('Snapshots', () => {
  describe('Given a snapshot stored in form 1 (257ac7f: live pods with every field whole)', () => {
    it('restores the state today\'s form restores, pod for pod', () => {
      const stored = JSON.parse(readFileSync(new URL('../../fixtures/snapshot-257ac7f/snapshot.json', import.meta.url), 'utf8')) as JobSnapshotForm1;
      expect(stored.version).toBe(1);
      const { state } = given(form1Job, ...form1History).fold();
      const today = restoreSnapshot(JSON.parse(JSON.stringify(takeSnapshot(state).snapshot)) as JobSnapshot);
      const fromForm1 = restoreSnapshot(stored);
      expect([...fromForm1.pods.values()]).toEqual([...today.pods.values()]);
      // The pods as today's form stores them again (the state beside them may hold fields 257ac7f's did not take).
      expect(takeSnapshot(fromForm1).snapshot.livePods).toEqual(takeSnapshot(today).snapshot.livePods);
      expect(takeSnapshot(today).snapshot.version).toBe(2);
    });
  });


  describe('When a Job is snapshotted mid-flight', () => {
    it('restores to the same status', () => {
      const { state } = given(job, ...history).fold();
      expect(jobStatus(roundTrip(state))).toEqual(jobStatus(state));
    });

    it('restores to the same decisions now and for every future event', () => {
      const { state } = given(job, ...history).fold();
      const restored = roundTrip(state);
      expect(decide(restored, at(3))).toEqual(decide(state, at(3)));
      expect(play(restored, future)).toEqual(play(state, future));
      expect(jobStatus(restored)).toEqual(jobStatus(state));
    });

    it('needs only the archived pods the new events name', () => {
      const { state } = given(job, ...history).fold();
      const { snapshot, archived } = takeSnapshot(state);
      const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)) as JobSnapshot);
      const named = new Set(future.flatMap((e) => (e.type === 'PodObserved' ? [e.pod.metadata.uid] : [])));
      restoreArchived(restored, archived.filter((pod) => named.has(pod.uid)));
      expect(play(restored, future)).toEqual(play(state, future));
    });
  });

  describe('When pods have settled', () => {
    it('archives them instead of keeping them in the snapshot', () => {
      const { state } = given(job, ...history).fold();
      const { snapshot, archived } = takeSnapshot(state);
      expect(archived.map((p) => p.uid)).toEqual(['pod-0']);
      expect(snapshot.livePods).toHaveLength(1);
      expect(JSON.stringify(snapshot.livePods)).toContain('"pod-1"');
    });

    it('keeps a failed pod held for its replacement live, since it is not counted yet', () => {
      const { state } = given(job, ...history).fold();
      expect(state.held.get(1)).toBe('pod-1');
      expect(takeSnapshot(state).snapshot.livePods).toHaveLength(1);
    });

    it('lets an archived pod’s late observation change nothing once restored', () => {
      const { state } = given(job, ...history).fold();
      const restored = roundTrip(state);
      const before = jobStatus(restored);
      play(restored, [podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(3))]);
      expect(jobStatus(restored)).toMatchObject({ succeeded: before.succeeded, completedIndexes: before.completedIndexes });
    });
  });

  describe('When a pod is gone before its terminal state was seen', () => {
    it('still counts its late terminal observation after a round trip, as without one', () => {
      const flat = aJob({ completions: 3, parallelism: 1, backoffLimit: 5 });
      const { state } = given(flat, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podDeleted('a', at(2))).fold();
      const late = [podObserved(aPod({ name: 'a', phase: 'Failed' }), at(3))];
      const restored = roundTrip(state);
      expect(play(restored, late)).toEqual(play(state, late));
      expect(jobStatus(restored)).toMatchObject({ failed: 1 });
      expect(jobStatus(restored)).toEqual(jobStatus(state));
    });
  });

  describe('When a pod deleted while running lost its finalizer uncounted, and its observations arrive newest first', () => {
    it('still counts it failed when the oldest one, with the finalizer, arrives after a round trip, as without one', () => {
      // In the cluster: running with the finalizer; deleted, and the finalizer removed while it
      // still ran (the sync that counted it failed); then Failed. jobfold receives them newest
      // first: the Failed pod is archived uncounted, and the late tracked observation counts it
      // by its deletion — which the archive must keep (snapshot property, seed -1154655645).
      const flat = aJob({ completions: 3, parallelism: 1, backoffLimit: 5 });
      const { state } = given(
        flat,
        tick(at(0)),
        podObserved(aPod({ name: 'a', phase: 'Failed', exitCode: 1, finalizer: false, deletionTimestamp: at(2) }), at(3)),
        podObserved(aPod({ name: 'a', finalizer: false, deletionTimestamp: at(2) }), at(4)),
      ).fold();
      const late = [podObserved(aPod({ name: 'a' }), at(5))];
      const restored = roundTrip(state);
      expect(play(restored, late)).toEqual(play(state, late));
      expect(jobStatus(state)).toMatchObject({ failed: 1 });
      expect(jobStatus(restored)).toEqual(jobStatus(state));
    });
  });

  describe('When a suspended Job\'s pod, deleted finalizer first, is gone before its terminal state was seen', () => {
    it('still counts a late observation that shows it finished with the finalizer, after a round trip as without one', () => {
      const suspended = aJob({ completions: 4, parallelism: 1, suspend: true });
      const { state } = given(suspended, podObserved(aPod({ name: 'a' }), at(0))).when({ now: at(0) });
      expect([...state.pods.values()].map((p) => p.released)).toEqual([true]);
      play(state, [podDeleted('a', at(5))]);
      const late = [podObserved(aPod({ name: 'a', phase: 'Failed', exitCode: 1 }), at(6))];
      const restored = roundTrip(state);
      expect(play(restored, late)).toEqual(play(state, late));
      expect(jobStatus(restored)).toEqual(jobStatus(state));
    });
  });

  describe('When a FailJob match is waiting for the pods it asked for', () => {
    it('keeps the matching pod live, so the evidence still names its container', () => {
      const rules = [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }];
      const flat = aJob({ completions: 2, parallelism: 2, podFailurePolicy: { rules } });
      const { state } = given(flat, tick(at(0)), podObserved(aPod({ name: 'a', phase: 'Failed', exitCode: 42 }), at(1)), tick(at(2))).fold();
      expect(state.status.conditions).toEqual([]); // one created pod not seen yet: the outcome waits
      const rest = [tick(at(400))];
      const restored = roundTrip(state);
      expect(play(restored, rest)).toEqual(play(state, rest));
      expect(jobStatus(restored).conditions.map((c) => c.type)).toEqual(['FailureTarget', 'Failed']);
    });
  });

  describe('When a pod counted after the Job finished waits for an older observation (late-outcome.ts settleAfterFinish)', () => {
    // The success met at 30 s completes the Job; p0's failure at 60 s arrives next, counted
    // outside the final status; p0 running at 29 s, arriving last, moves it in, once.
    const indexed = anIndexedJob(2, { backoffLimit: 1, successPolicy: { rules: [{ succeededIndexes: '0,1', succeededCount: 1 }] } });
    const history = [
      podObserved(aPod({ name: 'p1', index: 1, phase: 'Succeeded', resourceVersion: '2' }), at(30)),
      tick(at(31)),
      podObserved(aPod({ name: 'p0', index: 0, phase: 'Failed', exitCode: 1, resourceVersion: '3' }), at(60)),
      tick(at(61)),
    ];
    const running = podObserved(aPod({ name: 'p0', index: 0, resourceVersion: '1' }), at(29));

    it('the archived pod keeps its mark: the running observation counts it after a round trip, as without one', () => {
      const { state } = given(indexed, ...history).fold();
      expect(takeSnapshot(state).archived.map((p) => [p.uid, p.finalCount])).toContainEqual(['p0', 'outside']);
      const restored = roundTrip(state);
      expect(play(restored, [running])).toEqual(play(state, [running]));
      expect(jobStatus(restored)).toEqual(jobStatus(state));
      expect(jobStatus(state)).toMatchObject({ succeeded: 1, failed: 1 });
    });

    it('a mark of a finish since taken back does not hold: the archived pod restored after the Job finished again counts once', () => {
      // p0's failure is counted outside the final status and p0 archived; q, running at 28 s,
      // arriving next, takes Complete back (the cluster waited for it); once q is gone the Job
      // completes again, its final status counting p0. p0's running observation, restored from
      // the archive only then (as the service restores pods: those a batch names), moves nothing.
      const { state } = given(indexed, ...history).fold();
      const { snapshot, archived } = takeSnapshot(state);
      expect(archived.map((p) => [p.uid, p.finalCount])).toContainEqual(['p0', 'outside']);
      const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)) as JobSnapshot);
      const reopened = [podObserved(aPod({ name: 'q', index: 0, resourceVersion: '0' }), at(28)), tick(at(62)), podDeleted('q', at(70)), tick(at(71))];
      play(restored, reopened);
      play(state, reopened);
      expect(jobStatus(restored).conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
      restoreArchived(restored, (JSON.parse(JSON.stringify(archived)) as typeof archived).filter((p) => p.uid === 'p0'));
      play(restored, [running]);
      play(state, [running]);
      expect(jobStatus(restored)).toEqual(jobStatus(state));
      expect(jobStatus(restored)).toMatchObject({ failed: 1 });
    });

    it('and counts it once: the running observation delivered again after a round trip changes nothing', () => {
      const { state } = given(indexed, ...history, running).fold();
      const again = [{ ...running, eventId: 'p0/running/again' }];
      const restored = roundTrip(state);
      play(restored, again);
      expect(jobStatus(restored)).toMatchObject({ succeeded: 1, failed: 1 });
    });
  });

  describe('When a Job suspended on a view lacking an earlier success is snapshotted', () => {
    // reordered-deliveries.spec.ts: the success met before the suspension takes Suspended back on
    // arrival. The instant of the suspension must survive the round trip for that.
    const suspendable = anIndexedJob(2, { successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    const versioned = (job: typeof suspendable, rv: string, when: string) => {
      const observed = jobObserved(job, when);
      return { ...observed, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
    };
    const created = versioned(suspendable, '1', at(0));
    const suspended = versioned(withSpec(suspendable, { suspend: true }), '3', at(400));
    const success = [podObserved(aPod({ name: 'a', index: 0, phase: 'Succeeded', finishedAt: at(0), resourceVersion: '2' }), at(1)), tick(at(900))];

    it('takes the suspension back after a round trip, as without one', () => {
      const { state } = given(null, created, suspended, tick(at(401))).fold();
      expect(jobStatus(state).conditions.map((c) => c.type)).toEqual(['Suspended']);
      const restored = roundTrip(state);
      play(restored, success);
      play(state, success);
      expect(jobStatus(restored)).toEqual(jobStatus(state));
      expect(jobStatus(restored).conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
    });
  });

  describe('When a Job finished before the suspension that came first arrived is snapshotted', () => {
    // reordered-deliveries.spec.ts, a Job jobfold runs: the older suspended observation writes
    // Suspended before the outcome, True or, resumed before the success, False. Whether it was
    // resumed by then (the spec over the cluster's clock) and that the suspension was read late
    // must survive the round trip for that.
    const managed = anIndexedJob(2, { managedBy: 'jobfold.io/job-controller', successPolicy: { rules: [{ succeededIndexes: '0' }] } });
    const versioned = (suspend: boolean, rv: string, when: string) => {
      const observed = jobObserved(withSpec(managed, { suspend }), when);
      return { ...observed, job: { ...observed.job, metadata: { ...observed.job.metadata, resourceVersion: rv } } };
    };
    const success = podObserved(aPod({ name: 'a', index: 0, phase: 'Succeeded', finishedAt: at(440), resourceVersion: '3' }), at(450));

    it('writes the flip to False after a round trip, as without one', () => {
      const { state } = given(null, success, versioned(false, '4', at(420))).fold();
      const late = [versioned(true, '2', at(400)), tick(at(900))];
      const restored = roundTrip(state);
      play(restored, late);
      play(state, late);
      expect(jobStatus(restored)).toEqual(jobStatus(state));
      expect(jobStatus(restored).conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['Suspended=False', 'SuccessCriteriaMet=True', 'Complete=True']);
    });

    it('writes Suspended=True after a round trip that followed the late suspended observation', () => {
      const { state } = given(null, success, versioned(true, '4', at(460)), versioned(true, '2', at(400))).fold();
      const restored = roundTrip(state);
      play(restored, [tick(at(900))]);
      play(state, [tick(at(900))]);
      expect(jobStatus(restored)).toEqual(jobStatus(state));
      expect(jobStatus(restored).conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['Suspended=True', 'SuccessCriteriaMet=True', 'Complete=True']);
    });
  });

  describe('When a pod first seen long after the Job failed on the cluster is snapshotted before that failure arrives', () => {
    // pods-after-finish.spec.ts: the pod is neither waited for nor counted. When it was first
    // seen must survive the round trip for that.
    const failable = aJob({ backoffLimit: 0, parallelism: 2, completions: 2 });
    const later = podObserved(aPod({ name: 'b', resourceVersion: '3' }), at(400));
    const failure = [podObserved(aPod({ name: 'a', phase: 'Failed', exitCode: 1, resourceVersion: '2' }), at(0)), tick(at(401))];

    it('fails the Job at once after a round trip, as without one', () => {
      const { state } = given(null, later, jobObserved(failable, at(0)), tick(at(400))).fold();
      const restored = roundTrip(state);
      play(restored, failure);
      play(state, failure);
      expect(jobStatus(restored)).toEqual(jobStatus(state));
      expect(jobStatus(restored).conditions.map((c) => c.type)).toEqual(['FailureTarget', 'Failed']);
      expect(jobStatus(restored)).toMatchObject({ failed: 1, terminating: 0 });
    });
  });

  describe('When the snapshot is taken of a finished Job', () => {
    it('restores to the same finished status', () => {
      const done = [0, 1, 2, 3].map((index) => podObserved(aPod({ index, phase: 'Succeeded' }), at(1)));
      const { state } = given(anIndexedJob(4), ...done, tick(at(2))).fold();
      expect(jobStatus(state).conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
      expect(jobStatus(roundTrip(state))).toEqual(jobStatus(state));
    });
  });

  // Issue 21: a suspension read after the outcome is weighed against the earliest instant the
  // outcome can have happened (suspension-order.ts writeEarlierSuspension; criterion-instants.ts
  // 'earliest': upstream getFinishedTime, the container's finishedAt when before the pod was
  // seen). A counted pod was archived without its finishedAt: restored, it told 0, the outcome
  // looked met before the suspension, and a cold writer wrote no Suspended where the warm one did
  // (stored-orders property, managed history 19, delivery 7).
  it('an archived counted pod keeps the instant its containers finished', () => {
    // given p0 of a Job seen failed at 0:30, its container finished at 0:20, counted
    const { state } = given(aJob({ backoffLimit: 6 }), podObserved(aPod({ name: 'p0', phase: 'Failed', finishedAt: at(20) }), at(30))).fold();
    expect(state.pods.get('p0')).toMatchObject({ counted: 'failed', finishedAt: Date.parse(at(20)) });
    // when it is archived and restored
    const restored = roundTrip(state);
    // then it finished at 0:20 still
    expect(restored.pods.get('p0')?.finishedAt).toBe(Date.parse(at(20)));
  });

  // Issue 21: a later observation of an archived pod merges with its record (pod-record.ts); a
  // counted pod was archived without its index's failure count, and restored with 0, the merge
  // failed the index where the warm state did not (stored-orders property, counted history 25,
  // delivery 5).
  it('an archived counted pod keeps its index\'s failure count', () => {
    // given p1 of index 0 seen failed, its index's failure count 1, then without its finalizer: counted
    const job = anIndexedJob(1, { parallelism: 2, backoffLimitPerIndex: 2 });
    const p1 = { name: 'p1', index: 0, phase: 'Failed', failureCount: 1 } as const;
    const { state } = given(job, podObserved(aPod(p1), at(30)), podObserved(aPod({ ...p1, finalizer: false }), at(31))).fold();
    expect(state.pods.get('p1')).toMatchObject({ counted: 'failed', failureCount: 1 });
    // when it is archived and restored, then its failure count is 1 still
    expect(roundTrip(state).pods.get('p1')?.failureCount).toBe(1);
  });

  // Issue 21: a decision names its pods with the log position of their last change (evidence
  // `pods[].seq`, `tippedBy`); an archived pod was restored with 0, and a cold writer's
  // FailureTarget named it so where the warm writer named 12 (stored-orders property, seed 99,
  // cluster history 30).
  it('an archived counted pod keeps the log position of its last change', () => {
    // given p0 seen failed, then without its finalizer: counted, its record changed at a later position
    const p0 = { name: 'p0', phase: 'Failed' } as const;
    const { state } = given(aJob({ backoffLimit: 6 }), podObserved(aPod(p0), at(30)), podObserved(aPod({ ...p0, finalizer: false }), at(31))).fold();
    const lastSeq = state.pods.get('p0')?.lastSeq;
    expect(state.pods.get('p0')?.counted).toBe('failed');
    expect(lastSeq).toBeGreaterThan(0);
    // when it is archived and restored, then it names the same position
    expect(roundTrip(state).pods.get('p0')?.lastSeq).toBe(lastSeq);
  });
});
