import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { jobSetDecider } from '../../../shared/jobset/index.ts';
import { at, jobDeleted, jobFailed, jobReady, jobSetObserved, jobSucceeded } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for InOrder JobSets (shared/jobset/walk-evidence.ts): the cluster's walk of attempt 0
// completed (every Job ready by 0:15) before b-0 failed at 0:30, so upstream wrote
// StartupPolicyCompleted before RestartingJobSet. Counterexamples of
// test/property/jobset/corpus-orders.property.spec.ts (startup-policy__inorder-restart-reruns-
// startup-sequence), shrunk: the failure reaches the log before the JobSet, or before the
// snapshots that showed the Jobs ready (even after the second walk completed: then the condition
// the fold wrote after RestartingJobSet moves before it).

/** The snapshot with the resourceVersion the cluster gave it (KEP-5504): a later one is newer. */
const v = (version: number, observation: JobSetObservation): JobSetObservation =>
  observation.type === 'JobObserved'
    ? { ...observation, job: { ...observation.job, metadata: { ...observation.job.metadata, resourceVersion: String(version) } } }
    : observation;

const spec = jobSetObserved({
  replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }],
  startupPolicy: { startupPolicyOrder: 'InOrder' },
  failurePolicy: { maxRestarts: 1 },
});
const a0 = v(1, jobReady('a', 0, { seconds: 5 }));
const b0 = v(2, jobReady('b', 0, { seconds: 10 }));
const b1 = v(3, jobReady('b', 1, { seconds: 15 }));
const b0Failed = v(4, jobFailed('b', 0, { seconds: 30 }));
const deletions = [jobDeleted('a', 0, 35), jobDeleted('b', 0, 36), jobDeleted('b', 1, 37)];
const nextAttempt = [
  v(5, jobReady('a', 0, { seconds: 40, attempt: 1 })), v(6, jobReady('b', 0, { seconds: 45, attempt: 1 })), v(7, jobReady('b', 1, { seconds: 50, attempt: 1 })),
];
const inOrderConditions = conditionsOf(given(spec, a0, b0, b1, b0Failed, ...deletions, ...nextAttempt).whenSettled({ now: at(50) }).status);

describe('an InOrder JobSet whose walk completed before the failure that restarted it', () => {
  it('in order: the walk completed, then the restart, then the second walk', () => {
    expect(inOrderConditions.map((c) => `${c.type}=${c.status}`)).toEqual([
      'StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'RestartingJobSet=False',
    ]);
  });

  it('given the failure and the ready Jobs before the JobSet, when reconciled, then Completed is written before the restart', () => {
    const late = given(b0Failed, a0, b0, b1, spec).whenSettled({ now: at(30) });
    expect(late.state.restarts).toBe(1);
    const written = late.log.flatMap((e) => (e.type === 'JobSetConditionChanged' ? [`${e.condition.type}=${e.condition.status}`] : e.type === 'JobSetRestarted' ? ['restart'] : []));
    expect(written).toEqual(['StartupPolicyInProgress=True', 'StartupPolicyCompleted=True', 'restart', 'StartupPolicyInProgress=True']);
    const inOrderThen = given(spec, a0, b0, b1, b0Failed).whenSettled({ now: at(30) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrderThen.status));
    const rest = given(b0Failed, a0, b0, b1, spec, ...deletions, ...nextAttempt).whenSettled({ now: at(50) });
    expect(conditionsOf(rest.status)).toEqual(inOrderConditions);
  });

  it('given the restart decided before a-0 showed ready, when the second walk completes, then Completed goes before RestartingJobSet', () => {
    const late = given(spec, b0, b1, b0Failed, a0, ...deletions, ...nextAttempt).whenSettled({ now: at(50) });
    expect(late.state.restarts).toBe(1);
    expect(conditionsOf(late.status)).toEqual(inOrderConditions);
  });

  it('given the second walk completed before b-0\'s ready snapshot arrived, when it arrives, then Completed moves before RestartingJobSet', () => {
    const late = given(spec, a0, b1, b0Failed, ...deletions, ...nextAttempt, b0).whenSettled({ now: at(50) });
    expect(conditionsOf(late.status)).toEqual(inOrderConditions);
    const moves = late.log.filter((e) => e.type === 'JobSetConditionChanged' && e.movedBefore !== undefined);
    expect(moves).toEqual([expect.objectContaining({ condition: expect.objectContaining({ type: 'StartupPolicyCompleted', status: 'True' }), movedBefore: 'RestartingJobSet' })]);
  });

  it('given a Job seen only failed (never ready before), when restarted, then the walk did not complete before the failure', () => {
    const late = given(b0Failed, a0, b1, spec).whenSettled({ now: at(30) });
    expect(conditionsOf(late.status).map((c) => `${c.type}=${c.status}`)).toEqual(['StartupPolicyInProgress=True', 'RestartingJobSet=True']);
  });

  it('given a JobSet jobfold runs, when the failure came first, then its own walk stands', () => {
    const managed = jobSetObserved({
      replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }],
      startupPolicy: { startupPolicyOrder: 'InOrder' },
      failurePolicy: { maxRestarts: 1 },
      managedBy: 'jobfold.io/jobset-controller',
    });
    const late = given(b0Failed, a0, b0, b1, managed).whenSettled({ now: at(30) });
    expect(conditionsOf(late.status).map((c) => c.type)).not.toContain('StartupPolicyCompleted');
  });
});

// Counterexamples of test/property/jobset/generated-orders.property.spec.ts (generated JobSet
// histories), shrunk: the evidence that the walk completed reached the log only after the
// outcome it preceded on the cluster — the restart (history-35), or the JobSet's finish
// (histories 17, 20, 25, 55).
describe('an InOrder JobSet whose ready snapshots arrive after the outcome they preceded', () => {
  it('given b-1 seen failed before its ready snapshot, when that arrives after the restart, then Completed is written before RestartingJobSet and the new walk turns it False', () => {
    const b1Failed = v(4, jobFailed('b', 1, { seconds: 30 }));
    const newWalk = [v(5, jobReady('a', 0, { seconds: 40, attempt: 1 }))];
    const want = conditionsOf(given(spec, a0, b0, b1, b1Failed, ...newWalk).whenSettled({ now: at(50) }).status);
    expect(want.map((c) => `${c.type}=${c.status}`)).toEqual(['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False', 'RestartingJobSet=True']);
    const late = given(spec, a0, b0, b1Failed, ...newWalk, b1).whenSettled({ now: at(50) });
    expect(conditionsOf(late.status)).toEqual(want);
  });

  it('given the success that completed the JobSet before the ready snapshots, when they arrive, then Completed is written before the JobSet\'s Completed', () => {
    const success = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }], startupPolicy: { startupPolicyOrder: 'InOrder' }, successPolicy: { operator: 'Any' } });
    const b1Done = v(4, jobSucceeded('b', 1, { seconds: 30 }));
    const want = conditionsOf(given(success, a0, b0, b1, b1Done).whenSettled({ now: at(30) }).status);
    expect(want.map((c) => `${c.type}=${c.status}`)).toEqual(['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'Completed=True']);
    expect(conditionsOf(given(success, a0, b1Done, b0, b1).whenSettled({ now: at(30) }).status)).toEqual(want);
    expect(conditionsOf(given(b1Done, success, b1, b0, a0).whenSettled({ now: at(30) }).status)).toEqual(want);
  });

  it('given the failure that failed the JobSet before the ready snapshots, when they arrive, then Completed is written before Failed', () => {
    const noRestarts = jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 0 } });
    const b1Failed = v(4, jobFailed('b', 1, { seconds: 30 }));
    const want = conditionsOf(given(noRestarts, a0, b0, b1, b1Failed).whenSettled({ now: at(30) }).status);
    expect(want.map((c) => `${c.type}=${c.status}`)).toEqual(['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'Failed=True']);
    expect(conditionsOf(given(noRestarts, a0, b1Failed, b0, b1).whenSettled({ now: at(30) }).status)).toEqual(want);
  });

  it('given the success in the same second as the last ready snapshot, both without a comparable resourceVersion, when the success arrives first, then the walk is not placed before it (one pass: success first)', () => {
    const success = jobSetObserved({ replicatedJobs: [{ name: 'a' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, successPolicy: { operator: 'Any' } });
    expect(conditionsOf(given(success, jobSucceeded('a', 0, { seconds: 5 }), jobReady('a', 0, { seconds: 5 })).whenSettled({ now: at(5) }).status).map((c) => `${c.type}=${c.status}`)).toEqual(['StartupPolicyInProgress=True', 'Completed=True']);
  });

  it('given a stale ready snapshot that shows the walk completed earlier, when the writer judges it, then it is news (logged), not a stale snapshot', () => {
    const b1Failed = v(4, jobFailed('b', 1, { seconds: 30 }));
    const before = given(spec, a0, b0, b1Failed).whenSettled({ now: at(30) });
    expect(jobSetDecider().known(before.state, { ...b1, eventId: 'late-ready' })).toBeUndefined();
    expect(jobSetDecider().known(given(spec, a0, b0, b1, b1Failed).whenSettled({ now: at(30) }).state, { ...b1, eventId: 'again' })).toBe('stale');
  });
});

// Issue 21, the same-second class (generated JobSet histories, seed 21: one-pod history-25 and
// history-47, dependsOn history-33): the walk's last Job showed ready in the same second as the
// failure or success that finished the JobSet. The cluster reconciled the ready snapshot first (its
// resourceVersion is older: Jobs are one resource type, comparable since KEP-5504), completing the
// walk, so the fold orders the two snapshots of that second by version, not as one pass.
describe('an InOrder JobSet whose last Job showed ready in the same second as the finish', () => {
  const one = (extra: object) => jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, ...extra });
  const a = v(1, jobReady('a', 0, { seconds: 5 }));
  const bReady = v(2, jobReady('b', 0, { seconds: 20 }));
  const written = (status: Parameters<typeof conditionsOf>[0]) => conditionsOf(status).map((c) => `${c.type}=${c.status}`);
  /** The conditions in order (asserted), and those of every late order given, which must be the same. */
  const asInOrder = (inOrder: readonly JobSetObservation[], want: readonly string[], ...late: (readonly JobSetObservation[])[]) => {
    const conditions = conditionsOf(given(...inOrder).whenSettled({ now: at(20) }).status);
    expect(conditions.map((c) => `${c.type}=${c.status}`)).toEqual(want);
    for (const order of late) expect(conditionsOf(given(...order).whenSettled({ now: at(20) }).status)).toEqual(conditions);
  };

  it('given the failure at a newer resourceVersion than the ready snapshot, when the failure arrives first, then StartupPolicyCompleted is written before Failed, as in order', () => {
    const failing = one({ failurePolicy: { maxRestarts: 0 } });
    const bFailed = v(3, jobFailed('b', 0, { seconds: 20 }));
    asInOrder([failing, a, bReady, bFailed], ['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'Failed=True'], [failing, a, bFailed, bReady], [bFailed, failing, bReady, a]);
  });

  it('given the success at a newer resourceVersion than the ready snapshot, when the success arrives first, then StartupPolicyCompleted is written before Completed, as in order', () => {
    const succeeding = one({ successPolicy: { operator: 'All', targetReplicatedJobs: ['b'] } });
    const bDone = v(3, jobSucceeded('b', 0, { seconds: 20 }));
    asInOrder([succeeding, a, bReady, bDone], ['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'Completed=True'], [succeeding, a, bDone, bReady]);
  });

  it('given the failure that restarted the JobSet at a newer resourceVersion than the ready snapshot, when the ready snapshot arrives after the restart, then StartupPolicyCompleted goes before RestartingJobSet', () => {
    const restarting = one({ failurePolicy: { maxRestarts: 1 } });
    const bFailed = v(3, jobFailed('b', 0, { seconds: 20 }));
    asInOrder([restarting, a, bReady, bFailed], ['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False', 'RestartingJobSet=True'], [restarting, a, bFailed, bReady]);
  });

  it('given the Job shown ready only in the snapshot that shows it failed, when reconciled, then the walk did not complete first (one pass: the failure)', () => {
    const failing = one({ failurePolicy: { maxRestarts: 0 } });
    const bFailed = v(3, jobFailed('b', 0, { seconds: 20 }));
    expect(written(given(failing, bFailed, a).whenSettled({ now: at(20) }).status)).toEqual(['StartupPolicyInProgress=True', 'Failed=True']);
  });

  it('given the ready snapshot and the failure of the same second without comparable resourceVersions, when the failure arrives first, then the walk is not placed before it (one pass: failure first)', () => {
    const failing = one({ failurePolicy: { maxRestarts: 0 } });
    const late = given(failing, jobReady('a', 0, { seconds: 5 }), jobFailed('b', 0, { seconds: 20 }), jobReady('b', 0, { seconds: 20 })).whenSettled({ now: at(20) });
    expect(written(late.status)).toEqual(['StartupPolicyInProgress=True', 'Failed=True']);
  });
});
