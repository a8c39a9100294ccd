import { describe, expect, it } from 'vitest';
import { jobSetObserved, at } from './support/builders.ts';
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
