import { describe, expect, it } from 'vitest';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { at, jobFailed, jobObserved, jobSetObserved, versioned as v } from './support/builders.ts';
import { conditionsOf, given } from './support/given.ts';

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
