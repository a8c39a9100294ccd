import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobFailed, jobName, jobObserved, jobReady, jobSetObserved, jobSucceeded, versioned } from './support/builders.ts';
import { commandsOf, given } from './support/given.ts';

// A user deletes a child Job (issue 21, "nothing wedged"); its deletion comes from the cluster's
// watch and can reach the log before the Job's last snapshot. A deleted object has no snapshot
// newer than its deletion, so a late one showing the Job complete is what the cluster showed
// before the deletion: the JobSet's controller counted it toward the success policy then.

const withUid = (event: JobSetObservation, uid: string): JobSetObservation =>
  event.type === 'JobObserved' ? { ...event, job: { ...event.job, metadata: { ...event.job.metadata, uid } } } : event;
const deletedWithUid = (event: JobSetObservation, uid: string): JobSetObservation => ({ ...event, uid }) as JobSetObservation;

/** a-1 runs; a user deletes a-0 (at 4), whose completion (at 3) arrives after the deletion. */
const readyDeletedCompleted = [
  withUid(jobReady('a', 1, { seconds: 1 }), 'uid-1'),
  deletedWithUid(jobDeleted('a', 0, 4), 'uid-0'),
  withUid(jobSucceeded('a', 0, { seconds: 3 }), 'uid-0'),
];
const deletedThenCompleted = (jobSet: JobSetObservation) => given(jobSet, ...readyDeletedCompleted).whenSettled({ now: at(4) });

describe('a user deleted a child Job, and its completion arrives after the deletion', () => {
  const anyOf = jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }], successPolicy: { operator: 'Any' } });
  const allOf = jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }] });
  const allOfOne = jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 1 }] });

  it('given success policy Any, when reconciled, then the JobSet completes on it and counts it nowhere', () => {
    const outcome = deletedThenCompleted(anyOf);
    expect(outcome.state.terminalState).toBe('Completed');
    expect(outcome.status.replicatedJobsStatus[0]).toMatchObject({ succeeded: 0 });
    expect(commandsOf(outcome.commands)).not.toContain(`CreateJob ${jobName('a', 0)}`);
  });

  it('given success policy All, when reconciled, then the JobSet runs on and creates the deleted Job again', () => {
    const outcome = given(
      ...readyDeletedCompleted,
      allOf,
    ).whenSettled({ now: at(4) });
    expect(outcome.state.terminalState).toBe('');
    expect(commandsOf(outcome.commands)).toEqual([`CreateJob ${jobName('a', 0)}`]);
  });

  it('given the Job created again under its name was seen, when reconciled, then the late completion stays dropped', () => {
    const outcome = given(
      anyOf,
      deletedWithUid(jobDeleted('a', 0, 4), 'uid-0'),
      withUid(jobReady('a', 0, { seconds: 5 }), 'uid-0b'),
      withUid(jobSucceeded('a', 0, { seconds: 3 }), 'uid-0'),
    ).whenSettled({ now: at(5) });
    expect(outcome.state.terminalState).toBe('');
    expect(outcome.state.children[jobName('a', 0)]).toMatchObject({ uid: 'uid-0b', ready: 1, finished: undefined });
  });

  it('given the view holding an older Job under the name (older resourceVersion), when reconciled, then the completion still counts', () => {
    const outcome = given(
      anyOf,
      versioned(3, withUid(jobObserved('a', 0, { seconds: 0 }), 'uid-0')),
      deletedWithUid(jobDeleted('a', 0, 33), 'uid-0b'),
      versioned(8, withUid(jobSucceeded('a', 0, { seconds: 12 }), 'uid-0b')),
    ).whenSettled({ now: at(33) });
    expect(outcome.state.terminalState).toBe('Completed');
  });

  it('given an older Job\'s snapshot under the name after the completion and the deletion, when reconciled, then the completion still counts', () => {
    const outcome = given(
      versioned(7, withUid(jobSucceeded('a', 0, { seconds: 68 }), 'uid-0c')),
      deletedWithUid(jobDeleted('a', 0, 98), 'uid-0c'),
      versioned(4, withUid(jobReady('a', 0, { seconds: 36 }), 'uid-0b')),
      allOfOne,
    ).whenSettled({ now: at(98) });
    expect(outcome.state.terminalState).toBe('Completed');
  });

  it('given the completion and then the deletion folded before the JobSet was seen, when reconciled, then the JobSet completes on it', () => {
    const outcome = given(
      withUid(jobSucceeded('a', 0, { seconds: 2 }), 'uid-0'),
      deletedWithUid(jobDeleted('a', 0, 3), 'uid-0'),
      anyOf,
    ).whenSettled({ now: at(3) });
    expect(outcome.state.terminalState).toBe('Completed');
    expect(outcome.status.replicatedJobsStatus[0]).toMatchObject({ succeeded: 0 });
  });
});

// The Job created again under a deleted one's name is another object: the older one's snapshots,
// still on their way, are older than the new one's (KEP-5504: one resource type, one order), and a
// name holds one object at a time, so the older object was gone before the newer one's snapshot.
describe('a user deleted a child Job and the Job created again was seen, then a snapshot of the deleted one arrives', () => {
  const allOf = jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }] });

  it('given the deleted Job\'s older snapshot after the new one\'s, when reconciled, then the new Job stands in the view', () => {
    const outcome = given(
      allOf,
      versioned(7, withUid(jobReady('a', 0, { seconds: 46 }), 'uid-0b')),
      versioned(8, withUid(jobReady('a', 1, { seconds: 47 }), 'uid-1')),
      versioned(5, withUid(jobObserved('a', 0, { seconds: 41 }), 'uid-0')),
    ).whenSettled({ now: at(47) });
    expect(outcome.state.children[jobName('a', 0)]).toMatchObject({ uid: 'uid-0b', ready: 1 });
    expect(outcome.status.replicatedJobsStatus[0]).toMatchObject({ active: 2, ready: 2 });
  });

  it('given then the deletion of the older Job, when reconciled, then nothing is created again', () => {
    const outcome = given(
      allOf,
      versioned(7, withUid(jobReady('a', 0, { seconds: 46 }), 'uid-0b')),
      versioned(5, withUid(jobObserved('a', 0, { seconds: 41 }), 'uid-0')),
      deletedWithUid(jobDeleted('a', 0, 46), 'uid-0'),
    ).whenSettled({ now: at(46) });
    expect(outcome.state.children[jobName('a', 0)]).toMatchObject({ uid: 'uid-0b' });
    expect(commandsOf(outcome.commands)).not.toContain(`CreateJob ${jobName('a', 0)}`);
  });
});


// An InOrder walk's evidence (walk-evidence.ts) is what the cluster showed of each Job: a Job a
// user deleted no longer counts as started once it is gone, and the one created again under its
// name must show started itself, whatever order the snapshots arrive in.
describe('an InOrder JobSet whose started Job a user deleted before the walk completed', () => {
  const spec = { replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' } } as const;
  const running = versioned(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 0 }));
  const suspended = versioned(6, jobSetObserved({ ...spec, suspend: true }, { seconds: 35 }));
  const aReady = versioned(2, withUid(jobReady('a', 0, { seconds: 10 }), 'uid-a1'));
  const bCreated = versioned(3, withUid(jobObserved('b', 0, { seconds: 11 }), 'uid-b'));
  const aDeleted = deletedWithUid(jobDeleted('a', 0, 20), 'uid-a1');
  const aAgain = versioned(4, withUid(jobObserved('a', 0, { seconds: 21 }), 'uid-a2'));
  const bReady = versioned(5, withUid(jobReady('b', 0, { seconds: 30 }), 'uid-b'));
  const walk = (outcome: ReturnType<ReturnType<typeof given>['whenSettled']>) => outcome.status.conditions.map((c) => `${c.type}=${c.status}`);

  it('in order: the walk never completed before the suspension', () => {
    expect(walk(given(running, aReady, bCreated, aDeleted, aAgain, bReady, suspended).whenSettled({ now: at(35) }))).toEqual(['StartupPolicyInProgress=True', 'Suspended=True']);
  });

  it('given the suspension and the deletion before the Jobs\' snapshots, when reconciled, then the deleted Job\'s readiness completes no walk', () => {
    expect(walk(given(running, suspended, aDeleted, bReady, aReady, bCreated, aAgain).whenSettled({ now: at(35) }))).toEqual(['StartupPolicyInProgress=True', 'Suspended=True']);
  });

  it('given the deleted Job\'s ready snapshot after its deletion, when reconciled, then it completes no walk', () => {
    expect(walk(given(running, bCreated, aDeleted, aAgain, bReady, suspended, aReady).whenSettled({ now: at(35) }))).toEqual(['StartupPolicyInProgress=True', 'Suspended=True']);
  });
});

// jobfold creates a deleted Job again (upstream's controller does); the deleted one's completion
// may arrive after that create was issued and before the Job it made is seen. The create stays
// expected (upstream's expectations), and the completion is kept beside it, counted by the success
// policy for the instants before its deletion only.
describe('a user deleted a completed child Job, jobfold created it again, and a completion arrives', () => {
  const allOf = jobSetObserved({ replicatedJobs: [{ name: 'a', replicas: 2 }] });

  it('given the deleted Job\'s late completion while the create is unseen, when reconciled, then the create is not issued again', () => {
    const outcome = deletedThenCompleted(allOf);
    expect(commandsOf(outcome.commands)).toEqual([]);
    expect(outcome.state.children[jobName('a', 0)]).toMatchObject({ uid: undefined, finished: undefined });
    expect(outcome.state.terminalState).toBe('');
  });

  /** a-1 completes (at 7), a user deletes it (at `seconds`), then a-0's completion (at 12) arrives. */
  const a1DeletedAt = (seconds: number) =>
    given(allOf, withUid(jobSucceeded('a', 1, { seconds: 7 }), 'uid-1'), deletedWithUid(jobDeleted('a', 1, seconds), 'uid-1'), withUid(jobSucceeded('a', 0, { seconds: 12 }), 'uid-0'));

  it('given the other Job\'s success before that deletion, when it arrives, then the JobSet completes as on the cluster', () => {
    const outcome = a1DeletedAt(27).whenSettled({ now: at(27) });
    expect(outcome.state.terminalState).toBe('Completed');
    // The create the fold issued for a-1 at its deletion: the cluster's JobSet had completed before it.
    expect(outcome.state.children[jobName('a', 1)]).toBeUndefined();
  });

  it('given the other Job\'s success after that deletion, when it arrives, then the JobSet runs on (the deleted Job was gone by then)', () => {
    const outcome = a1DeletedAt(10).whenSettled({ now: at(12) });
    expect(outcome.state.terminalState).toBe('');
    expect(commandsOf(outcome.commands)).toEqual([]);
  });
});

// The failure's mirror: a failed current-attempt Job a user deleted, both folded before the
// JobSet (or before its pass on the failure). The cluster's controller acted on the failure.
describe('a user deleted a failed child Job, and the JobSet is seen after both', () => {
  it('given the failure and then the deletion before the JobSet, when reconciled, then the failure policy acts on it', () => {
    const outcome = given(
      withUid(jobFailed('a', 0, { seconds: 1, reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' }), 'uid-0'),
      deletedWithUid(jobDeleted('a', 0, 6), 'uid-0'),
      jobSetObserved({ replicatedJobs: [{ name: 'a' }], failurePolicy: { maxRestarts: 0 } }),
    ).whenSettled({ now: at(6) });
    expect(outcome.state.terminalState).toBe('Failed');
    expect(outcome.status.replicatedJobsStatus[0]).toMatchObject({ failed: 0 });
  });
});

/**
 * An InOrder JobSet suspended at 0:05 and resumed at `resumedAt`, its Job ready at 1:06 (the walk
 * complete) and deleted by a user at 1:36 (the walk begins again): the events, and the conditions
 * once settled after them in `order`.
 */
function resumedWalkDeleted(resumedAt: number) {
  const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'workers' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, suspend });
  const events = [
    versioned(1, jobSetObserved(spec(false), { seconds: 0 })),
    versioned(2, jobSetObserved(spec(true), { seconds: 5 })),
    versioned(3, jobSetObserved(spec(false), { seconds: resumedAt })),
    withUid(versioned(4, jobReady('workers', 0, { seconds: 66 })), 'w0'),
    deletedWithUid(jobDeleted('workers', 0, 96), 'w0'),
  ];
  return (order: readonly number[]) => given(...order.map((i) => events[i] as JobSetObservation)).whenSettled({ now: at(96) }).status.conditions.map((c) => `${c.type}=${c.status}`);
}
const resumedUpstream = ['StartupPolicyInProgress=True', 'Suspended=False', 'StartupPolicyCompleted=False'];

// user-delete history-49, shrunk: the walk completed while the JobSet was resumed (upstream turned
// Suspended False / ResumeJobs then), and a user deleted the ready Job after, so the walk began
// again. Delivered with the suspension late, or the deletion before the ready snapshot, the fold's
// view never shows the walk complete: the evidence's times do.
describe('an InOrder JobSet suspended, resumed, whose walk completed and whose ready Job a user then deleted', () => {
  const conditions = resumedWalkDeleted(30);

  it('given the events in order, when settled, then Suspended is False: the walk completed while resumed', () => {
    expect(conditions([0, 1, 2, 3, 4])).toEqual(resumedUpstream);
  });

  it('given the suspension after the resumption, or the deletion before the ready snapshot, when settled, then the same', () => {
    expect(conditions([0, 2, 3, 4, 1])).toEqual(resumedUpstream);
    expect(conditions([0, 1, 4, 2, 3])).toEqual(resumedUpstream);
    expect(conditions([0, 2, 4, 3, 1])).toEqual(resumedUpstream);
  });
});

// user-delete seed 99 history-43, shrunk: the same, the resumption and the ready snapshot that
// completed the walk in one second; the resourceVersions say the resumption came first.
describe('an InOrder JobSet resumed in the second its walk completed, whose ready Job a user then deleted', () => {
  const conditions = resumedWalkDeleted(66);

  it('given the suspension last, when settled, then Suspended is False as in order: the walk completed after the resumption', () => {
    expect(conditions([0, 1, 2, 3, 4])).toEqual(resumedUpstream);
    expect(conditions([0, 2, 3, 4, 1])).toEqual(resumedUpstream);
    expect(conditions([2, 0, 3, 4, 1])).toEqual(resumedUpstream);
  });
});
