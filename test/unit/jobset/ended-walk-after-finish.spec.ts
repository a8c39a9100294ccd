import { describe, expect, it } from 'vitest';
import { at, jobDeleted, jobFailed, jobReady, jobSetObserved, jobSucceeded, versioned } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21, for a JobSet the cluster's controller runs (user-delete seed 5 history-1): the first
// attempt's walk completed before the failure that restarted the JobSet, and the second attempt's
// walk and success completed it, the first attempt's ready snapshot arriving only after that
// finish. The cluster wrote `StartupPolicyCompleted` before `RestartingJobSet` (the first walk),
// and updated it in place for the second; the fold places it there though the JobSet finished.

const jobSet = versioned(1, jobSetObserved({
  replicatedJobs: [{ name: 'workers' }],
  startupPolicy: { startupPolicyOrder: 'InOrder' },
  successPolicy: { operator: 'Any', targetReplicatedJobs: ['workers'] },
  failurePolicy: { maxRestarts: 2 },
}));
const readyFirst = versioned(10, jobReady('workers', 0, { seconds: 1 }));
const failedFirst = versioned(11, jobFailed('workers', 0, { seconds: 2 }));
const deletedFirst = jobDeleted('workers', 0, 3);
const readySecond = versioned(12, jobReady('workers', 0, { seconds: 4, attempt: 1 }));
const succeededSecond = versioned(13, jobSucceeded('workers', 0, { seconds: 5, attempt: 1 }));

describe('Given a JobSet the cluster runs, restarted after its first walk completed, then completed', () => {
  const inOrder = given(jobSet, readyFirst, failedFirst, deletedFirst, readySecond, succeededSecond).whenSettled({ now: at(5) });

  it('when the first attempt\'s ready snapshot arrives after the finish, StartupPolicyCompleted stands before RestartingJobSet, as the cluster wrote them', () => {
    const late = given(jobSet, failedFirst, deletedFirst, readySecond, succeededSecond, readyFirst).whenSettled({ now: at(5) });
    expect(conditionsOf(inOrder.status).map(({ type }) => type)).toEqual(['StartupPolicyInProgress', 'StartupPolicyCompleted', 'RestartingJobSet', 'Completed']);
    expect(late.state.terminalState).toBe('Completed');
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });
});
