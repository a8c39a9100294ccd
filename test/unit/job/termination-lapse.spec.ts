import { describe, expect, it } from 'vitest';
import type { JobCommand } from '../../../shared/job/commands.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { aJob, aPod, at, jobObserved, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// Issue 21, "nothing wedged": a deletion of a Job jobfold runs that the forwarder's guard refused
// (shared/job/deletion-guard.ts) leaves no trace in the cluster. Once the deletion expectation
// expires unseen, the pod is active again in jobfold's view (shared/job/termination-lapse.ts),
// as upstream's is when its expectations expire, and the next sync decides on it afresh.

const managed = { managedBy: JOBFOLD_CONTROLLER_NAME };
const job = aJob({ ...managed, completions: 4, parallelism: 2 });
const scaledDown = withSpec(job, { parallelism: 1 });
const running = [podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1))];
const terminations = (commands: readonly JobCommand[]) => commands.flatMap((c) => (c.type === 'TerminatePod' ? [c.commandId] : []));
const TIMEOUT_S = 300;

describe('a managed Job whose excess-pod deletion is never seen', () => {
  const decided = [tick(at(0)), ...running, jobObserved(scaledDown, at(10))];

  it('given the scale-down, when reconciled, then one pod is terminated and counted terminating', () => {
    const outcome = given(job, ...decided).when({ now: at(10) });
    expect(terminations(outcome.commands)).toEqual(['job-uid/terminate/a']);
    expect(outcome.status).toMatchObject({ active: 1, terminating: 1 });
  });

  it('when reconciled before the expectation expires, then nothing lapses', () => {
    given(job, ...decided, tick(at(10 + TIMEOUT_S)))
      .when({ now: at(10 + TIMEOUT_S) })
      .then((outcome) => expect(outcome.decisions.map((d) => d.type)).not.toContain('PodsTerminationExpired'));
  });

  it('when reconciled after the expectation expired, then the pod is active again and the Job is woken to decide on it', () => {
    const outcome = given(job, ...decided, tick(at(11 + TIMEOUT_S))).when({ now: at(11 + TIMEOUT_S) });
    expect(outcome.decisions).toMatchObject([{ type: 'PodsTerminationExpired', pods: [{ uid: 'a', name: 'a' }] }]);
    expect(terminations(outcome.commands)).toEqual([]);
    expect(outcome.status).toMatchObject({ active: 2, terminating: 0 });
    expect(Date.parse(outcome.wakeAt ?? '')).toBeLessThanOrEqual(Date.parse(at(12 + TIMEOUT_S)));
    // Its finalizer is not asked for again: it stays on a pod whose deletion was refused.
    expect(outcome.commands.filter((c) => c.type === 'RemovePodFinalizer')).toEqual([]);
  });

  it('given the lapse, when the next sync still reads the scale-down, then it deletes again, the same command, which the forwarder applies afresh', () => {
    const outcome = given(job, ...decided, tick(at(11 + TIMEOUT_S)), tick(at(12 + TIMEOUT_S))).when({ now: at(12 + TIMEOUT_S) });
    expect(terminations(outcome.commands)).toEqual(['job-uid/terminate/a']);
    expect(outcome.status).toMatchObject({ active: 1, terminating: 1 });
  });

  it('given the lapse, when the scale-up that undid the scale-down has arrived, then nothing is deleted and both pods count active', () => {
    given(job, ...decided, jobObserved(withSpec(job, { parallelism: 2 }), at(12)), tick(at(11 + TIMEOUT_S)), tick(at(12 + TIMEOUT_S)))
      .when({ now: at(12 + TIMEOUT_S) })
      .then((outcome) => {
        expect(terminations(outcome.commands)).toEqual([]);
        expect(outcome.status).toMatchObject({ active: 2, terminating: 0 });
      });
  });

  it('given the deletion seen before the expectation expired, then nothing lapses', () => {
    const deleting = podObserved(aPod({ name: 'a', deletionTimestamp: at(12) }), at(12));
    given(job, ...decided, deleting, tick(at(11 + TIMEOUT_S)))
      .when({ now: at(11 + TIMEOUT_S) })
      .then((outcome) => {
        expect(outcome.decisions.map((d) => d.type)).not.toContain('PodsTerminationExpired');
        expect(outcome.status).toMatchObject({ active: 1, terminating: 1 });
      });
  });

  it('given the pod finished while its deletion was refused, then it counts as it ended', () => {
    const succeeded = podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(200));
    given(job, ...decided, succeeded, tick(at(11 + TIMEOUT_S)))
      .when({ now: at(11 + TIMEOUT_S) })
      .then((outcome) => {
        expect(outcome.decisions.map((d) => d.type)).not.toContain('PodsTerminationExpired');
        expect(outcome.status).toMatchObject({ succeeded: 1, terminating: 0 });
      });
  });
});

describe('a managed Job whose suspension deletion is never seen', () => {
  it('given the resumption arrived meanwhile, when the expectation expires, then the pod is active again and nothing is deleted', () => {
    const one = aJob({ ...managed, completions: 4, parallelism: 1 });
    const suspended = withSpec(one, { suspend: true });
    given(one, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), jobObserved(suspended, at(10)), jobObserved(withSpec(one, { suspend: false }), at(20)), tick(at(11 + TIMEOUT_S)), tick(at(12 + TIMEOUT_S)))
      .when({ now: at(12 + TIMEOUT_S) })
      .then((outcome) => {
        expect(terminations(outcome.commands)).toEqual([]);
        expect(outcome.status).toMatchObject({ active: 1, terminating: 0 });
      });
  });
});

describe('a Job jobfold does not run', () => {
  it('keeps the pods it computed terminated terminating: their deletion is the cluster controller\'s', () => {
    const unmanaged = aJob({ completions: 4, parallelism: 2 });
    given(unmanaged, tick(at(0)), ...running, jobObserved(withSpec(unmanaged, { parallelism: 1 }), at(10)), tick(at(11 + TIMEOUT_S)))
      .when({ now: at(11 + TIMEOUT_S) })
      .then((outcome) => {
        expect(outcome.decisions.map((d) => d.type)).not.toContain('PodsTerminationExpired');
        expect(outcome.status).toMatchObject({ active: 1, terminating: 1 });
      });
  });
});
