import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobFailed, jobObserved, jobReady, jobSetObserved, jobSucceeded, versioned as v } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets: an InOrder JobSet whose child Jobs reach the log before the JobSet, so
// that the fold's first look finds every replicated job already started (or the JobSet already
// decided). Upstream's walk creates (or, after a restart, recreates) the first replicated job's
// Jobs in a pass where they cannot be ready yet, and writes StartupPolicyInProgress True in that
// pass: the Jobs' existence says the cluster went through it. Counterexamples of
// test/property/jobset/corpus-orders.property.spec.ts (startup-policy__inorder-*), shrunk.

const inOrder = (more: Record<string, unknown> = {}) =>
  jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }], startupPolicy: { startupPolicyOrder: 'InOrder' }, ...more });
const allReady = [jobReady('a', 0, { seconds: 10 }), jobReady('b', 0, { seconds: 15 }), jobReady('b', 1, { seconds: 20 })];
const inProgress = { type: 'StartupPolicyInProgress', reason: 'InOrderStartupPolicyInProgress', message: 'in order startup policy is in progress' };
const startupCompleted = { type: 'StartupPolicyCompleted', status: 'True', reason: 'InOrderStartupPolicyCompleted', message: 'in order startup policy has completed' };

describe('an InOrder JobSet first seen after its Jobs started', () => {
  it('given every Job ready before the JobSet arrives, when reconciled, then the walk went through InProgress as in order', () => {
    const late = given(...allReady, inOrder()).whenSettled({ now: at(20) });
    const inOrderHistory = given(inOrder(), ...allReady).whenSettled({ now: at(20) });

    expect(conditionsOf(late.status)).toEqual([{ ...inProgress, status: 'False' }, startupCompleted]);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrderHistory.status));
    expect(late.commands).toEqual([]);
  });

  it('given the Jobs succeeded before the JobSet arrives, when reconciled, then InProgress True precedes Completed', () => {
    const succeeded = [jobSucceeded('a', 0, { seconds: 5 }), jobSucceeded('b', 0, { seconds: 10 }), jobSucceeded('b', 1, { seconds: 15 })];
    const late = given(...succeeded, inOrder()).whenSettled({ now: at(15) });
    expect(conditionsOf(late.status).map((c) => `${c.type}=${c.status}`)).toEqual(['StartupPolicyInProgress=True', 'Completed=True']);
  });

  it('given an AnyOrder or suspended JobSet, when its Jobs came first, then no startup condition is written', () => {
    const anyOrder = given(...allReady, jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }] })).whenSettled({ now: at(20) });
    expect(conditionsOf(anyOrder.status).map((c) => c.type)).not.toContain('StartupPolicyInProgress');
    const suspended = given(...allReady, inOrder({ suspend: true })).whenSettled({ now: at(20) });
    expect(conditionsOf(suspended.status).map((c) => c.type)).not.toContain('StartupPolicyInProgress');
  });
});

describe('an InOrder JobSet whose next attempt\'s Jobs are ready when the fold restarts it', () => {
  // startup-policy__inorder-restart-reruns-startup-sequence: a-0 fails, the restart recreates
  // the Jobs; here the attempt-1 Jobs arrive, all ready, before the attempt-0 failure.
  const spec = inOrder({ failurePolicy: { maxRestarts: 1 } });
  const firstWalk = [jobReady('a', 0, { seconds: 5 }), jobReady('b', 0, { seconds: 6 }), jobReady('b', 1, { seconds: 7 })];
  const nextAttempt = [jobReady('a', 0, { seconds: 30, attempt: 1 }), jobReady('b', 0, { seconds: 31, attempt: 1 }), jobReady('b', 1, { seconds: 32, attempt: 1 })];

  it('given the restart, when its walk finds every replicated job started, then it went through InProgress again', () => {
    const late = given(spec, ...firstWalk, ...nextAttempt, jobFailed('a', 0, { seconds: 10 })).whenSettled({ now: at(32) });
    expect(late.state.restarts).toBe(1);
    const startup = late.log.filter((e) => e.type === 'JobSetConditionChanged' && e.condition.type === 'StartupPolicyInProgress').length;
    expect(startup).toBe(2);
    expect(conditionsOf(late.status)).toContainEqual(startupCompleted);
  });
});

// Generated JobSet histories: an InOrder JobSet of two replicated jobs whose first Job fails once
// (restarted), then is suspended (and resumed), its first, running spec arriving last.
const restartable = { replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 1 } };
const walkThenRestart = (startedAt: number, failedAt: number) => ({
  created: v(1, jobSetObserved({ ...restartable, suspend: false }, { seconds: startedAt })),
  started: v(2, jobObserved('a', 0, { seconds: startedAt, active: 1 })),
  failed: v(3, jobFailed('a', 0, { seconds: failedAt })),
});
const conditionsAt = (now: number, ...observations: JobSetObservation[]) =>
  conditionsOf(given(...observations).whenSettled({ now: at(now) }).status).map((c) => `${c.type}=${c.status}`);

// history-29: the running spec arrives after a restart the fold decided on the suspended one.
describe('an InOrder JobSet restarted and then suspended, its running spec arriving last', () => {
  const { created, started, failed } = walkThenRestart(0, 1);
  const suspended = v(4, jobSetObserved({ ...restartable, suspend: true }, { seconds: 7 }));

  it('in order: the walk\'s InProgress first, then the restart, then the suspension', () => {
    expect(conditionsAt(7, created, started, failed, suspended)).toEqual(['StartupPolicyInProgress=True', 'RestartingJobSet=False', 'Suspended=True']);
  });

  it('given the failure and the suspended spec first, when the running spec arrives, then the walk it began is written first, as in order', () => {
    expect(conditionsAt(7, failed, started, suspended, created)).toEqual(conditionsAt(7, created, started, failed, suspended));
  });
});

// history-11: the resumed spec, taken after the restart, began a walk the fold wrote after
// RestartingJobSet before the running spec showed the first walk.
describe('an InOrder JobSet restarted, suspended and resumed, its first running spec arriving last', () => {
  const { created, started, failed } = walkThenRestart(5, 10);
  const suspended = v(4, jobSetObserved({ ...restartable, suspend: true }, { seconds: 100 }));
  const resumed = v(5, jobSetObserved({ ...restartable, suspend: false }, { seconds: 100 }));

  it('in order: the first walk\'s InProgress before the restart\'s RestartingJobSet', () => {
    expect(conditionsAt(100, created, started, failed, suspended, resumed)[0]).toBe('StartupPolicyInProgress=True');
  });

  it('given the failure and the later specs first, when the first running spec arrives, then InProgress moves before RestartingJobSet, as in order', () => {
    expect(conditionsAt(100, failed, suspended, resumed, created, started)).toEqual(conditionsAt(100, created, started, failed, suspended, resumed));
  });
});

// history-21: the suspension's observation arrives after the finish, the first running spec last;
// the walk had begun before the suspension on the cluster, as its Job older than it shows.
describe('an InOrder JobSet suspended midway, resumed and completed, its suspended observation arriving after the finish', () => {
  const spec = { replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, successPolicy: { operator: 'Any', targetReplicatedJobs: ['a'] } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 5 }));
  const started = v(2, jobObserved('a', 0, { seconds: 5, active: 1 }));
  const suspended = v(3, jobSetObserved({ ...spec, suspend: true }, { seconds: 35 }));
  const resumed = v(4, jobSetObserved({ ...spec, suspend: false }, { seconds: 36 }));
  const done = v(5, jobSucceeded('a', 0, { seconds: 37 }));

  it('in order: the walk\'s InProgress before Suspended', () => {
    expect(conditionsAt(37, created, started, suspended, resumed, done).slice(0, 2)).toEqual(['StartupPolicyInProgress=True', 'Suspended=True']);
  });

  it('given the resumed spec and the Job first, when the suspension arrives after the finish, then Suspended goes after the walk\'s InProgress, as in order', () => {
    expect(conditionsAt(37, resumed, started, done, suspended, created)).toEqual(conditionsAt(37, created, started, suspended, resumed, done));
  });
});

// Multi-pod generated histories (history-47): a walk that completed in the same second as the
// suspension, resumed since and walking again, the suspended observation arriving late.
describe('an InOrder JobSet whose walk completed in the second it was suspended, resumed later', () => {
  const spec = { replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 0 }));
  const aReady = v(2, jobReady('a', 0, { seconds: 5 }));
  const bReady = v(3, jobReady('b', 0, { seconds: 10 }));
  const suspended = v(4, jobSetObserved({ ...spec, suspend: true }, { seconds: 10 }));
  const aSuspended = v(5, jobObserved('a', 0, { seconds: 40, suspend: true }));
  const resumed = v(6, jobSetObserved({ ...spec, suspend: false }, { seconds: 165 }));
  const inOrder = [created, aReady, bReady, suspended, aSuspended, resumed];

  it('in order: StartupPolicyCompleted (written in the pass before the suspension\'s) before Suspended', () => {
    const conditions = conditionsAt(165, ...inOrder);
    expect(conditions.indexOf('StartupPolicyCompleted=False')).toBeLessThan(conditions.indexOf('Suspended=True'));
  });

  it('given the resumed spec first and the suspension late, when reconciled, then Suspended goes after the completed walk, as in order', () => {
    expect(conditionsAt(165, aReady, bReady, resumed, aSuspended, suspended, created)).toEqual(conditionsAt(165, ...inOrder));
  });
});
