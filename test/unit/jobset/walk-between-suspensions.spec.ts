import { describe, expect, it } from 'vitest';
import { knownJobSetObservation, type JobSetLogObservation } from '../../../shared/jobset/decider.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobFailed, jobObserved, jobReady, jobSetObserved, jobSucceeded, versioned } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for InOrder JobSets suspended and resumed more than once: which walks the cluster went
// through, read from what arrived out of order. Counterexamples of
// test/property/jobset/generated-orders.property.spec.ts (history-49, history-20, history-25), shrunk.

const spec = (suspend: boolean, replicas = 1) => ({
  replicatedJobs: [{ name: 'a', replicas }],
  startupPolicy: { startupPolicyOrder: 'InOrder' },
  suspend,
});
const jobSet = (version: number, suspend: boolean, seconds: number, replicas = 1) => versioned(version, jobSetObserved(spec(suspend, replicas), { seconds }));
const suspendedJob = (version: number, seconds: number) => versioned(version, jobObserved('a', 0, { seconds, suspend: true }));
const status = (type: string, s: 'True' | 'False') => expect.objectContaining({ type, status: s });

describe('an InOrder JobSet whose walk completed, then suspended, resumed and suspended again (history-49)', () => {
  // v1 running: the walk begins; v2 its Job ready: the walk completes; v3 suspended; v4 resumed
  // before the Job was suspended (the walk still complete); v5 suspended, v6 the Job suspended;
  // v7 resumed: the Job is not started, the walk begins again; v8 suspended before it completes.
  const created = jobSet(1, false, 0);
  const ready = versioned(2, jobReady('a', 0, { seconds: 0 }));
  const [v3, v4, v5, v6] = [jobSet(3, true, 0), jobSet(4, false, 30), jobSet(5, true, 96), suspendedJob(6, 96)];
  const [v7, v8, v9] = [jobSet(7, false, 101), jobSet(8, true, 131), suspendedJob(9, 132)];
  const events = [created, ready, v3, v4, v5, v6, v7, v8, v9];
  const inOrder = given(...events).whenSettled({ now: at(132) });

  it('in order: the second walk began and never completed, InProgress True and Completed False before Suspended', () => {
    expect(conditionsOf(inOrder.status)).toEqual([
      status('StartupPolicyInProgress', 'True'),
      status('StartupPolicyCompleted', 'False'),
      status('Suspended', 'True'),
    ]);
  });

  it('given the suspension first, the running JobSet and its ready Job after it, and the resumption between two suspensions last, when settled, then the end is as in order', () => {
    const late = given(v6, ready, v5, created, v9, v8, v4, v3, v7).whenSettled({ now: at(132) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given the resumption between two suspensions after two newer suspensions, the Job\'s suspended snapshot before it, when settled, then the walk it began is written, as in order', () => {
    const late = given(v6, v3, v9, v5, ready, v8, v4, v7, created).whenSettled({ now: at(132) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given the fold walked on the resumption while holding only the first suspension, and the running JobSet arrives last, when settled, then InProgress moves before Completed and Suspended (logged moves), as in order', () => {
    const late = given(v3, v7, v5, v6, v9, v4, ready, v8, created).whenSettled({ now: at(132) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given the resumption between two suspensions never arrives, when settled, then the first walk stands completed before Suspended', () => {
    const late = given(v6, ready, v5, created, v9, v8, v4, v3).whenSettled({ now: at(132) });
    expect(conditionsOf(late.status)).toEqual([
      status('StartupPolicyInProgress', 'False'),
      status('StartupPolicyCompleted', 'True'),
      status('Suspended', 'True'),
    ]);
  });

  it('given a stale Job snapshot that shows it suspended, when the writer judges it, then it is logged (the resumption after it began a walk); seen again, it is dropped', () => {
    const log = (o: JobSetObservation, id: string): JobSetLogObservation => ({ ...o, eventId: id }) as JobSetLogObservation;
    const { state } = given(v5, v9);
    expect(knownJobSetObservation(state, log(v6, 'e-v6'))).toBeUndefined();
    const noted = given(v5, v9, v6);
    expect(knownJobSetObservation(noted.state, log(v6, 'e-v6-again'))).toBe('stale');
  });

  it('given a stale suspended JobSet observation between two the fold holds, when the writer judges it, then it is logged (it bounds the last resumption); seen again, it is dropped', () => {
    const log = (o: JobSetObservation, id: string): JobSetLogObservation => ({ ...o, eventId: id }) as JobSetLogObservation;
    expect(knownJobSetObservation(given(v3, v8).state, log(v5, 'e-v5'))).toBeUndefined();
    expect(knownJobSetObservation(given(v3, v8, v5).state, log(v5, 'e-v5-again'))).toBe('stale');
  });
});

describe('an InOrder JobSet whose walk completed before it was suspended, seen after the finish (history-20)', () => {
  // v1 running, v2 and v3 its two Jobs ready (the walk completes), v4 suspended, v5 resumed, v6 and v7 the Jobs succeed.
  const [v1, v2, v3] = [jobSet(1, false, 0, 2), versioned(2, jobReady('a', 0, { seconds: 5 })), versioned(3, jobReady('a', 1, { seconds: 10 }))];
  const [v4, v5] = [jobSet(4, true, 40, 2), jobSet(5, false, 46, 2)];
  const [v6, v7] = [versioned(6, jobSucceeded('a', 0, { seconds: 50 })), versioned(7, jobSucceeded('a', 1, { seconds: 81 }))];
  const events = [v1, v2, v3, v4, v5, v6, v7];
  const inOrder = given(...events).whenSettled({ now: at(81) });

  it('given the suspension and the finish before the ready snapshots, when settled, then StartupPolicyCompleted goes before Suspended, as in order', () => {
    expect(conditionsOf(inOrder.status).map((c) => c.type)).toEqual(['StartupPolicyInProgress', 'StartupPolicyCompleted', 'Suspended', 'Completed']);
    const late = given(v4, v1, v6, v7, v5, v2, v3).whenSettled({ now: at(81) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given the Jobs finished before any JobSet observation, the suspension first, the running JobSet and the ready snapshots after, when settled, then the walk began and completed before Suspended (logged moves), as in order', () => {
    const late = given(v6, v7, v4, v1, v3, v2, v5).whenSettled({ now: at(81) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });
});

describe('an InOrder JobSet suspended, resumed, its walk completed in the second of a second suspension (history-25)', () => {
  // v1 running; v2 suspended; v3 resumed (mid-walk: Suspended stays True); v4 the Job ready (the
  // walk completes, Suspended False); v5 suspended in the same second.
  const [v1, v2, v3] = [jobSet(1, false, 0), jobSet(2, true, 5), jobSet(3, false, 8)];
  const [v4, v5] = [versioned(4, jobReady('a', 0, { seconds: 10 })), jobSet(5, true, 10)];
  const events = [v1, v2, v3, v4, v5];
  const inOrder = given(...events).whenSettled({ now: at(10) });

  it('given the walk seen complete by the later suspension, when the first suspension arrives last, then Suspended moves before StartupPolicyCompleted (a logged move), as in order', () => {
    expect(conditionsOf(inOrder.status).map((c) => c.type)).toEqual(['StartupPolicyInProgress', 'Suspended', 'StartupPolicyCompleted']);
    const before = given(v1, v3, v5, v4).whenSettled({ now: at(10) });
    expect(conditionsOf(before.status).map((c) => c.type)).toEqual(['StartupPolicyInProgress', 'StartupPolicyCompleted', 'Suspended']);
    const late = given(v1, v3, v5, v4, v2).whenSettled({ now: at(10) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
    expect(late.events).toContainEqual(expect.objectContaining({ type: 'JobSetConditionChanged', movedBefore: 'StartupPolicyCompleted' }));
  });
});

describe('an InOrder JobSet suspended mid-walk, resumed, and finished, its running observation arriving last (history-21)', () => {
  // v1 running: the walk begins; v2 a's Job ready; v3 suspended; v4 the Job suspended; v5 resumed
  // (mid-walk: Suspended stays True); v6 the Job ready again, v7 succeeded: the success policy (Any) completes the JobSet.
  const spec2 = (suspend: boolean) => ({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, successPolicy: { operator: 'Any', targetReplicatedJobs: [] }, suspend });
  const v1 = versioned(1, jobSetObserved(spec2(false), { seconds: 5 }));
  const v2 = versioned(2, jobReady('a', 0, { seconds: 5 }));
  const [v3, v4] = [versioned(3, jobSetObserved(spec2(true), { seconds: 35 })), suspendedJob(4, 35)];
  const [v5, v6, v7] = [versioned(5, jobSetObserved(spec2(false), { seconds: 36 })), versioned(6, jobReady('a', 0, { seconds: 36 })), versioned(7, jobSucceeded('a', 0, { seconds: 37 }))];
  const inOrder = given(v1, v2, v3, v4, v5, v6, v7).whenSettled({ now: at(37) });

  it('given the resumed spec first, the suspension after it, the finish, and the running JobSet last, when settled, then InProgress moves before Suspended though the JobSet finished, as in order', () => {
    expect(conditionsOf(inOrder.status).map((c) => c.type)).toEqual(['StartupPolicyInProgress', 'Suspended', 'Completed']);
    const late = given(v5, v3, v7, v4, v1, v2, v6).whenSettled({ now: at(37) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });
});

describe('an InOrder JobSet whose walk completed, suspended and resumed, its walk begun again, the suspension arriving last (seed 1234 history-0)', () => {
  // v1 running, v2 its Job ready (the walk completes), v3 suspended, v4 the Job suspended, v5
  // resumed: the Job is not started, the walk begins again; v6 the Job running, not ready yet.
  const [v1, v2, v3] = [jobSet(1, false, 1), versioned(2, jobReady('a', 0, { seconds: 1 })), jobSet(3, true, 31)];
  const [v4, v5, v6] = [suspendedJob(4, 36), jobSet(5, false, 107), versioned(6, jobObserved('a', 0, { seconds: 108, active: 1 }))];
  const inOrder = given(v1, v2, v3, v4, v5, v6).whenSettled({ now: at(108) });

  it('given the resumed spec held when the first walk\'s ready snapshot and the suspension arrive, when settled, then the first walk completed before Suspended and the second one is in progress, as in order', () => {
    expect(conditionsOf(inOrder.status)).toEqual([status('StartupPolicyInProgress', 'True'), status('StartupPolicyCompleted', 'False'), status('Suspended', 'True')]);
    const late = given(v6, v1, v2, v5, v4, v3).whenSettled({ now: at(108) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });
});

describe('an InOrder JobSet suspended and resumed three times, its walk completed while resumed (seed 7 history-3)', () => {
  // v1 running; v2 a's Job ready (b's created); v3 suspended; v4 resumed, v5 suspended, v6 resumed
  // (mid-walk: Suspended stays True); v7 b's Job ready: the walk completes; v8 a's Job shown
  // suspended (from v5): the walk begins again; v9 suspended; v10, v11 the Jobs suspended.
  const spec2 = (suspend: boolean) => ({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, suspend });
  const js = (version: number, suspend: boolean, seconds: number) => versioned(version, jobSetObserved(spec2(suspend), { seconds }));
  const suspendedAt = (name: string, version: number, seconds: number) => versioned(version, jobObserved(name, 0, { seconds, suspend: true }));
  const [v1, v2, v3, v4, v5, v6] = [js(1, false, 0), versioned(2, jobReady('a', 0, { seconds: 0 })), js(3, true, 5), js(4, false, 35), js(5, true, 35), js(6, false, 36)];
  const [v7, v8, v9, v10, v11] = [versioned(7, jobReady('b', 0, { seconds: 41 })), suspendedAt('a', 8, 41), js(9, true, 41), suspendedAt('a', 10, 52), suspendedAt('b', 11, 54)];
  const inOrder = given(v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11).whenSettled({ now: at(54) });

  it('given the walk\'s last ready snapshot first and the suspensions after, when settled, then the walk completed while resumed is written after Suspended, and begun again, as in order', () => {
    expect(conditionsOf(inOrder.status)).toEqual([status('StartupPolicyInProgress', 'True'), status('Suspended', 'True'), status('StartupPolicyCompleted', 'False')]);
    const late = given(v7, v6, v8, v3, v10, v4, v5, v11, v9, v2, v1).whenSettled({ now: at(54) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });
});

describe('an InOrder JobSet whose Job, started, is shown suspended before the JobSet\'s suspension arrives (seed 1234 history-1; multi-pod history-49)', () => {
  // v1 running, v2 its Job ready (the walk completes), v3 suspended, v4 the Job suspended.
  const [v1, v2, v3, v4] = [jobSet(1, false, 5), versioned(2, jobReady('a', 0, { seconds: 5 })), jobSet(3, true, 5), suspendedJob(4, 5)];
  const inOrder = given(v1, v2, v3, v4).whenSettled({ now: at(5) });

  it('given the Job\'s suspended snapshot before the suspension, when reconciled on the running spec, then no walk begins again and nothing is resumed; once the suspension arrives, the end is as in order', () => {
    expect(conditionsOf(inOrder.status)).toEqual([status('StartupPolicyInProgress', 'False'), status('StartupPolicyCompleted', 'True'), status('Suspended', 'True')]);
    const early = given(v1, v2, v4).whenSettled({ now: at(5) });
    expect(early.commands).toEqual([]);
    expect(conditionsOf(early.status)).toEqual([status('StartupPolicyInProgress', 'False'), status('StartupPolicyCompleted', 'True')]);
    expect(conditionsOf(given(v1, v2, v4, v3).whenSettled({ now: at(5) }).status)).toEqual(conditionsOf(inOrder.status));
  });

  it('given a Job created suspended and shown after the resumption, when reconciled, then it is resumed and walked as before (it never ran on the resumed spec)', () => {
    const createdSuspended = jobSet(1, true, 0);
    const resumed = jobSet(2, false, 5);
    const shown = suspendedJob(3, 6);
    const outcome = given(createdSuspended, resumed, shown).whenSettled({ now: at(6) });
    expect(outcome.commands.map((c) => c.type)).toContain('ResumeJob');
  });
});

describe('an InOrder JobSet restarted after its walk completed, then suspended, the ready snapshot arriving last (seed 99 history-27)', () => {
  // v1 running; v2 its Job ready (the walk completes); v3 it fails: a restart, whose next walk
  // begins while running; v4 suspended; the old Job deleted; v5 the new attempt's Job suspended.
  const specR = (suspend: boolean) => ({ replicatedJobs: [{ name: 'a' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 1 }, suspend });
  const js = (version: number, suspend: boolean, seconds: number) => versioned(version, jobSetObserved(specR(suspend), { seconds }));
  const [v1, v2, v3] = [js(1, false, 30), versioned(2, jobReady('a', 0, { seconds: 30 })), versioned(3, jobFailed('a', 0, { seconds: 35 }))];
  const [v4, deleted, v5] = [js(4, true, 71), jobDeleted('a', 0, 71), versioned(5, jobObserved('a', 0, { seconds: 72, attempt: 1, suspend: true }))];
  const inOrder = given(v1, v2, v3, v4, deleted, v5).whenSettled({ now: at(72) });

  it('given the suspension and the failure before the ready snapshot, when settled, then the ended walk completed before the restart and the next one began, as in order', () => {
    expect(conditionsOf(inOrder.status).map((c) => `${c.type}=${c.status}`)).toEqual(['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False', 'RestartingJobSet=False', 'Suspended=True']);
    const late = given(v1, v4, v5, v3, v2, deleted).whenSettled({ now: at(72) });
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });
});

// Generated JobSet histories, seed 3 history-31 (and seeds 42, 1234): the Job shown suspended only
// after the resumption (the suspension before it reached the Job late). The cluster's pass on the
// resumed JobSet read the Job as last shown, ready: the walk was complete, so it turned Suspended
// False / ResumeJobs; the suspended snapshot then began the walk again, which leaves that alone.
describe('an InOrder JobSet resumed while its suspended Job still showed ready', () => {
  // v1 running, v2 its Job ready (walk completes), v3 suspended, v4 resumed, v5 the Job suspended.
  const [created, ready, v3, v4, v5] = [jobSet(1, false, 0), versioned(2, jobReady('a', 0, { seconds: 5 })), jobSet(3, true, 10), jobSet(4, false, 20), suspendedJob(5, 21)];
  const events = [created, ready, v3, v4, v5];
  const written = (events: readonly JobSetObservation[]) => conditionsOf(given(...events).whenSettled({ now: at(21) }).status).map((c) => `${c.type}=${c.status}/${c.reason}`);

  it('in order: resumed on a complete walk (ResumeJobs), then the walk began again', () => {
    expect(written(events)).toEqual(['StartupPolicyInProgress=True/InOrderStartupPolicyInProgress', 'StartupPolicyCompleted=False/InOrderStartupPolicyCompleted', 'Suspended=False/ResumeJobs']);
  });

  it('given the Job\'s suspended snapshot before the resumption, when the resumption arrives, then Suspended is False / ResumeJobs, as in order', () => {
    const want = written(events);
    expect(written([created, ready, v3, v5, v4])).toEqual(want);
    expect(written([v5, created, v3, ready, v4])).toEqual(want);
    expect(written([v3, v5, v4, ready, created])).toEqual(want);
  });

  it('given the Job shown suspended before the resumption (by resourceVersion), when it arrives last, then the walk was in progress at the resumption: Suspended stays True', () => {
    const [suspendedFirst, resumedAfter] = [suspendedJob(4, 15), jobSet(5, false, 20)];
    const want = written([created, ready, v3, suspendedFirst, resumedAfter]);
    expect(want).toContain('Suspended=True/SuspendedJobs');
    expect(written([created, ready, v3, resumedAfter, suspendedFirst])).toEqual(want);
  });
});

// Generated JobSet histories with message-pattern rules (message-pattern-orders.property.spec.ts,
// history-32), and seed 42 of the one-pod population: the first walk completed before the first
// suspension, then the JobSet resumed, restarted and was suspended again. When the first walk's
// ready snapshot arrives last, the fold has written StartupPolicyCompleted for the second walk,
// after Suspended; the cluster wrote it for the first walk, before Suspended (the next walk only
// turned it False), so it moves there after one restart too.
describe('an InOrder JobSet whose first walk completed before its first suspension, restarted since', () => {
  const restarting = (version: number, suspend: boolean, seconds: number) => versioned(version, jobSetObserved({ ...spec(suspend), failurePolicy: { maxRestarts: 1 } }, { seconds }));
  const events = [
    restarting(1, false, 5), versioned(2, jobReady('a', 0, { seconds: 5 })), restarting(3, true, 35), restarting(4, false, 65),
    suspendedJob(5, 66), versioned(6, jobReady('a', 0, { seconds: 66 })), versioned(7, jobFailed('a', 0, { seconds: 66 })),
    restarting(8, true, 97), jobDeleted('a', 0, 98), versioned(9, jobObserved('a', 0, { seconds: 99, attempt: 1, suspend: true })),
  ];
  const written = (order: readonly number[]) => conditionsOf(given(...order.map((i) => events[i] as JobSetObservation)).whenSettled({ now: at(99) }).status).map((c) => `${c.type}=${c.status}`);

  it('in order: the first walk completed, the suspension, the restart, the next walk in progress', () => {
    expect(written([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual(['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False', 'Suspended=True', 'RestartingJobSet=False']);
  });

  it('given the first walk\'s ready snapshot and the running JobSet last, when they arrive, then StartupPolicyCompleted moves before Suspended', () => {
    expect(written([2, 6, 4, 5, 8, 9, 3, 1, 7, 0])).toEqual(written([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
  });
});

// ttl-orders seed 8 history-41, shrunk: created, suspended, resumed and its Job ready in one
// second. Upstream's pass walks before it suspends, but the resourceVersions tell which came
// first: a Job shown ready after the suspension completed the walk after it.
describe('an InOrder JobSet suspended, resumed and walked in one second', () => {
  const created = jobSet(1, false, 0);
  const suspended = jobSet(2, true, 0);
  const resumed = jobSet(3, false, 0);
  const conditions = (...events: JobSetObservation[]) => given(...events).whenSettled({ now: at(0) }).status.conditions.map((c) => `${c.type}=${c.status}`);

  it('given its Job shown ready at a newer resourceVersion than the suspension, when settled, then Suspended stands before StartupPolicyCompleted, in any order', () => {
    const ready = versioned(4, jobReady('a', 0, { seconds: 0 }));
    const upstream = ['StartupPolicyInProgress=False', 'Suspended=False', 'StartupPolicyCompleted=True'];
    expect(conditions(created, suspended, resumed, ready)).toEqual(upstream);
    expect(conditions(ready, created, resumed, suspended)).toEqual(upstream);
    expect(conditions(resumed, created, ready, suspended)).toEqual(upstream);
  });

  it('given its Job shown ready at an older resourceVersion than the suspension, when settled, then StartupPolicyCompleted stands before Suspended', () => {
    const readyFirst = versioned(2, jobReady('a', 0, { seconds: 0 }));
    const [suspendedAfter, resumedAfter] = [jobSet(3, true, 0), jobSet(4, false, 0)];
    expect(conditions(created, readyFirst, suspendedAfter, resumedAfter)).toEqual(['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'Suspended=False']);
    expect(conditions(suspendedAfter, readyFirst, resumedAfter, created)).toEqual(['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'Suspended=False']);
  });
});
