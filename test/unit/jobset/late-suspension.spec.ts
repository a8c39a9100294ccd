import { describe, expect, it } from 'vitest';
import { knownJobSetObservation, type JobSetLogObservation } from '../../../shared/jobset/decider.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { isJobSetDecisionType, type JobSetDecisionEvent } from '../../../shared/jobset/decision-events.ts';
import type { JobSetEvent } from '../../../shared/jobset/events.ts';
import { explainJobSet } from '../../../shared/jobset/explain.ts';
import { evolve } from '../../../shared/jobset/evolve.ts';
import { settle } from '../../../shared/jobset/settle.ts';
import { initialState } from '../../../shared/jobset/state.ts';
import { jobSetStatus } from '../../../shared/jobset/status.ts';
import { at, jobFailed, jobReady, jobSetObserved } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets: a JobSet created (or put) suspended and resumed, whose suspended
// observation reaches the log after the resumed one. The older observation changes no spec, but
// it says the cluster's controller reconciled the JobSet suspended then and wrote `Suspended`
// True; once resumed it turned it False / ResumeJobs. Counterexamples of
// test/property/jobset/corpus-orders.property.spec.ts
// (startup-policy__inorder-resume-unsuspends-replicated-jobs-in-order), shrunk.

const versioned = (observation: JobSetObservation, resourceVersion: string): JobSetObservation => {
  if (observation.type !== 'JobSetObserved') throw new Error('a JobSet observation');
  return { ...observation, jobSet: { ...observation.jobSet, metadata: { ...observation.jobSet.metadata, resourceVersion } } };
};

const spec = (suspend: boolean, more: Record<string, unknown> = {}) => ({
  replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 2 }],
  startupPolicy: { startupPolicyOrder: 'InOrder' },
  suspend,
  ...more,
});
const suspended = versioned(jobSetObserved(spec(true), { seconds: 0 }), '1');
const resumed = versioned(jobSetObserved(spec(false), { seconds: 5 }), '2');
const running = [jobReady('a', 0, { seconds: 10 }), jobReady('b', 0, { seconds: 15 }), jobReady('b', 1, { seconds: 20 })];

const resumedCondition = { type: 'Suspended', status: 'False', reason: 'ResumeJobs', message: 'jobset is resumed' };

describe('a suspended JobSet observation that arrives after the resumed one', () => {
  it('given the JobSet resumed and started, when its suspended observation arrives, then Suspended is False / ResumeJobs in its place as in order', () => {
    const late = given(resumed, ...running, suspended).whenSettled({ now: at(20) });
    const inOrder = given(suspended, resumed, ...running).whenSettled({ now: at(20) });

    expect(conditionsOf(late.status)[0]).toEqual(resumedCondition);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
    expect(late.commands).toEqual([]);
  });

  it('given it arrives while the InOrder walk is still going, when settled, then Suspended is True as in order (upstream leaves it so until the walk completes), and False / ResumeJobs once every replicated job started', () => {
    const early = given(resumed, suspended).whenSettled({ now: at(5) });
    expect(conditionsOf(early.status)).toEqual(conditionsOf(given(suspended, resumed).whenSettled({ now: at(5) }).status));
    expect(conditionsOf(early.status).find((c) => c.type === 'Suspended')?.status).toBe('True');
    const started = given(resumed, suspended, ...running).whenSettled({ now: at(20) });
    expect(conditionsOf(started.status)[0]).toEqual(resumedCondition);
  });

  it('given a stale observation the fold holds already, when the writer judges it, then it is dropped; one that shows the suspension, the walk begun before, or any version not seen (the JobSet timeline), is logged', () => {
    const { state } = given(resumed);
    const log = (o: JobSetObservation): JobSetLogObservation => ({ ...o, eventId: `e-${o.at}` }) as JobSetLogObservation;
    expect(knownJobSetObservation(state, log(suspended))).toBeUndefined();
    const between = versioned(jobSetObserved(spec(false), { seconds: 6 }), '3');
    const { state: twice } = given(resumed, versioned(jobSetObserved(spec(false), { seconds: 8 }), '4'));
    expect(knownJobSetObservation(twice, log(between))).toBeUndefined();
    const { state: thrice } = given(resumed, versioned(jobSetObserved(spec(false), { seconds: 8 }), '4'), between);
    expect(knownJobSetObservation(thrice, { ...log(between), eventId: 'e-again' } as JobSetLogObservation)).toBe('stale');
    // Running InOrder before every spec the fold took: the walk began on it (its place among the conditions).
    expect(knownJobSetObservation(state, log(versioned(jobSetObserved(spec(false), { seconds: 0 }), '1')))).toBeUndefined();
    const { state: noted } = given(resumed, suspended);
    expect(knownJobSetObservation(noted, log(versioned(jobSetObserved(spec(true), { seconds: 1 }), '1')))).toBe('stale');
  });

  it('given a JobSet jobfold runs, when its suspended observation arrives late, then no Suspended condition is written (jobfold never suspended it)', () => {
    const managed = { managedBy: 'jobfold.io/jobset-controller' };
    const late = given(
      versioned(jobSetObserved(spec(false, managed), { seconds: 5 }), '2'), ...running,
      versioned(jobSetObserved(spec(true, managed), { seconds: 0 }), '1'),
    ).whenSettled({ now: at(20) });
    expect(conditionsOf(late.status).map((c) => c.type)).not.toContain('Suspended');
  });
});

describe('child Jobs seen running after the JobSet was seen suspended, arriving before the suspension', () => {
  // startup-policy__inorder-resume-unsuspends-replicated-jobs-in-order: the resumed Jobs' snapshots
  // (10–20 s) reach the log before both JobSet observations (suspended at 0 s, resumed at 5 s).

  it('given Jobs the cluster showed running after the suspension, when the suspended JobSet arrives, then the fold does not suspend them again', () => {
    const early = given(...running, suspended).whenSettled({ now: at(0) });
    expect(early.commands.filter((c) => c.type === 'SuspendJob')).toEqual([]);
    expect(conditionsOf(early.status).map((c) => c.type)).toContain('Suspended');
  });

  it('given the resumed JobSet arrives last, when settled, then every Job counts running, as in order', () => {
    const late = given(...running, suspended, resumed).whenSettled({ now: at(20) });
    const inOrder = given(suspended, resumed, ...running).whenSettled({ now: at(20) });

    expect(late.status.replicatedJobsStatus.map((s) => s.suspended)).toEqual([0, 0]);
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given a Job seen running before the suspension (or in its second), when the suspended JobSet arrives, then it is suspended', () => {
    const before = given(jobReady('a', 0, { seconds: 0 }), versioned(jobSetObserved(spec(true), { seconds: 0 }), '1')).whenSettled({ now: at(0) });
    expect(before.commands.filter((c) => c.type === 'SuspendJob').map((c) => c.name)).toEqual(['js-a-0']);
  });

  it('given a JobSet jobfold runs, when it is seen suspended after its Jobs ran, then jobfold suspends them (its own command is what suspends them)', () => {
    const managed = versioned(jobSetObserved(spec(true, { managedBy: 'jobfold.io/jobset-controller' }), { seconds: 0 }), '1');
    const { commands } = given(...running, managed).whenSettled({ now: at(0) });
    expect(commands.filter((c) => c.type === 'SuspendJob').map((c) => c.name)).toEqual(['js-a-0', 'js-b-0', 'js-b-1']);
  });
});

describe('a suspended observation arriving late, from the same second as the resumed one', () => {
  // startup-policy__inorder-resume-unsuspends-replicated-jobs-in-order: created suspended and
  // resumed in one second; the resumed spec and the Jobs arrive first. The time cannot say that
  // StartupPolicyInProgress (written on the resumed spec) came after Suspended; the versions can.
  const suspendedAt5 = versioned(jobSetObserved(spec(true), { seconds: 5 }), '1');
  const resumedAt5 = versioned(jobSetObserved(spec(false), { seconds: 5 }), '2');

  it('given the fold wrote conditions only on the newer resumed spec, when the suspension arrives, then Suspended takes the first place, as in order', () => {
    const late = given(resumedAt5, ...running, suspendedAt5).whenSettled({ now: at(20) });
    const inOrder = given(suspendedAt5, resumedAt5, ...running).whenSettled({ now: at(20) });

    expect(conditionsOf(late.status)[0]).toEqual(resumedCondition);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given the fold wrote StartupPolicyInProgress on an older running spec first, when the suspension arrives, then Suspended goes after it', () => {
    const created = versioned(jobSetObserved(spec(false), { seconds: 5 }), '1');
    const suspendedMidway = versioned(jobSetObserved(spec(true), { seconds: 5 }), '2');
    const resumedLater = versioned(jobSetObserved(spec(false), { seconds: 10 }), '3');
    const late = given(created, resumedLater, ...running, suspendedMidway).whenSettled({ now: at(20) });
    expect(conditionsOf(late.status).map((c) => c.type)).toEqual(['StartupPolicyInProgress', 'Suspended', 'StartupPolicyCompleted']);
  });
});

describe('a JobSet suspended midway whose running observation arrives after the suspension', () => {
  // startup-policy__inorder-suspend-midway-creates-remaining-jobs-suspended: created running InOrder
  // (the walk writes StartupPolicyInProgress), suspended in the same second, resumed later.
  const created = versioned(jobSetObserved(spec(false), { seconds: 5 }), '1');
  const suspendedMidway = versioned(jobSetObserved(spec(true), { seconds: 5 }), '2');
  const resumedLater = versioned(jobSetObserved(spec(false), { seconds: 10 }), '3');
  const order = ['StartupPolicyInProgress', 'Suspended', 'StartupPolicyCompleted'];

  it('given the suspension is seen first and the created JobSet after it, when resumed, then StartupPolicyInProgress comes first, as in order', () => {
    const late = given(suspendedMidway, created, resumedLater, ...running).whenSettled({ now: at(20) });
    const inOrder = given(created, suspendedMidway, resumedLater, ...running).whenSettled({ now: at(20) });
    expect(conditionsOf(late.status).map((c) => c.type)).toEqual(order);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given the resumed spec first, then the created one, then the suspension, when settled, then Suspended goes after the walk\'s InProgress', () => {
    const late = given(resumedLater, created, ...running, suspendedMidway).whenSettled({ now: at(20) });
    expect(conditionsOf(late.status).map((c) => c.type)).toEqual(order);
  });
});

describe('a JobSet running InOrder, suspended midway and resumed, whose suspended observation arrives last', () => {
  // startup-policy__inorder-suspend-midway-creates-remaining-jobs-suspended, the property's first
  // wrong order: v1 running InOrder (created at 0:05; the walk begins: StartupPolicyInProgress),
  // v2 suspended (0:05), v3 resumed (0:10), Jobs ready from 0:15. Delivered b-1, a-0, b-0, v1, v3,
  // v2, b-2: the fold places the late Suspended before the InProgress it wrote on v1.
  const midway = (suspend: boolean) => spec(suspend, { replicatedJobs: [{ name: 'a' }, { name: 'b', replicas: 3 }] });
  const v1 = versioned(jobSetObserved(midway(false), { seconds: 5 }), '1');
  const v2 = versioned(jobSetObserved(midway(true), { seconds: 5 }), '2');
  const v3 = versioned(jobSetObserved(midway(false), { seconds: 10 }), '3');
  const a0 = jobReady('a', 0, { seconds: 15 });
  const b0 = jobReady('b', 0, { seconds: 20 });
  const b1 = jobReady('b', 1, { seconds: 25 });
  const b2 = jobReady('b', 2, { seconds: 30 });
  const inOrder = given(v1, v2, v3, a0, b0, b1, b2).whenSettled({ now: at(30) });
  /** As the writer delivers them: each folded, then settled at the newest time delivered so far (a platform clock never behind what arrived). */
  const delivered = (...observations: JobSetObservation[]) => {
    let state = initialState();
    let clock = '';
    const log: JobSetEvent[] = [];
    for (const observation of observations) {
      state = evolve(state, observation);
      if (observation.at > clock) clock = observation.at;
      const settled = settle(state, clock);
      state = settled.state;
      log.push(observation, ...settled.events);
    }
    return { state, log, status: jobSetStatus(state) };
  };
  const moves = (log: readonly { type: string }[]) => log.filter((e) => e.type === 'JobSetConditionChanged' && 'movedBefore' in e && e.movedBefore !== undefined);

  it('in order: the walk began first, then the suspension, then the walk completed', () => {
    expect(conditionsOf(inOrder.status).map((c) => c.type)).toEqual(['StartupPolicyInProgress', 'Suspended', 'StartupPolicyCompleted']);
    expect(moves(inOrder.log)).toEqual([]);
  });

  it('given v2 after v3, when settled, then InProgress moves before Suspended (a logged move, no condition changed) and the end is as in order', () => {
    const late = delivered(b1, a0, b0, v1, v3, v2, b2);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(moves(late.log)).toEqual([expect.objectContaining({ condition: expect.objectContaining({ type: 'StartupPolicyInProgress' }), movedBefore: 'Suspended' })]);
    // The move is explained as one, and is not the decision behind the condition it moved.
    const decisions = late.log.flatMap((event, i) => (isJobSetDecisionType(event.type) ? [{ seq: i + 1, event: event as JobSetDecisionEvent }] : []));
    const explained = explainJobSet(late.state, decisions);
    const move = explained.events.find((e) => e.type === 'JobSetConditionChanged' && 'movedBefore' in e.decision && e.decision.movedBefore !== undefined);
    expect(move?.sentence).toMatch(/^StartupPolicyInProgress moved before Suspended: the cluster wrote it first/);
    expect(explained.conditions.find((c) => c.type === 'StartupPolicyInProgress')?.decidedBy).not.toBe(move?.seq);
  });

  it('given a JobSet jobfold runs, then nothing is moved', () => {
    const managed = (suspend: boolean, seconds: number, version: string) =>
      versioned(jobSetObserved({ ...midway(suspend), managedBy: 'jobfold.io/jobset-controller' }, { seconds }), version);
    const late = delivered(b1, a0, b0, managed(false, 5, '1'), managed(false, 10, '3'), managed(true, 5, '2'), b2);
    expect(moves(late.log)).toEqual([]);
  });
});

// Generated JobSet histories (history-7): the resumption between two suspensions arrives last,
// older than the suspension after the finish that the fold holds.
describe('a JobSet suspended, resumed, failed and suspended again, its resumed observation arriving last', () => {
  const one = { replicatedJobs: [{ name: 'w' }], failurePolicy: { maxRestarts: 0 } };
  const created = versioned(jobSetObserved({ ...one, suspend: false }, { seconds: 0 }), '1');
  const suspendedFirst = versioned(jobSetObserved({ ...one, suspend: true }, { seconds: 6 }), '2');
  const resumedBetween = versioned(jobSetObserved({ ...one, suspend: false }, { seconds: 11 }), '3');
  const failed = jobFailed('w', 0, { seconds: 47 });
  const suspendedAfter = versioned(jobSetObserved({ ...one, suspend: true }, { seconds: 120 }), '5');
  const inOrder = [created, suspendedFirst, resumedBetween, failed, suspendedAfter];
  const conditionsIn = (...observations: JobSetObservation[]) => conditionsOf(given(...observations).whenSettled({ now: at(120) }).status);

  it('in order: the JobSet failed running, Suspended False / ResumeJobs', () => {
    expect(conditionsIn(...inOrder)[0]).toEqual(resumedCondition);
  });

  it('given the resumption after the later suspension, when the writer judges it, then it is news, and the fold ends as in order', () => {
    const { state } = given(suspendedFirst, failed, suspendedAfter);
    expect(knownJobSetObservation(state, { ...resumedBetween, eventId: 'e-resumed' } as JobSetLogObservation)).toBeUndefined();
    expect(conditionsIn(suspendedFirst, failed, suspendedAfter, resumedBetween, created)).toEqual(conditionsIn(...inOrder));
  });
});
