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

// Generated JobSet histories (history-29): the running spec arrives after a restart the fold
// decided on the suspended one.
describe('an InOrder JobSet restarted and then suspended, its running spec arriving last', () => {
  const spec = { replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 1 } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 0 }));
  const started = v(2, jobObserved('a', 0, { seconds: 0, active: 1 }));
  const failed = v(3, jobFailed('a', 0, { seconds: 1 }));
  const suspended = v(4, jobSetObserved({ ...spec, suspend: true }, { seconds: 7 }));
  const order = (...observations: JobSetObservation[]) =>
    conditionsOf(given(...observations).whenSettled({ now: at(7) }).status).map((c) => `${c.type}=${c.status}`);

  it('in order: the walk\'s InProgress first, then the restart, then the suspension', () => {
    expect(order(created, started, failed, suspended)).toEqual(['StartupPolicyInProgress=True', 'RestartingJobSet=False', 'Suspended=True']);
  });

  it('given the failure and the suspended spec first, when the running spec arrives, then the walk it began is written first, as in order', () => {
    expect(order(failed, started, suspended, created)).toEqual(order(created, started, failed, suspended));
  });
});
