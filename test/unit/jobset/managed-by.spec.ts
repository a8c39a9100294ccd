import { describe, expect, it } from 'vitest';
import { jobObserved, jobSetObserved, at } from './support/builders.ts';
import { commandsOf, given } from './support/given.ts';

const jobSet = (managedBy?: string) =>
  jobSetObserved({ replicatedJobs: [{ name: 'workers', replicas: 2 }], ...(managedBy ? { managedBy } : {}) });

describe('Given a JobSet and its spec.managedBy', () => {
  it.each([
    ['unset', undefined],
    ['the JobSet controller', 'jobset.sigs.k8s.io/jobset-controller'],
    ['jobfold', 'jobfold.io/jobset-controller'],
  ])('when managed by %s, it is reconciled: its Jobs are created', (_label, managedBy) => {
    const outcome = given(jobSet(managedBy)).whenSettled({ now: at(0) });
    expect(commandsOf(outcome.commands)).toEqual(['CreateJob js-workers-0', 'CreateJob js-workers-1']);
  });

  it('when another controller manages it, nothing is decided', () => {
    const outcome = given(jobSet('kueue.x-k8s.io/multikueue')).whenSettled({ now: at(0) });
    expect(outcome.commands).toEqual([]);
    expect(outcome.events).toEqual([]);
  });
});

describe('Given a JobSet another controller manages, with child Jobs that controller created', () => {
  it('when they run, jobfold computes no status for it: no row per replicated job, no condition', () => {
    const outcome = given(
      jobSet('kueue.x-k8s.io/multikueue'),
      jobObserved('workers', 0, { seconds: 5, active: 1, ready: 1 }),
    ).whenSettled({ now: at(5) });
    expect(outcome.status.replicatedJobsStatus).toEqual([]);
    expect(outcome.status.conditions).toEqual([]);
    expect(outcome.commands).toEqual([]);
  });
});
