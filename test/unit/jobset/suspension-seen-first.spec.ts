import { describe, expect, it } from 'vitest';
import { isJobSetDecisionType, type JobSetDecisionEvent } from '../../../shared/jobset/decision-events.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { explainJobSet } from '../../../shared/jobset/explain.ts';
import { jobSetDecider, type JobSetLogObservation } from '../../../shared/jobset/index.ts';
import { at, jobFailed, jobObserved, jobSetObserved, jobSucceeded, versioned as v } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets: what the cluster's controller did on a JobSet spec reaches the log before
// the spec. Counterexamples of test/property/jobset/generated-orders.property.spec.ts (generated
// JobSet histories with suspensions), shrunk.

const suspendedCondition = { type: 'Suspended', status: 'True', reason: 'SuspendedJobs', message: 'jobset is suspended' };

describe('a child Job shown suspended before the JobSet spec that suspended it', () => {
  const created = v(1, jobSetObserved({ replicatedJobs: [{ name: 'w', replicas: 2 }], suspend: false }, { seconds: 1 }));
  const suspended = v(2, jobSetObserved({ replicatedJobs: [{ name: 'w', replicas: 2 }], suspend: true }, { seconds: 1 }));
  const shownSuspended = (index: number, version: number, seconds: number) =>
    v(version, jobObserved('w', index, { seconds, suspend: true, conditions: [{ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' }] }));
  const w0 = shownSuspended(0, 3, 83);
  const w1 = shownSuspended(1, 4, 84);

  it('in order: the JobSet is suspended and both Jobs are', () => {
    const inOrder = given(created, suspended, w0, w1).whenSettled({ now: at(84) });
    expect(conditionsOf(inOrder.status)).toEqual([suspendedCondition]);
    expect(inOrder.status.replicatedJobsStatus[0]).toMatchObject({ active: 0, suspended: 2 });
  });

  it('given w-1 seen suspended before the JobSet, and the suspended spec last, when reconciled, then the fold suspends what it had resumed on the older spec', () => {
    const late = given(w1, created, w0, suspended).whenSettled({ now: at(84) });
    expect(conditionsOf(late.status)).toEqual([suspendedCondition]);
    expect(late.status.replicatedJobsStatus[0]).toMatchObject({ active: 0, suspended: 2 });
  });
});

describe('an InOrder JobSet whose first, running spec arrives after its suspended one', () => {
  const created = v(1, jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, suspend: false }, { seconds: 1 }));
  const suspended = v(2, jobSetObserved({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, suspend: true }, { seconds: 1 }));

  it('given the suspended spec first, when the running one arrives, then the walk it began is written before Suspended, as in order', () => {
    const inOrder = conditionsOf(given(created, suspended).whenSettled({ now: at(1) }).status);
    expect(inOrder.map((c) => `${c.type}=${c.status}`)).toEqual(['StartupPolicyInProgress=True', 'Suspended=True']);
    expect(conditionsOf(given(suspended, created).whenSettled({ now: at(1) }).status)).toEqual(inOrder);
  });

  it('given only the suspended spec, when reconciled, then no walk is written (the cluster may never have run it)', () => {
    expect(conditionsOf(given(suspended).whenSettled({ now: at(1) }).status).map((c) => c.type)).toEqual(['Suspended']);
  });
});

describe('a JobSet suspended after it finished on the cluster, the suspension arriving first', () => {
  const created = v(1, jobSetObserved({ replicatedJobs: [{ name: 'w' }], suspend: false }, { seconds: 1 }));
  const suspended = v(3, jobSetObserved({ replicatedJobs: [{ name: 'w' }], suspend: true }, { seconds: 40 }));
  const done = v(2, jobSucceeded('w', 0, { seconds: 30 }));

  it('in order: Completed, and no Suspended (a finished JobSet ignores the suspension)', () => {
    expect(conditionsOf(given(created, done, suspended).whenSettled({ now: at(40) }).status).map((c) => c.type)).toEqual(['Completed']);
  });

  it('given the suspension before the success, when the success arrives, then Suspended is taken back by a correction naming the finish', () => {
    const late = given(created, suspended, done).whenSettled({ now: at(40) });
    expect(conditionsOf(late.status).map((c) => c.type)).toEqual(['Completed']);
    const correction = late.log.find((e) => e.type === 'JobSetOutcomeCorrected');
    expect(correction).toMatchObject({ retracted: [expect.objectContaining({ type: 'Suspended', status: 'True' })], retractedMetAt: at(40), evidence: { metAt: at(30) } });
    const decisions = late.log.flatMap((event, i) => (isJobSetDecisionType(event.type) ? [{ seq: i + 1, event: event as JobSetDecisionEvent }] : []));
    const sentence = explainJobSet(late.state, decisions).events.find((e) => e.type === 'JobSetOutcomeCorrected')?.sentence;
    expect(sentence).toBe(`Corrected: took back Suspended (SuspendedJobs): the finish that came first on the cluster's clock (${at(30)}) arrived after the suspension, which a finished JobSet ignores; the cluster decided AllJobsCompleted instead, event #6`);
  });

  it('given a Job the fold suspended for that suspension, when the suspension is taken back, then the Job counts as the cluster has it', () => {
    const two = { replicatedJobs: [{ name: 'w', replicas: 2 }], successPolicy: { operator: 'Any' } };
    const created2 = v(1, jobSetObserved({ ...two, suspend: false }, { seconds: 1 }));
    const suspended2 = v(4, jobSetObserved({ ...two, suspend: true }, { seconds: 40 }));
    const w1 = v(3, jobObserved('w', 1, { seconds: 10, active: 1, ready: 1 }));
    const inOrder = given(created2, w1, done, suspended2).whenSettled({ now: at(40) });
    const late = given(created2, w1, suspended2, done).whenSettled({ now: at(40) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
  });

  it('given a suspension before the finish on the cluster\'s clock, when the finish arrives, then Suspended stands', () => {
    const early = v(3, jobSetObserved({ replicatedJobs: [{ name: 'w' }], suspend: true }, { seconds: 20 }));
    expect(conditionsOf(given(created, early, done).whenSettled({ now: at(30) }).status).map((c) => c.type)).toEqual(['Suspended', 'Completed']);
  });
});

describe('a JobSet suspended and resumed before it finished, the suspension seen only after the finish', () => {
  const created = v(1, jobSetObserved({ replicatedJobs: [{ name: 'w' }], suspend: false }, { seconds: 1 }));
  const suspended = v(2, jobSetObserved({ replicatedJobs: [{ name: 'w' }], suspend: true }, { seconds: 10 }));
  const resumed = v(3, jobSetObserved({ replicatedJobs: [{ name: 'w' }], suspend: false }, { seconds: 20 }));
  const done = v(4, jobSucceeded('w', 0, { seconds: 30 }));

  it('given the finish before the suspended observation, when it arrives, then Suspended is False / ResumeJobs before Completed, as in order', () => {
    const inOrder = conditionsOf(given(created, suspended, resumed, done).whenSettled({ now: at(30) }).status);
    expect(inOrder.map((c) => `${c.type}=${c.status}`)).toEqual(['Suspended=False', 'Completed=True']);
    expect(conditionsOf(given(created, resumed, done, suspended).whenSettled({ now: at(30) }).status)).toEqual(inOrder);
  });

  it('given the resumption after the finish, when the suspension arrives after the finish, then Suspended stays True (a finished JobSet ignores the resumption)', () => {
    const resumedLate = v(5, jobSetObserved({ replicatedJobs: [{ name: 'w' }], suspend: false }, { seconds: 40 }));
    const suspendedEarly = v(2, jobSetObserved({ replicatedJobs: [{ name: 'w' }], suspend: true }, { seconds: 25 }));
    const doneWhileSuspended = v(4, jobSucceeded('w', 0, { seconds: 30 }));
    const inOrder = conditionsOf(given(created, suspendedEarly, doneWhileSuspended, resumedLate).whenSettled({ now: at(40) }).status);
    expect(inOrder.map((c) => `${c.type}=${c.status}`)).toEqual(['Suspended=True', 'Completed=True']);
    expect(conditionsOf(given(created, resumedLate, doneWhileSuspended, suspendedEarly).whenSettled({ now: at(40) }).status)).toEqual(inOrder);
  });
});

describe('a restart and a suspension that reach the fold in the other order', () => {
  const spec = { replicatedJobs: [{ name: 'w' }], failurePolicy: { maxRestarts: 1 } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 0 }));
  const failed = v(2, jobFailed('w', 0, { seconds: 1 }));
  const suspended = v(3, jobSetObserved({ ...spec, suspend: true }, { seconds: 7 }));

  it('given the suspension before the failure that came first, when the restart is decided, then RestartingJobSet goes before Suspended, as in order', () => {
    const inOrder = conditionsOf(given(created, failed, suspended).whenSettled({ now: at(7) }).status);
    expect(inOrder.map((c) => c.type)).toEqual(['RestartingJobSet', 'Suspended']);
    expect(conditionsOf(given(created, suspended, failed).whenSettled({ now: at(7) }).status)).toEqual(inOrder);
  });

  it('given an earlier suspension seen after that restart, when it arrives, then Suspended moves before RestartingJobSet', () => {
    const early = v(2, jobSetObserved({ ...spec, suspend: true }, { seconds: 0 }));
    const resumed = v(3, jobSetObserved({ ...spec, suspend: false }, { seconds: 0 }));
    const laterFailed = v(4, jobFailed('w', 0, { seconds: 5 }));
    const again = v(5, jobSetObserved({ ...spec, suspend: true }, { seconds: 9 }));
    const inOrder = conditionsOf(given(created, early, resumed, laterFailed, again).whenSettled({ now: at(9) }).status);
    expect(inOrder.map((c) => c.type)).toEqual(['Suspended', 'RestartingJobSet']);
    expect(conditionsOf(given(created, again, laterFailed, early).whenSettled({ now: at(9) }).status)).toEqual(inOrder);
    // The writer logs that stale observation: it tells an earlier suspension.
    const held = given(created, again, laterFailed).whenSettled({ now: at(9) }).state;
    expect(jobSetDecider().known(held, { ...early, eventId: 'early' } as JobSetLogObservation)).toBeUndefined();
    expect(jobSetDecider().known(held, { ...again, eventId: 'again-2' } as JobSetLogObservation)).toBe('stale');
  });
});

describe('a JobSet suspended and resumed before it finished, and suspended again after, the last suspension arriving first', () => {
  // Found by the generated dependsOn histories (history-26), shrunk.
  const spec = { replicatedJobs: [{ name: 'w' }] };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 1 }));
  const suspended = v(2, jobSetObserved({ ...spec, suspend: true }, { seconds: 2 }));
  const resumed = v(3, jobSetObserved({ ...spec, suspend: false }, { seconds: 77 }));
  const failed = v(5, jobFailed('w', 0, { seconds: 137 }));
  const suspendedAgain = v(6, jobSetObserved({ ...spec, suspend: true }, { seconds: 167 }));
  const resumedCondition = { type: 'Suspended', status: 'False', reason: 'ResumeJobs', message: 'jobset is resumed' };

  it('in order: Suspended False (the resumption before the finish), then Failed; the later suspension is ignored', () => {
    const inOrder = given(created, suspended, resumed, failed, suspendedAgain).whenSettled({ now: at(167) });
    expect(conditionsOf(inOrder.status)[0]).toEqual(resumedCondition);
    expect(conditionsOf(inOrder.status).map((c) => `${c.type}=${c.status}`)).toEqual(['Suspended=False', 'Failed=True']);
  });

  it('given the later suspension before the failure, when the failure arrives, then that suspension is taken back and Suspended stands as the cluster left it at the finish', () => {
    const late = given(resumed, created, suspended, suspendedAgain, failed).whenSettled({ now: at(167) });
    expect(conditionsOf(late.status).map((c) => `${c.type}=${c.status}`)).toEqual(['Suspended=False', 'Failed=True']);
    expect(conditionsOf(late.status)[0]).toEqual(resumedCondition);
    const correction = late.log.find((e) => e.type === 'JobSetOutcomeCorrected');
    expect(correction).toMatchObject({ retracted: [expect.objectContaining({ type: 'Suspended', status: 'True' })], retractedMetAt: at(167), evidence: { metAt: at(137) } });
  });
});

describe('a JobSet suspended in the same second as the failure that finished it, the suspension arriving first', () => {
  // Found by the generated multi-pod histories (history-58), shrunk. Upstream's pass that reads
  // both fails the JobSet first (the failure policy runs before suspension is enacted), and a
  // finished JobSet ignores the suspension: one second is taken as one pass, the finish first.
  const spec = { replicatedJobs: [{ name: 'w' }] };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 1 }));
  const failed = v(2, jobFailed('w', 0, { seconds: 61 }));
  const suspended = v(3, jobSetObserved({ ...spec, suspend: true }, { seconds: 61 }));

  it('in order: Failed, and no Suspended', () => {
    expect(conditionsOf(given(created, failed, suspended).whenSettled({ now: at(61) }).status).map((c) => c.type)).toEqual(['Failed']);
  });

  it('given the suspension before the failure, when the failure arrives, then Suspended is taken back', () => {
    const late = given(created, suspended, failed).whenSettled({ now: at(61) });
    expect(conditionsOf(late.status).map((c) => c.type)).toEqual(['Failed']);
    expect(late.log.find((e) => e.type === 'JobSetOutcomeCorrected')).toMatchObject({ retracted: [expect.objectContaining({ type: 'Suspended' })], retractedMetAt: at(61), evidence: { metAt: at(61) } });
  });
});

describe('a JobSet suspended and resumed before it finished, first seen after its Job finished (dependsOn history-57)', () => {
  // v1 created running, v2 suspended, v3 its Job suspended, v4 resumed, v5 the Job running, v6 it
  // succeeds: the success policy (Any) completes the JobSet; v7 suspended after the finish (ignored).
  const spec = { replicatedJobs: [{ name: 'w' }], successPolicy: { operator: 'Any', targetReplicatedJobs: [] } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 0 }));
  const suspended = v(2, jobSetObserved({ ...spec, suspend: true }, { seconds: 0 }));
  const jobSuspended = v(3, jobObserved('w', 0, { seconds: 1, suspend: true }));
  const resumed = v(4, jobSetObserved({ ...spec, suspend: false }, { seconds: 31 }));
  const running = v(5, jobObserved('w', 0, { seconds: 31, active: 1, ready: 1 }));
  const succeeded = v(6, jobSucceeded('w', 0, { seconds: 36 }));
  const suspendedAfter = v(7, jobSetObserved({ ...spec, suspend: true }, { seconds: 66 }));
  const inOrder = given(created, suspended, jobSuspended, resumed, running, succeeded, suspendedAfter).whenSettled({ now: at(66) });
  const resumedCondition = { type: 'Suspended', status: 'False', reason: 'ResumeJobs', message: 'jobset is resumed' };

  it('in order: Suspended False / ResumeJobs, then Completed', () => {
    expect(conditionsOf(inOrder.status)).toEqual([resumedCondition, expect.objectContaining({ type: 'Completed', status: 'True' })]);
  });

  it('given the success before any JobSet observation and the suspended one first, when settled, then Suspended is written as the cluster left it at the finish, before Completed', () => {
    const late = given(succeeded, suspended, running, created, resumed, jobSuspended, suspendedAfter).whenSettled({ now: at(66) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given the suspension after the finish first and the resumption before the finish last, when settled, then Suspended is False / ResumeJobs: the spec in force at the finish ran', () => {
    const late = given(jobSuspended, suspendedAfter, running, succeeded, resumed, suspended, created).whenSettled({ now: at(66) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given a stale resumed observation of a version the fold has not seen, when the writer judges it, then it is logged (it can tell where a suspension ended); the same version again is dropped', () => {
    const log = (o: JobSetObservation, eventId: string) => ({ ...o, eventId }) as JobSetLogObservation;
    const known = jobSetDecider().known;
    const between = v(5, jobSetObserved({ ...spec, suspend: false }, { seconds: 40 }));
    expect(known(given(created, suspended, resumed, suspendedAfter).state, log(between, 'e-between'))).toBeUndefined();
    expect(known(given(created, suspended, resumed, between, suspendedAfter).state, log(between, 'e-again'))).toBe('stale');
  });
});

describe('a JobSet suspended and resumed before it failed, suspended and resumed after, the observations crossing (seed 5 history-3)', () => {
  // v1 created, v2 suspended, v3 resumed, v4 the Job fails (the JobSet fails), v5 suspended, v6 resumed, v7 suspended.
  const spec = { replicatedJobs: [{ name: 'w' }] };
  const js = (version: number, suspend: boolean, seconds: number) => v(version, jobSetObserved({ ...spec, suspend }, { seconds }));
  const [created, suspended, resumed] = [js(1, false, 1), js(2, true, 6), js(3, false, 36)];
  const failed = v(4, jobFailed('w', 0, { seconds: 76 }));
  const [suspendedAfter, resumedAfter, suspendedLast] = [js(5, true, 143), js(6, false, 173), js(7, true, 173)];
  const inOrder = given(created, suspended, resumed, failed, suspendedAfter, resumedAfter, suspendedLast).whenSettled({ now: at(173) });

  it('given the resumption before the failure between two later observations and the first suspension last, when settled, then Suspended is False / ResumeJobs before Failed, as in order, in a few decisions (the suspension is not written and taken back in turn)', () => {
    expect(conditionsOf(inOrder.status).map((c) => `${c.type}=${c.status}`)).toEqual(['Suspended=False', 'Failed=True']);
    const late = given(created, resumedAfter, resumed, suspendedAfter, failed, suspendedLast, suspended).whenSettled({ now: at(173) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.events.length).toBeLessThan(4);
  });
});

describe('a JobSet resumed in the same second as the success that finished it, suspended again in that second (seed 42 history-32)', () => {
  // v1 created, v2 suspended; v3 its Job shown suspended; v4 resumed, v5 the Job running, v6 it
  // succeeds (the JobSet completes), v7 suspended: all but the first two in one second. The
  // finishing Job ran because of the resumption: its snapshot's resourceVersion is above it.
  const spec = { replicatedJobs: [{ name: 'w' }] };
  const js = (version: number, suspend: boolean, seconds: number) => v(version, jobSetObserved({ ...spec, suspend }, { seconds }));
  const [created, suspended, jobSuspended] = [js(1, false, 0), js(2, true, 0), v(3, jobObserved('w', 0, { seconds: 5, suspend: true }))];
  const [resumed, running, succeeded, suspendedAgain] = [js(4, false, 5), v(5, jobObserved('w', 0, { seconds: 5, active: 1, ready: 1 })), v(6, jobSucceeded('w', 0, { seconds: 5 })), js(7, true, 5)];
  const inOrder = given(created, suspended, jobSuspended, resumed, running, succeeded, suspendedAgain).whenSettled({ now: at(5) });

  it('given the later suspension before the resumption and the success, when settled, then Suspended is False / ResumeJobs (the resumption came before the finish by resourceVersion), as in order', () => {
    expect(conditionsOf(inOrder.status).map((c) => `${c.type}=${c.status}/${c.reason}`)).toEqual(['Suspended=False/ResumeJobs', 'Completed=True/AllJobsCompleted']);
    const late = given(jobSuspended, suspended, resumed, suspendedAgain, running, created, succeeded).whenSettled({ now: at(5) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });
});
