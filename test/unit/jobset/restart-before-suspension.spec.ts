import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobDeleted, jobFailed, jobName, jobObserved, jobSetObserved, jobSucceeded, versioned as v } from './support/builders.ts';
import { commandsOf, conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets: a child Job's failure and the JobSet's suspension in the same second.
// Counterexample of test/property/jobset/generated-orders.property.spec.ts (history-50), shrunk.

describe('a child Job failing in the same second as its JobSet is suspended, the failure first on the cluster', () => {
  const spec = { replicatedJobs: [{ name: 'w' }], failurePolicy: { maxRestarts: 1 } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 5 }));
  const running = v(2, jobObserved('w', 0, { seconds: 5, active: 1 }));
  const failed = v(3, jobFailed('w', 0, { seconds: 7 }));
  const suspended = v(4, jobSetObserved({ ...spec, suspend: true }, { seconds: 7 }));
  const order = (...observations: JobSetObservation[]) =>
    conditionsOf(given(...observations).whenSettled({ now: at(7) }).status).map((c) => `${c.type}=${c.status}/${c.reason}`);

  it('in order: the restart is written first, then the suspension', () => {
    expect(order(created, running, failed, suspended)).toEqual(['RestartingJobSet=False/JobSetSuspended', 'Suspended=True/SuspendedJobs']);
  });

  it('given the suspension first, when the older failure arrives, then its restart goes before Suspended, as in order', () => {
    expect(order(suspended, created, running, failed)).toEqual(order(created, running, failed, suspended));
  });

  it('given a failure newer than the suspension in the same second, when reconciled, then Suspended stays first', () => {
    const failedAfter = v(5, jobFailed('w', 0, { seconds: 7 }));
    expect(order(suspended, created, running, failedAfter)).toEqual(order(created, running, suspended, failedAfter));
    expect(order(created, running, suspended, failedAfter)[0]).toMatch(/^Suspended=True/);
  });
});

describe('the same, resumed a second later, the suspended observation arriving after the resumed one (dependsOn history-30)', () => {
  const spec = { replicatedJobs: [{ name: 'w' }], failurePolicy: { maxRestarts: 1 } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 5 }));
  const running = v(2, jobObserved('w', 0, { seconds: 5, active: 1 }));
  const failed = v(3, jobFailed('w', 0, { seconds: 7 }));
  const suspended = v(4, jobSetObserved({ ...spec, suspend: true }, { seconds: 7 }));
  const resumed = v(5, jobSetObserved({ ...spec, suspend: false }, { seconds: 8 }));
  const order = (...observations: JobSetObservation[]) =>
    conditionsOf(given(...observations).whenSettled({ now: at(8) }).status).map((c) => `${c.type}=${c.status}/${c.reason}`);

  it('given the restart decided and the resumption seen before the suspension, when the suspension arrives, then Suspended goes after RestartingJobSet, as in order', () => {
    expect(order(created, running, failed, suspended, resumed)).toEqual(['RestartingJobSet=False/JobSetSuspended', 'Suspended=False/ResumeJobs']);
    expect(order(failed, running, created, resumed, suspended)).toEqual(order(created, running, failed, suspended, resumed));
  });
});

describe('a JobSet suspended and resumed, restarted, then suspended and resumed again, every suspension arriving after the last resumption (history-35)', () => {
  const spec = { replicatedJobs: [{ name: 'w' }], failurePolicy: { maxRestarts: 1 } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 0 }));
  const suspended = v(2, jobSetObserved({ ...spec, suspend: true }, { seconds: 31 }));
  const resumed = v(3, jobSetObserved({ ...spec, suspend: false }, { seconds: 96 }));
  const failed = v(4, jobFailed('w', 0, { seconds: 186 }));
  const suspendedAgain = v(5, jobSetObserved({ ...spec, suspend: true }, { seconds: 221 }));
  const resumedAgain = v(6, jobSetObserved({ ...spec, suspend: false }, { seconds: 252 }));
  const order = (...observations: JobSetObservation[]) =>
    conditionsOf(given(...observations).whenSettled({ now: at(252) }).status).map((c) => `${c.type}=${c.status}/${c.reason}`);

  it('given the restart decided on the last resumption, when the suspension after the failure arrives after the first one, then RestartingJobSet is False / JobSetSuspended, as in order', () => {
    expect(order(created, suspended, resumed, failed, suspendedAgain, resumedAgain)).toContain('RestartingJobSet=False/JobSetSuspended');
    expect(order(resumedAgain, suspended, created, failed, suspendedAgain, resumed)).toEqual(order(created, suspended, resumed, failed, suspendedAgain, resumedAgain));
  });
});

// history-45: the suspension's observation arrives after the finish, the restart before it.
describe('a JobSet restarted, then suspended and resumed, then completed, its suspended observation arriving last', () => {
  const spec = { replicatedJobs: [{ name: 'w' }], failurePolicy: { maxRestarts: 1 } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 5 }));
  const failed = v(2, jobFailed('w', 0, { seconds: 5 }));
  const deleted = jobDeleted('w', 0, 6);
  const suspended = v(3, jobSetObserved({ ...spec, suspend: true }, { seconds: 36 }));
  const resumed = v(4, jobSetObserved({ ...spec, suspend: false }, { seconds: 37 }));
  const running = v(5, jobObserved('w', 0, { seconds: 40, attempt: 1, active: 1 }));
  const done = v(6, jobSucceeded('w', 0, { seconds: 69, attempt: 1 }));
  const order = (...observations: JobSetObservation[]) =>
    conditionsOf(given(...observations).whenSettled({ now: at(69) }).status).map((c) => `${c.type}=${c.status}/${c.reason}`);

  it('in order: RestartingJobSet (written at the restart) before Suspended, then Completed', () => {
    expect(order(created, failed, deleted, suspended, resumed, running, done)).toEqual([
      'RestartingJobSet=False/JobSetCompleted',
      'Suspended=False/ResumeJobs',
      'Completed=True/AllJobsCompleted',
    ]);
  });

  it('given the resumed spec first and the suspended one last, when reconciled, then the late Suspended goes after the earlier restart, as in order', () => {
    expect(order(resumed, failed, deleted, running, done, created, suspended)).toEqual(order(created, failed, deleted, suspended, resumed, running, done));
  });

  it('given the suspended spec first and the resumed one after the finish, when reconciled, then Suspended turns False / ResumeJobs, as the cluster resumed it before the finish', () => {
    expect(order(failed, suspended, deleted, running, done, resumed, created)).toEqual(order(created, failed, deleted, suspended, resumed, running, done));
  });
});

// history-18: an InOrder JobSet resumed before its walk completed keeps Suspended True on the
// cluster (upstream turns it False only once the walk completes), with the restart before the
// suspension False / JobSetSuspended; the suspended observation arrives after the resumed one.
describe('an InOrder JobSet restarted, suspended and resumed mid-walk, its suspended observation arriving late', () => {
  const spec = { replicatedJobs: [{ name: 'a' }, { name: 'b' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 1 } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 30 }));
  const started = v(2, jobObserved('a', 0, { seconds: 30, active: 1 }));
  const failed = v(3, jobFailed('a', 0, { seconds: 60 }));
  const suspended = v(4, jobSetObserved({ ...spec, suspend: true }, { seconds: 65 }));
  const resumed = v(5, jobSetObserved({ ...spec, suspend: false }, { seconds: 107 }));
  const order = (...observations: JobSetObservation[]) =>
    conditionsOf(given(...observations).whenSettled({ now: at(107) }).status).map((c) => `${c.type}=${c.status}/${c.reason}`);

  it('in order: Suspended stays True, and the restart is False / JobSetSuspended', () => {
    expect(order(created, started, failed, suspended, resumed)).toEqual([
      'StartupPolicyInProgress=True/InOrderStartupPolicyInProgress',
      'RestartingJobSet=False/JobSetSuspended',
      'Suspended=True/SuspendedJobs',
    ]);
  });

  it('given the resumed spec first and the failure last, when reconciled, then the late suspension is written as the cluster left it', () => {
    expect(order(resumed, started, suspended, created, failed)).toEqual(order(created, started, failed, suspended, resumed));
  });

  it('given both specs first and the failure last, when the restart is decided on the resumed spec, then it is False / JobSetSuspended, as the suspension left it', () => {
    expect(order(suspended, resumed, started, failed, created)).toEqual(order(created, started, failed, suspended, resumed));
  });
});

// history-44: the restart answered a failure after the JobSet was resumed; the suspended spec
// arrived after the failure, the resumed one last.
describe('a JobSet suspended, resumed and then restarted, its specs arriving after the failure', () => {
  const spec = { replicatedJobs: [{ name: 'w' }], failurePolicy: { maxRestarts: 1 } };
  const created = v(1, jobSetObserved({ ...spec, suspend: false }, { seconds: 0 }));
  const suspended = v(2, jobSetObserved({ ...spec, suspend: true }, { seconds: 10 }));
  const resumed = v(3, jobSetObserved({ ...spec, suspend: false }, { seconds: 60 }));
  const running = v(4, jobObserved('w', 0, { seconds: 60, active: 1 }));
  const failed = v(5, jobFailed('w', 0, { seconds: 65 }));
  const order = (...observations: JobSetObservation[]) =>
    conditionsOf(given(...observations).whenSettled({ now: at(65) }).status).map((c) => `${c.type}=${c.status}/${c.reason}`);

  it('in order: RestartingJobSet True, the JobSet running when it restarted', () => {
    expect(order(created, suspended, resumed, running, failed)).toContain('RestartingJobSet=True/DefaultFailurePolicy');
  });

  it('given the failure first, when the older suspended spec arrives, then RestartingJobSet stays True, as in order', () => {
    expect(order(running, failed, created, suspended, resumed)).toEqual(order(created, suspended, resumed, running, failed));
  });
});

// The suspension folded before the failure that came first on the cluster: the fold, holding the
// suspended spec, created every Job of the InOrder JobSet (upstream creates them all, suspended);
// the cluster's controller had restarted on the failure before that spec existed and never made
// them. A restart leaves them out instead of deleting them (a deletion never answered would hold
// a BlockingRecreate restart for good).
const blockingInOrder = (suspend: boolean) => ({
  replicatedJobs: [{ name: 'w', replicas: 2 }, { name: 'd', replicas: 2 }],
  startupPolicy: { startupPolicyOrder: 'InOrder' },
  failurePolicy: { maxRestarts: 1, restartStrategy: 'BlockingRecreate' },
  suspend,
}) as const;

describe('an InOrder BlockingRecreate JobSet suspended after a failure, the suspension folded first', () => {
  const running = v(1, jobSetObserved(blockingInOrder(false), { seconds: 5 }));
  const suspended = v(4, jobSetObserved(blockingInOrder(true), { seconds: 36 }));
  const w1Ready = v(2, jobObserved('w', 1, { seconds: 5, active: 1, ready: 1 }));
  const w1Failed = v(3, jobFailed('w', 1, { seconds: 35 }));

  it('given the failure after the suspension, when reconciled, then the restart deletes only the Jobs the cluster made', () => {
    const outcome = given(w1Ready, running, suspended, w1Failed).whenSettled({ now: at(36) });
    expect(outcome.state.restarts).toBe(1);
    expect(commandsOf(outcome.commands).filter((c) => c.startsWith('DeleteJob'))).toEqual([`DeleteJob ${jobName('w', 0)}`, `DeleteJob ${jobName('w', 1)}`]);
  });

  it('given then the two deletions, when reconciled, then the next attempt is created, suspended, as in order', () => {
    const deleted = (index: number, seconds: number) => jobDeleted('w', index, seconds);
    const late = given(w1Ready, running, suspended, w1Failed, deleted(1, 109), deleted(0, 108)).whenSettled({ now: at(109) });
    const inOrder = given(running, w1Ready, w1Failed, suspended, deleted(0, 108), deleted(1, 109)).whenSettled({ now: at(109) });
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
    expect(inOrder.status.replicatedJobsStatus.map((r) => r.suspended)).toEqual([2, 2]);
  });
});

// message-pattern history-14, shrunk: the same, the failure and the suspension in one second. The
// resourceVersions order them (one etcd): the failure's snapshot is older than the suspended spec
// the fold created on, so the cluster restarted before that spec existed.
describe('an InOrder BlockingRecreate JobSet suspended in the second of a failure, the suspension folded first', () => {
  const running = v(1, jobSetObserved(blockingInOrder(false), { seconds: 5 }));
  const w1Ready = v(2, jobObserved('w', 1, { seconds: 5, active: 1, ready: 1 }));
  const w1Failed = v(3, jobFailed('w', 1, { seconds: 35 }));
  const suspended = v(4, jobSetObserved(blockingInOrder(true), { seconds: 35 }));
  const deleted = (index: number, seconds: number) => jobDeleted('w', index, seconds);

  it('given the failure after the suspension, then the two deletions, when reconciled, then the next attempt is created, suspended, as in order', () => {
    const late = given(suspended, w1Ready, w1Failed, running, deleted(1, 37), deleted(0, 36)).whenSettled({ now: at(37) });
    const inOrder = given(running, w1Ready, w1Failed, suspended, deleted(0, 36), deleted(1, 37)).whenSettled({ now: at(37) });
    expect(inOrder.state.restarts).toBe(1);
    expect(inOrder.status.replicatedJobsStatus.map((r) => r.suspended)).toEqual([2, 2]);
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
  });
});

// user-delete seed 8 history-6, shrunk: the walk completed, a failure restarted the JobSet while it
// ran, and the suspension came in the failure's second, after it (by resourceVersion). The
// cluster's passes after the restart began the next walk before the suspension.
describe('an InOrder JobSet restarted while it ran, suspended in the failure\'s second after it', () => {
  const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'w' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 1 }, suspend });
  const events = [
    v(1, jobSetObserved(spec(false), { seconds: 30 })),
    v(2, jobObserved('w', 0, { seconds: 30, active: 1 })),
    v(3, jobObserved('w', 0, { seconds: 31, active: 1, ready: 1 })),
    v(4, jobFailed('w', 0, { seconds: 36 })),
    v(5, jobSetObserved(spec(true), { seconds: 36 })),
    jobDeleted('w', 0, 37),
  ];
  const conditions = (order: readonly number[]) => conditionsOf(given(...order.map((i) => events[i] as JobSetObservation)).whenSettled({ now: at(37) }).status).map((c) => `${c.type}=${c.status}`);
  const upstream = ['StartupPolicyInProgress=True', 'StartupPolicyCompleted=False', 'RestartingJobSet=False', 'Suspended=True'];

  it('in order: the next walk began (InProgress True, Completed False) before the suspension', () => {
    expect(conditions([0, 1, 2, 3, 4, 5])).toEqual(upstream);
  });

  it('given the suspension before the failure and the JobSet, when settled, then the same', () => {
    expect(conditions([1, 2, 4, 0, 3, 5])).toEqual(upstream);
    expect(conditions([2, 0, 4, 1, 3, 5])).toEqual(upstream);
  });
});

// message-pattern seed 7 history-17, shrunk: the same restart while the JobSet ran, the next
// attempt's Job ready before the suspension; its ready snapshot arrives after the fold, holding
// the suspension, began that walk: the walk completed before the suspension, as in order.
describe('an InOrder JobSet restarted while it ran, whose next walk completed before a later suspension', () => {
  const spec = (suspend: boolean) => ({ replicatedJobs: [{ name: 'w' }], startupPolicy: { startupPolicyOrder: 'InOrder' }, failurePolicy: { maxRestarts: 1 }, suspend });
  const events = [
    v(1, jobSetObserved(spec(false), { seconds: 1 })),
    v(2, jobObserved('w', 0, { seconds: 1, active: 1, ready: 1 })),
    v(3, jobFailed('w', 0, { seconds: 1 })),
    jobDeleted('w', 0, 41),
    v(4, jobObserved('w', 0, { seconds: 41, attempt: 1, active: 1, ready: 1 })),
    v(5, jobSetObserved(spec(true), { seconds: 71 })),
  ];
  const conditions = (order: readonly number[]) => conditionsOf(given(...order.map((i) => events[i] as JobSetObservation)).whenSettled({ now: at(71) }).status).map((c) => `${c.type}=${c.status}`);

  it('given the suspension, the failure and the JobSet before the next attempt\'s ready snapshot, when settled, then the end is as in order', () => {
    const inOrder = conditions([0, 1, 2, 3, 4, 5]);
    expect(inOrder).toEqual(['StartupPolicyInProgress=False', 'StartupPolicyCompleted=True', 'RestartingJobSet=False', 'Suspended=True']);
    expect(conditions([5, 2, 0, 1, 3, 4])).toEqual(inOrder);
  });
});
