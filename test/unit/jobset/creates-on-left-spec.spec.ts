import { describe, expect, it } from 'vitest';
import { at, jobDeleted, jobFailed, jobReady, jobSetObserved, versioned } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21, for a JobSet the cluster's controller runs (user-delete seed 21 history-55 delivery 6,
// and six histories at seeds 7, 8, 99 and 5): a restart whose Jobs the fold created on a suspended
// spec (all of them, suspended, as upstream's controller creates them on a suspended JobSet) when
// the cluster had already resumed the JobSet, the resumption arriving after. The cluster's
// controller created on the resumed spec: the Jobs its InOrder walk reached, running; the others
// never. The computed creates it never made suspended count in no `replicatedJobsStatus`.

const spec = (suspend: boolean) => ({
  replicatedJobs: [{ name: 'workers' }, { name: 'driver' }],
  startupPolicy: { startupPolicyOrder: 'InOrder' },
  failurePolicy: { maxRestarts: 2 },
  suspend,
});

const created = versioned(1, jobSetObserved(spec(false)));
const workersReady = versioned(10, jobReady('workers', 0, { seconds: 1 }));
const driverReady = versioned(11, jobReady('driver', 0, { seconds: 2 }));
const driverFailed = versioned(12, jobFailed('driver', 0, { seconds: 41 }));
const suspended = versioned(2, jobSetObserved(spec(true), { seconds: 46 }));
const resumed = versioned(3, jobSetObserved(spec(false), { seconds: 51 }));
const workersDeleted = jobDeleted('workers', 0, 52);
const driverDeleted = jobDeleted('driver', 0, 53);

describe('Given a JobSet the cluster runs, restarted, suspended and resumed before the restart\'s Jobs were created', () => {
  const inOrder = given(created, workersReady, driverReady, driverFailed, suspended, resumed, workersDeleted, driverDeleted).whenSettled({ now: at(53) });

  it('when the resumption arrives after the deletions, the Jobs created suspended on the spec the cluster had left count as no suspended Job', () => {
    const late = given(created, workersReady, driverReady, driverFailed, suspended, workersDeleted, driverDeleted, resumed).whenSettled({ now: at(53) });
    // The fold's computed creates: every Job of attempt 1, suspended; then, resumed, the walk's first resumed.
    expect(late.childJobs.filter((job) => job.restartAttempt === 1).map((job) => `${job.name}:${job.suspend}`)).toEqual(['js-driver-0:true', 'js-workers-0:false']);
    expect(late.status.replicatedJobsStatus).toEqual(inOrder.status.replicatedJobsStatus);
    expect(late.status.replicatedJobsStatus.map((r) => r.suspended)).toEqual([0, 0]);
    expect(conditionsOf(late.status)).toEqual(conditionsOf(inOrder.status));
  });

  it('when the resumption came after the creates on the cluster\'s clock, the Jobs created suspended count as suspended', () => {
    const resumedLater = versioned(3, jobSetObserved(spec(false), { seconds: 60 }));
    const outcome = given(created, workersReady, driverReady, driverFailed, suspended, workersDeleted, driverDeleted, resumedLater).whenSettled({ now: at(60) });
    expect(outcome.status.replicatedJobsStatus.map((r) => r.suspended)).toEqual([0, 1]);
  });
});
