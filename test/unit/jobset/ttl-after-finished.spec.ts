import { describe, expect, it } from 'vitest';
import { explainJobSet } from '../../../shared/jobset/explain.ts';
import { decide, evolve, type JobSetObservation } from '../../../shared/jobset/index.ts';
import { jobSetObserved, jobFailed, jobObserved, jobSucceeded, at, versioned, jobDeleted as jobDeletedAt } from './support/builders.ts';
import { commandsOf, given } from './support/given.ts';

const tick = (seconds: number): JobSetObservation => ({ type: 'Tick', at: at(seconds), eventId: undefined });
const withTtl = (ttlSecondsAfterFinished: number) => jobSetObserved({ replicatedJobs: [{ name: 'workers' }], ttlSecondsAfterFinished });

describe('Given a JobSet with ttlSecondsAfterFinished 30', () => {
  it('when it completes, the controller asks to look again when the TTL runs out, and deletes nothing yet', () => {
    const outcome = given(withTtl(30), jobSucceeded('workers', 0, { seconds: 10 })).whenSettled({ now: at(10) });
    expect(outcome.state.terminalState).toBe('Completed');
    expect(commandsOf(outcome.commands)).toEqual([]);
    expect(decide(outcome.state, at(10)).wakeAt).toBe('2026-01-01T00:00:40.000Z');
  });

  it('when the timer fires at the expiry, the JobSet is deleted in the foreground, once', () => {
    const history = given(withTtl(30), jobSucceeded('workers', 0, { seconds: 10 }), tick(40));
    const outcome = history.whenSettled({ now: at(40) });
    expect(outcome.commands).toEqual([
      expect.objectContaining({ type: 'DeleteJobSet', name: 'js', namespace: 'default', propagationPolicy: 'Foreground' }),
    ]);
    expect(outcome.events).toEqual([
      expect.objectContaining({ type: 'JobSetDeletionRequested', finishedAt: at(10), ttlSecondsAfterFinished: 30, tippedBy: history.log.length }),
    ]);
    expect(decide(outcome.state, at(60))).toEqual({ events: [], commands: [], wakeAt: undefined });
  });

  it('when it failed instead, the TTL counts from the Failed condition', () => {
    const outcome = given(withTtl(30), jobFailed('workers', 0, { seconds: 10 }), tick(39)).whenSettled({ now: at(39) });
    expect(outcome.commands).toEqual([]);
    expect(decide(outcome.state, at(40)).commands.map((c) => c.type)).toEqual(['DeleteJobSet']);
  });

  it('when the cluster deleted it, its history stays: conditions, decisions and the deletion in the explanation', () => {
    const history = given(withTtl(30), jobSucceeded('workers', 0, { seconds: 10 }), tick(40));
    const settled = history.whenSettled({ now: at(40) });
    const gone = evolve(settled.state, { type: 'JobSetDeleted', at: at(41), eventId: undefined });
    const decisions = settled.log.flatMap((event, i) => ('tippedBy' in event || event.type.endsWith('Issued') ? [{ seq: i + 1, event: event as never }] : []));
    const explanation = explainJobSet(gone, decisions);
    expect(gone.deleted).toBe(true);
    expect(explanation.outcome).toBe('Completed');
    expect(explanation.summary).toMatch(/^JobSet default\/js \(deleted\) completed/);
    expect(explanation.events.at(-1)?.sentence).toMatch(/^DeleteJobSet js \(foreground\): finished at 2026-01-01T00:00:10Z, ttlSecondsAfterFinished 30 expired at 2026-01-01T00:00:40/);
  });
});

describe('Given a JobSet without ttlSecondsAfterFinished', () => {
  it('when it completes, nothing is scheduled and it is never deleted', () => {
    const outcome = given(jobSetObserved({ replicatedJobs: [{ name: 'workers' }] }), jobSucceeded('workers', 0, { seconds: 10 }), tick(1000)).whenSettled({ now: at(1000) });
    expect(outcome.commands).toEqual([]);
    expect(decide(outcome.state, at(1000)).wakeAt).toBeUndefined();
  });
});

// The cluster deletes a finished JobSet (its own TTL) in the foreground: the deletion mark, the
// Jobs, the JobSet. Its `JobSet Deleted` can reach the log before the finish it followed, or before
// the mark: the outcome stands as the cluster's controller decided it (issue 21).
describe('Given a JobSet with ttlSecondsAfterFinished 0 whose deletion arrives before its finish', () => {
  const gone = (seconds: number): JobSetObservation => ({ type: 'JobSetDeleted', at: at(seconds), eventId: undefined });

  it('when the failure arrives after the JobSet is gone, the JobSet failed', () => {
    const outcome = given(gone(6), withTtl(0), jobFailed('workers', 0, { seconds: 5 })).whenSettled({ now: at(6) });
    expect(outcome.state.terminalState).toBe('Failed');
    expect(outcome.commands).toEqual([]);
  });

  it('when a success came after the JobSet was gone, it is not counted', () => {
    const outcome = given(gone(6), withTtl(0), jobSucceeded('workers', 0, { seconds: 7 })).whenSettled({ now: at(7) });
    expect(outcome.state.terminalState).toBe('');
  });
});

// The deletion mark delivered before what the JobSet did while it ran: the walk's conditions the
// cluster wrote before it finished still take their place (not the Job deletions, not the TTL).
describe('Given an InOrder JobSet with ttlSecondsAfterFinished 0 whose deletion mark arrives first', () => {
  const inOrder = (marked: boolean): JobSetObservation => {
    const observed = versioned(1, jobSetObserved({ replicatedJobs: [{ name: 'workers' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, ttlSecondsAfterFinished: 0 }, { seconds: 0 }));
    if (observed.type !== 'JobSetObserved' || !marked) return observed;
    return { ...observed, at: at(12), jobSet: { ...observed.jobSet, metadata: { ...observed.jobSet.metadata, deletionTimestamp: at(12), resourceVersion: '4' } } };
  };
  const ready = versioned(2, jobObserved('workers', 0, { seconds: 5, active: 1, ready: 1 }));
  const done = versioned(3, jobSucceeded('workers', 0, { seconds: 10 }));
  const walk = (observations: JobSetObservation[]) => given(...observations).whenSettled({ now: at(12) }).status.conditions.map((c) => `${c.type}=${c.status}`);

  it('when the ready (and the success) arrive after the mark, the walk is written before the finish, as in order', () => {
    const expected = walk([inOrder(false), ready, done, inOrder(true)]);
    expect(expected).toEqual(['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'Completed=True']);
    expect(walk([inOrder(false), inOrder(true), done, ready])).toEqual(expected);
    expect(walk([inOrder(false), done, inOrder(true), ready])).toEqual(expected);
  });
});

// The JobSet's deletion delivered before the JobSet itself: the fold's first look is at a JobSet
// already gone, whose Jobs show what its controller's passes did while it ran (upstream's first
// pass on an InOrder JobSet creates the first Jobs and writes StartupPolicyInProgress).
describe('Given an InOrder JobSet with ttlSecondsAfterFinished 0 first seen after it was gone', () => {
  const inOrder = versioned(1, jobSetObserved({ replicatedJobs: [{ name: 'workers', replicas: 2 }], startupPolicy: { startupPolicyOrder: 'InOrder' }, ttlSecondsAfterFinished: 0 }, { seconds: 0 }));
  const running = versioned(2, jobObserved('workers', 1, { seconds: 0, active: 1 }));
  const failed = versioned(3, jobFailed('workers', 1, { seconds: 60 }));
  const gone: JobSetObservation = { type: 'JobSetDeleted', at: at(90), eventId: undefined };
  const settle = (observations: JobSetObservation[]) => given(...observations).whenSettled({ now: at(90) });
  const conditions = (observations: JobSetObservation[]) => settle(observations).status.conditions.map((c) => `${c.type}=${c.status}`);

  it('when its Job failed and it was deleted before the JobSet arrives, the walk its first pass began stands before the failure, as in order', () => {
    const expected = conditions([inOrder, running, failed, gone]);
    expect(expected).toEqual(['StartupPolicyInProgress=True', 'Failed=True']);
    expect(conditions([failed, gone, inOrder, running])).toEqual(expected);
    expect(conditions([gone, running, inOrder, failed])).toEqual(expected);
  });

  it('when it is first seen gone, nothing is created, deleted or suspended', () => {
    expect(commandsOf(settle([failed, gone, inOrder, running]).commands)).toEqual([]);
    expect(commandsOf(settle([gone, running, inOrder]).commands)).toEqual([]);
  });
});

// A Job of the next restart attempt the cluster made, finished and deleted (its Jobs'
// ttlSecondsAfterFinished 0) before the failure that restarted its JobSet reaches the log: its
// completion is what the cluster's controller counted then, whatever came first.
describe('Given a restarted JobSet whose recreated Job completed and was deleted before the failure that restarted it arrives', () => {
  const jobSet = versioned(1, jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }], successPolicy: { operator: 'Any' }, failurePolicy: { maxRestarts: 1 } }));
  const uid = (event: JobSetObservation, id: string): JobSetObservation =>
    event.type === 'JobObserved' ? { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid: id } } } : event.type === 'JobDeleted' ? { ...event, uid: id } : event;
  const running = uid(versioned(2, jobObserved('a', 0, { seconds: 1, active: 1 })), 'a0-0');
  const failed = uid(versioned(3, jobFailed('a', 0, { seconds: 31 })), 'a0-0');
  const recreated = uid(versioned(4, jobObserved('a', 1, { seconds: 32, attempt: 1, active: 1 })), 'a1-1');
  const completed = uid(versioned(5, jobSucceeded('a', 1, { seconds: 33, attempt: 1 })), 'a1-1');
  const deleted = uid(jobDeletedAt('a', 1, 34), 'a1-1');
  const outcome = (observations: JobSetObservation[]) => {
    const { state } = given(...observations).whenSettled({ now: at(34) });
    return { terminalState: state.terminalState, restarts: state.restarts };
  };

  it('when the completion and its deletion arrive first, the JobSet restarted and then completed on it, as in order', () => {
    const expected = outcome([jobSet, running, failed, recreated, completed, deleted]);
    expect(expected).toEqual({ terminalState: 'Completed', restarts: 1 });
    expect(outcome([jobSet, completed, deleted, running, failed])).toEqual(expected);
    expect(outcome([deleted, completed, jobSet, failed])).toEqual(expected);
  });

  it('when the deletion arrives first and the completion after the restart, the JobSet completed on it', () => {
    expect(outcome([deleted, jobSet, running, failed, recreated, completed])).toEqual({ terminalState: 'Completed', restarts: 1 });
  });
});

// ttl-orders seed 99 history-3, shrunk: with ttlSecondsAfterFinished 0 the JobSet is marked for
// deletion in the second its Job failed; the resourceVersions say the failure came first.
describe('Given a JobSet with ttlSecondsAfterFinished 0 marked for deletion in the second its Job failed', () => {
  const spec = { replicatedJobs: [{ name: 'workers' }], ttlSecondsAfterFinished: 0 };
  const created = versioned(1, jobSetObserved(spec, { seconds: 0 }));
  const running = versioned(2, jobObserved('workers', 0, { seconds: 0, active: 1 }));
  const failed = versioned(3, jobFailed('workers', 0, { seconds: 61 }));
  const marked: JobSetObservation = created.type === 'JobSetObserved'
    ? { ...created, at: at(61), jobSet: { ...created.jobSet, metadata: { ...created.jobSet.metadata, deletionTimestamp: at(61), resourceVersion: '4' } } }
    : created;
  const gone: JobSetObservation = { type: 'JobSetDeleted', at: at(61), eventId: undefined };
  const outcome = (...observations: JobSetObservation[]) => given(...observations).whenSettled({ now: at(61) }).state.terminalState;

  it('when the mark arrives before the failure, the JobSet failed, as in order', () => {
    expect(outcome(created, running, failed, marked, gone)).toBe('Failed');
    expect(outcome(created, running, marked, failed, gone)).toBe('Failed');
    expect(outcome(gone, marked, failed, created, running)).toBe('Failed');
  });

  it('when the Job\'s failure is shown at a newer resourceVersion than the mark, it came after the mark: not counted', () => {
    const failedAfter = versioned(5, jobFailed('workers', 0, { seconds: 61 }));
    expect(outcome(created, running, marked, failedAfter)).toBe('');
  });
});
