import { describe, expect, it } from 'vitest';
import type { JobCommand } from '../../../shared/job/commands.ts';
import { finalizerRemovalRefusal, type LivePod } from '../../../shared/job/index.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { aJob, aPod, at, jobObserved, podObserved, tick, withSpec } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// Issue 21, "nothing cut silently": a RemovePodFinalizer carries why the finalizer goes, and the
// forwarder checks the live pod by that cause (shared/job/finalizer-guard.ts), not by what it
// remembers of the deletions it refused. Given the live pod, when a removal of a cause arrives,
// then it goes or is refused; and given a managed Job's events, when reconciled, then each
// removal names upstream's `canRemoveFinalizer` case.

const running: LivePod = { index: undefined, terminal: false, succeeded: false, deleting: false, tracked: true };
const finished: LivePod = { ...running, terminal: true, succeeded: true };
const deleting: LivePod = { ...running, deleting: true };

describe('the finalizer guard on the live pod', () => {
  it('refuses a removal counted from the pod\'s end while the live pod runs on', () => {
    expect(finalizerRemovalRefusal('PodSucceeded', running)).toBe('pod-not-finished');
    expect(finalizerRemovalRefusal('PodFailed', running)).toBe('pod-not-finished');
  });

  it('refuses the removal decided with a deletion while the live pod is not being deleted (the deletion was refused, or has not reached it)', () => {
    expect(finalizerRemovalRefusal('PodDeleted', running)).toBe('pod-not-deleted');
  });

  it('lets the finalizer go from a pod that ended or is being deleted, whatever the cause', () => {
    for (const cause of ['PodSucceeded', 'PodFailed', 'PodDeleted', 'JobFinished', 'JobDeleting', undefined, 'SomeNewerCause']) {
      expect(finalizerRemovalRefusal(cause, finished)).toBeUndefined();
      expect(finalizerRemovalRefusal(cause, deleting)).toBeUndefined();
    }
  });

  it('never refuses a removal of a Job that finished or is being deleted: every finalizer goes then, upstream too', () => {
    expect(finalizerRemovalRefusal('JobFinished', running)).toBeUndefined();
    expect(finalizerRemovalRefusal('JobDeleting', running)).toBeUndefined();
  });

  it('holds a command without a cause (written before causes), or with one it does not know, to the strictest rule', () => {
    expect(finalizerRemovalRefusal(undefined, running)).toBe('pod-not-ended');
    expect(finalizerRemovalRefusal('SomeNewerCause', running)).toBe('pod-not-ended');
  });
});

const managed = { managedBy: JOBFOLD_CONTROLLER_NAME };
const causes = (commands: readonly JobCommand[]) =>
  commands.flatMap((c) => (c.type === 'RemovePodFinalizer' ? [[c.podUid, c.cause]] : []));

describe('the cause a managed Job\'s removal carries', () => {
  it('given a pod that succeeded and one that failed, when reconciled, then their removals say PodSucceeded and PodFailed, in the command and in the decision', () => {
    const job = aJob({ ...managed, completions: 2, parallelism: 2 });
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a', phase: 'Succeeded' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Failed' }), at(1))).when({ now: at(1) });
    expect(causes(outcome.commands)).toEqual([['a', 'PodSucceeded'], ['b', 'PodFailed']]);
    expect(outcome.decisions).toContainEqual(expect.objectContaining({ type: 'PodFinalizersRemovalRequested', causes: ['PodSucceeded', 'PodFailed'] }));
  });

  it('given a running pod seen with a deletionTimestamp (a user deleted it), when reconciled, then it counts failed and its removal says PodFailed', () => {
    const job = aJob({ ...managed, completions: 2, parallelism: 1 });
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a', deletionTimestamp: at(1) }), at(1))).when({ now: at(1) });
    expect(causes(outcome.commands)).toEqual([['a', 'PodFailed']]);
  });

  it('given a scale-down, when reconciled, then the excess pod\'s removal says PodDeleted', () => {
    const job = aJob({ ...managed, completions: 4, parallelism: 2 });
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b' }), at(1)), jobObserved(withSpec(job, { parallelism: 1 }), at(2))).when({ now: at(2) });
    expect(causes(outcome.commands)).toEqual([['a', 'PodDeleted']]);
  });

  it('given a failure past the backoff limit, when reconciled, then the running pod\'s removal says JobFinished', () => {
    const job = aJob({ ...managed, completions: 2, parallelism: 2, backoffLimit: 0 });
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Failed' }), at(2))).when({ now: at(2) });
    expect(causes(outcome.commands)).toEqual([['a', 'JobFinished'], ['b', 'PodFailed']]);
  });

  it('given the Job being deleted, when reconciled, then the running pod\'s removal says JobDeleting', () => {
    const job = aJob({ ...managed, completions: 2, parallelism: 1 });
    const deleted: Job = { ...job, metadata: { ...job.metadata, deletionTimestamp: at(2) } };
    const outcome = given(job, tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), jobObserved(deleted, at(2))).when({ now: at(2) });
    expect(causes(outcome.commands)).toEqual([['a', 'JobDeleting']]);
  });
});
