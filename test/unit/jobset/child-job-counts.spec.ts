import { describe, expect, it } from 'vitest';
import { knownJobSetObservation } from '../../../shared/jobset/decider.ts';
import { explainJobSet } from '../../../shared/jobset/explain.ts';
import type { JobSetEvent, JobSetObservation } from '../../../shared/jobset/index.ts';
import { at, jobDeleted, jobFailed, jobObserved, jobSetObserved, jobSucceeded, versioned } from './support/builders.ts';
import { commandsOf, conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets jobfold runs: each child status and deletion reaching the JobSet's log
// carries the forwarder's `jobSetSeq` (shared/jobset/child-counts.ts). While the log lacks one
// sent before the newest it holds, the JobSet decides nothing, until it arrives or upstream's
// expectation timeout (5 minutes) passes.

const JOBFOLD = 'jobfold.io/jobset-controller';
const EPOCH = 1_000;

/** The observation as it reaches the log with count `n` of the forwarder's epoch. */
const counted = (n: number, observation: JobSetObservation): JobSetObservation =>
  observation.type === 'JobObserved' || observation.type === 'JobDeleted' ? { ...observation, jobSetSeq: { epoch: EPOCH, counts: [n] } } : observation;

/** The commands a log's decisions issued, in order. */
const issued = (log: readonly JobSetEvent[]) => log.flatMap((e) => (e.type === 'CreateJobIssued' || e.type === 'DeleteJobIssued' || e.type === 'SuspendJobIssued' || e.type === 'ResumeJobIssued' ? [`${e.type} ${e.name}`] : []));

/** Two replicated jobs; the JobSet completes when `a` does, and fails on any failure. */
const jobSet = (managedBy?: string) =>
  versioned(1, jobSetObserved({
    replicatedJobs: [{ name: 'a' }, { name: 'b' }],
    successPolicy: { operator: 'Any', targetReplicatedJobs: ['a'] },
    ...(managedBy === undefined ? {} : { managedBy }),
  }));

// The cluster's order: both Jobs created (counts 1, 2), `a` succeeds (3), then `b` fails in the same second (4).
const aCreated = counted(1, versioned(10, jobObserved('a', 0, { seconds: 1, active: 1 })));
const bCreated = counted(2, versioned(11, jobObserved('b', 0, { seconds: 1, active: 1 })));
const aSucceeded = counted(3, versioned(12, jobSucceeded('a', 0, { seconds: 5 })));
const bFailed = counted(4, versioned(13, jobFailed('b', 0, { seconds: 5 })));

describe('Given a JobSet jobfold runs whose log holds a child Job event sent after one it lacks', () => {
  it('when reconciled, nothing is decided or sent, and it asks to be woken when the wait runs out', () => {
    const outcome = given(jobSet(JOBFOLD), aCreated, bCreated, bFailed).whenSettled({ now: at(5) });
    expect(outcome.events).toEqual([]);
    expect(outcome.commands).toEqual([]);
    expect(outcome.state.terminalState).toBe('');
    expect(given(jobSet(JOBFOLD), aCreated, bCreated, bFailed).when({ now: at(5) }).state.childCounts?.missingSince).toBe(Date.parse(at(5)));
  });

  it('when the missing event arrives, the JobSet decides as the cluster did: completed by `a` first, then `b`\'s failure folded', () => {
    const inOrder = given(jobSet(JOBFOLD), aCreated, bCreated, aSucceeded, bFailed).whenSettled({ now: at(5) });
    const late = given(jobSet(JOBFOLD), aCreated, bCreated, bFailed, aSucceeded).whenSettled({ now: at(5) });
    expect(late.state.terminalState).toBe('Completed');
    expect(late.status.conditions.map(({ type, status, reason }) => ({ type, status, reason })))
      .toEqual(inOrder.status.conditions.map(({ type, status, reason }) => ({ type, status, reason })));
    // The same commands over the whole log: `b`, still running when `a` completed the JobSet, deleted as active.
    expect(issued(late.log)).toEqual(issued(inOrder.log));
    // `b`'s failure, kept aside, is folded after the completion, by a logged release.
    expect(late.events.map((e) => e.type)).toEqual(['JobSetCompleted', 'DeleteJobIssued', 'ChildJobEventReleased']);
    expect(late.state.children['js-b-0']?.finished).toBe('Failed');
    expect(late.state.aheadOfHole ?? []).toEqual([]);
  });

  it('when the JobSet is suspended meanwhile, its observation waits aside too, and is folded after the child events of its second and before', () => {
    const suspended = versioned(20, jobSetObserved({
      replicatedJobs: [{ name: 'a' }, { name: 'b' }],
      successPolicy: { operator: 'Any', targetReplicatedJobs: ['a'] },
      managedBy: JOBFOLD,
      suspend: true,
    }, { seconds: 6 }));
    const held = given(jobSet(JOBFOLD), aCreated, bCreated, bFailed, suspended).whenSettled({ now: at(6) });
    expect(held.events).toEqual([]);
    expect(held.state.aheadOfHole?.map(({ event }) => event.type)).toEqual(['JobObserved', 'JobSetObserved']);
    const outcome = given(jobSet(JOBFOLD), aCreated, bCreated, bFailed, suspended, aSucceeded).whenSettled({ now: at(6) });
    // `a`'s success (3) completes the JobSet, `b`'s failure (4) is folded next, the suspension (second 6) last: a finished JobSet ignores it.
    expect(outcome.events.filter((e) => e.type === 'ChildJobEventReleased').map((e) => e.name)).toEqual(['js-b-0', 'js']);
    expect(outcome.state.terminalState).toBe('Completed');
    expect(outcome.state.jobSet?.spec.suspend).toBe(true);
    expect(commandsOf(outcome.commands)).toEqual(['DeleteJob js-b-0']);
  });

  it('when its suspension arrives after the resumption that followed it, both aside, the suspension is released first and enacted, as in the cluster order', () => {
    const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'a' }, { name: 'b' }], successPolicy: { operator: 'Any', targetReplicatedJobs: ['a'] }, managedBy: JOBFOLD, suspend });
    const suspended = versioned(20, jobSetObserved(spec(true), { seconds: 6 }));
    const resumed = versioned(21, jobSetObserved(spec(false), { seconds: 7 }));
    const aReady = counted(3, versioned(12, jobObserved('a', 0, { seconds: 4, active: 1, ready: 1 })));
    const bReady = counted(4, versioned(13, jobObserved('b', 0, { seconds: 5, active: 1, ready: 1 })));
    const inOrder = given(jobSet(JOBFOLD), aCreated, bCreated, aReady, bReady, suspended, resumed).whenSettled({ now: at(8) });
    const late = given(jobSet(JOBFOLD), aCreated, bCreated, bReady, resumed, suspended, aReady).whenSettled({ now: at(8) });
    // Released in the cluster's order: `b`'s readiness (count 4), the suspension (resourceVersion 20), the resumption (21).
    const released = late.events.flatMap((e) => (e.type === 'ChildJobEventReleased' ? [late.log[e.tippedBy - 1]] : []));
    expect(released).toEqual([bReady, suspended, resumed]);
    expect(issued(late.log)).toEqual(issued(inOrder.log));
    expect(issued(late.log).filter((c) => !c.startsWith('CreateJob'))).toEqual(['SuspendJobIssued js-a-0', 'SuspendJobIssued js-b-0', 'ResumeJobIssued js-a-0', 'ResumeJobIssued js-b-0']);
    expect(late.status.conditions.map(({ type, status, reason }) => ({ type, status, reason })))
      .toEqual(inOrder.status.conditions.map(({ type, status, reason }) => ({ type, status, reason })));
  });

  it('when a hole of two counts fills lower end first, each of its events is reconciled on in its counts\' order: the walk completes before the failure restarts the JobSet', () => {
    // InOrder: `a` ready (2) lets the walk create `b`; `b` ready (4) completes the walk; `a` fails (5) and the JobSet restarts.
    const inOrderJobSet = versioned(1, jobSetObserved({
      replicatedJobs: [{ name: 'a' }, { name: 'b' }],
      startupPolicy: { startupPolicyOrder: 'InOrder' },
      failurePolicy: { maxRestarts: 1 },
      managedBy: JOBFOLD,
    }));
    const events = [
      counted(1, versioned(10, jobObserved('a', 0, { seconds: 1, active: 1 }))),
      counted(2, versioned(11, jobObserved('a', 0, { seconds: 2, active: 1, ready: 1 }))),
      counted(3, versioned(12, jobObserved('b', 0, { seconds: 3, active: 1 }))),
      counted(4, versioned(13, jobObserved('b', 0, { seconds: 4, active: 1, ready: 1 }))),
      counted(5, versioned(14, jobFailed('a', 0, { seconds: 5 }))),
      counted(6, versioned(15, jobObserved('b', 0, { seconds: 6, active: 1, ready: 1 }))),
    ] as const;
    const [c1, c2, c3, c4, c5, c6] = events;
    const inOrder = given(inOrderJobSet, ...events).whenSettled({ now: at(6) });
    // 6 arrives first (aside), then 4: it fills the hole's lower end only, and waits aside too; 5 fills it, after 4.
    expect(given(inOrderJobSet, c1, c2, c3, c6, c4).state.aheadOfHole?.map(({ event }) => event)).toEqual([c4, c6]);
    const outcome = given(inOrderJobSet, c1, c2, c3, c6, c4, c5).whenSettled({ now: at(6) });
    expect(outcome.events.filter((e) => e.type === 'ChildJobEventReleased').map((e) => e.count)).toEqual([4, 5, 6]);
    expect(conditionsOf(outcome.status)).toEqual(conditionsOf(inOrder.status));
    // The walk completed (StartupPolicyCompleted written), then the restart began the next one.
    expect(conditionsOf(outcome.status).map(({ type, status }) => `${type}=${status}`)).toEqual(['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False', 'RestartingJobSet=True']);
    expect(issued(outcome.log)).toEqual(issued(inOrder.log));
  });

  it('when the wait runs out without it, the JobSet decides on what it holds', () => {
    const outcome = given(jobSet(JOBFOLD), aCreated, bCreated, bFailed).whenSettled({ now: at(5 + 301) });
    expect(outcome.state.terminalState).toBe('Failed');
  });

  it('when the log holds every count sent before the newest, it decides at once', () => {
    const outcome = given(jobSet(JOBFOLD), aCreated, bCreated, aSucceeded).whenSettled({ now: at(5) });
    expect(outcome.state.terminalState).toBe('Completed');
  });

  it("when the missing count is a child's deletion, its arrival ends the wait", () => {
    const deleted = counted(3, jobDeleted('b', 0, 3));
    const held = given(jobSet(JOBFOLD), aCreated, bCreated, counted(4, versioned(12, jobObserved('a', 0, { seconds: 4, active: 1, ready: 1 }))));
    expect(held.state.childCounts?.ahead).toEqual([[4, 4]]);
    const outcome = given(jobSet(JOBFOLD), aCreated, bCreated, counted(4, versioned(12, jobObserved('a', 0, { seconds: 4, active: 1, ready: 1 }))), deleted).whenSettled({ now: at(4) });
    expect(outcome.state.childCounts).toMatchObject({ through: 4, ahead: [], missingSince: undefined });
    expect(commandsOf(outcome.commands)).toEqual(['CreateJob js-b-0']);
  });

  it('a late snapshot that carries a missing count is logged though stale, and the explanation says what the JobSet waits for', () => {
    const stale = versioned(9, jobObserved('a', 0, { seconds: 1 }));
    const state = given(jobSet(JOBFOLD), aCreated, bCreated, bFailed).when({ now: at(5) }).state;
    expect(knownJobSetObservation(state, { ...counted(3, stale), eventId: 'a/status/late' })).toBeUndefined();
    expect(knownJobSetObservation(state, { ...stale, eventId: 'a/status/late' })).toBe('stale');
    expect(explainJobSet(state).summary).toContain('Nothing is decided, while 1 child Job event sent before the newest one in the log has not arrived');
  });
});

describe('Given a JobSet the cluster\'s controller runs, with the same hole', () => {
  it('when reconciled, it does not wait: its decisions are computed, and the cluster acted on its own view', () => {
    const outcome = given(jobSet(), aCreated, bCreated, bFailed).whenSettled({ now: at(5) });
    expect(outcome.state.terminalState).toBe('Failed');
  });
});
