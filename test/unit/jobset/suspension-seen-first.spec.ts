import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobObserved, jobSetObserved } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

// Issue 21 for JobSets: what the cluster's controller did on a JobSet spec reaches the log before
// the spec. Counterexamples of test/property/jobset/generated-orders.property.spec.ts (generated
// JobSet histories with suspensions), shrunk.

/** An observation with the resourceVersion the cluster gave it (KEP-5504: later is newer, per resource type). */
const v = (version: number, observation: JobSetObservation): JobSetObservation =>
  observation.type === 'JobObserved'
    ? { ...observation, job: { ...observation.job, metadata: { ...observation.job.metadata, resourceVersion: String(version) } } }
    : observation.type === 'JobSetObserved'
      ? { ...observation, jobSet: { ...observation.jobSet, metadata: { ...observation.jobSet.metadata, resourceVersion: String(version) } } }
      : observation;

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
