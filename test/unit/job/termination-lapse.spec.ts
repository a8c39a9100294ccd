import { describe, expect, it } from 'vitest';
import type { JobCommand } from '../../../shared/job/commands.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { aJob, aPod, at, jobObserved, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// Issue 21, "nothing wedged": a deletion of a Job jobfold runs that the forwarder's guard refused
// (shared/job/deletion-guard.ts) leaves no trace in the cluster. Once the deletion expectation
// expires unseen, the pod is active again in jobfold's view (shared/job/termination-lapse.ts),
// as upstream's is when its expectations expire, and that sync decides on it afresh.

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

  it('when reconciled after the expectation expired while the scale-down still stands, then that sync takes the pod back and asks its deletion again, the same command, which the forwarder applies afresh', () => {
    const outcome = given(job, ...decided, tick(at(11 + TIMEOUT_S))).when({ now: at(11 + TIMEOUT_S) });
    expect(outcome.decisions.map((d) => d.type)).toEqual(['PodsTerminationExpired', 'PodsTerminationRequested', 'PodFinalizersRemovalRequested']);
    expect(outcome.decisions[0]).toMatchObject({ pods: [{ uid: 'a', name: 'a' }] });
    expect(terminations(outcome.commands)).toEqual(['job-uid/terminate/a']);
    // The finalizer removal asked with it is a new command (its first was refused with the deletion).
    expect(outcome.commands.filter((c) => c.type === 'RemovePodFinalizer').map((c) => c.commandId)).toEqual(['job-uid/finalizer/a/2']);
    expect(outcome.status).toMatchObject({ active: 1, terminating: 1 });
  });

  it('given the scale-up that undid the scale-down arrived, when the expectation expires, then the pod is active again, nothing is deleted and no finalizer asked', () => {
    given(job, ...decided, jobObserved(withSpec(job, { parallelism: 2 }), at(12)), tick(at(11 + TIMEOUT_S)))
      .when({ now: at(11 + TIMEOUT_S) })
      .then((outcome) => {
        expect(outcome.decisions.map((d) => d.type)).toEqual(['PodsTerminationExpired', 'JobStatusSent']);
        expect(outcome.commands.map((c) => c.type)).toEqual(['UpdateJobStatus']);
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
    given(one, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), jobObserved(suspended, at(10)), jobObserved(withSpec(one, { suspend: false }), at(20)), tick(at(11 + TIMEOUT_S)))
      .when({ now: at(11 + TIMEOUT_S) })
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

describe('a managed Job that fails while a refused deletion is unseen', () => {
  const failing = aJob({ ...managed, completions: 4, parallelism: 2, backoffLimit: 0 });
  const history = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1)), jobObserved(withSpec(failing, { parallelism: 1 }), at(10)), podObserved(aPod({ name: 'b', phase: 'Failed' }), at(20))];

  it('given its failure met while the deletion is awaited, then the outcome waits for the deletion expectation, as upstream\'s does', () => {
    const outcome = given(failing, ...history).when({ now: at(20) });
    expect(outcome.status).toMatchObject({ terminating: 1, conditions: [] });
  });

  it('when its deletion lapses, then that sync deletes it as the finishing Job\'s pod (a cause the forwarder never refuses)', () => {
    const outcome = given(failing, ...history, tick(at(11 + TIMEOUT_S))).when({ now: at(11 + TIMEOUT_S) });
    expect(outcome.decisions.map((d) => d.type)).toContain('PodsTerminationExpired');
    expect(outcome.commands.filter((c) => c.type === 'TerminatePod')).toMatchObject([{ commandId: 'job-uid/terminate/a', cause: 'JobFinishing' }]);
  });
});

// Step 2 of the refusals stream: the deletion jobfold asked for was refused, so it released
// nothing (pod-record.ts isReleased). A pod deleted after that deletion stopped being expected
// (its request plus the expectations timeout, on the cluster's clock) was deleted by someone
// else, and counts as upstream's `isPodFailed` counts it: failed while it ran, unless only
// Failed pods are replaced. Whichever of the lapse and the deletion reaches jobfold first.
describe('a managed Job whose refused excess-pod deletion a user makes later', () => {
  const undone = jobObserved(withSpec(job, { parallelism: 2 }), at(12));
  const refused = [tick(at(0)), ...running, jobObserved(scaledDown, at(10)), undone];
  const userDeletes = podObserved(aPod({ name: 'a', deletionTimestamp: at(400) }), at(400));

  it('given the lapse, when the user deletes the running pod, then it counts failed and is replaced', () => {
    given(job, ...refused, tick(at(11 + TIMEOUT_S)), userDeletes)
      .when({ now: at(400) })
      .then((outcome) => {
        expect(outcome.status).toMatchObject({ failed: 1, terminating: 1 });
        expect(outcome.commands.filter((c) => c.type === 'CreatePod')).toHaveLength(1);
      });
  });

  it('given the user deletion reaching jobfold before the lapse, when reconciled, then it counts failed too', () => {
    given(job, ...refused, userDeletes, tick(at(11 + TIMEOUT_S)))
      .when({ now: at(400) })
      .then((outcome) => expect(outcome.status).toMatchObject({ failed: 1, terminating: 1 }));
  });

  it('given jobfold\'s own deletion made at once and seen only after the lapse, when reconciled, then it released the pod uncounted', () => {
    const made = podObserved(aPod({ name: 'a', deletionTimestamp: at(11) }), at(11));
    given(job, ...refused, tick(at(11 + TIMEOUT_S)), made)
      .when({ now: at(400) })
      .then((outcome) => expect(outcome.status).toMatchObject({ failed: 0, terminating: 1 }));
  });

  it('given jobfold\'s own deletion of a pod with a long grace period (deletionTimestamp past the timeout), seen after the lapse, then it released the pod uncounted: the request is the deletionTimestamp less deletionGracePeriodSeconds', () => {
    const pod = aPod({ name: 'a', deletionTimestamp: at(11 + 600) });
    const made = podObserved({ ...pod, metadata: { ...pod.metadata, deletionGracePeriodSeconds: 600 } }, at(12));
    given(job, ...refused, tick(at(11 + TIMEOUT_S)), made)
      .when({ now: at(400) })
      .then((outcome) => expect(outcome.status).toMatchObject({ failed: 0, terminating: 1 }));
  });

  it('given only Failed pods are replaced (podReplacementPolicy: Failed), when the user deletes it, then it counts once it has failed', () => {
    const failedOnly = withSpec(job, { podReplacementPolicy: 'Failed' });
    const history = [tick(at(0)), ...running, jobObserved(withSpec(failedOnly, { parallelism: 1 }), at(10)), jobObserved(failedOnly, at(12)), tick(at(11 + TIMEOUT_S)), userDeletes];
    given(failedOnly, ...history).when({ now: at(400) }).then((outcome) => expect(outcome.status).toMatchObject({ failed: 0, terminating: 1 }));
    given(failedOnly, ...history, podObserved(aPod({ name: 'a', phase: 'Failed', exitCode: 137, deletionTimestamp: at(400) }), at(410)))
      .when({ now: at(410) })
      .then((outcome) => expect(outcome.status).toMatchObject({ failed: 1, terminating: 0 }));
  });
});
