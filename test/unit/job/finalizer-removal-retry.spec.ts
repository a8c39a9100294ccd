import { describe, expect, it } from 'vitest';
import { EXPECTATIONS_TIMEOUT_MS, JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { JobCommand } from '../../../shared/job/commands.ts';
import { decide } from '../../../shared/job/decide.ts';
import { restoreSnapshot, takeSnapshot } from '../../../shared/job/snapshot.ts';
import { aJob, aPod, at, podObserved, tick } from '../../support/builders.ts';
import { given } from '../../support/job-spec.ts';

// Upstream asks again for a tracking finalizer's removal at every sync while the pod still shows
// it and no removal is expected; a failed patch drops the expectation. jobfold does not hear of a
// failed command, so its request expires as its creation expectations do (5 minutes): a pod still
// showing the finalizer after that is asked for again, under a new commandId, and the Job is woken
// up for it.

const job = aJob({ managedBy: JOBFOLD_CONTROLLER_NAME, completions: 2, parallelism: 2 });
const removals = (commands: readonly JobCommand[]) =>
  commands.flatMap((c) => (c.type === 'RemovePodFinalizer' ? [c.commandId] : []));
const afterExpiry = (seconds: number) => new Date(Date.parse(at(seconds)) + EXPECTATIONS_TIMEOUT_MS + 1).toISOString();
// Pod b succeeds at 2 s: counted, and its finalizer's removal asked for at 2 s.
const history = [tick(at(0)), podObserved(aPod({ name: 'a' }), at(1)), podObserved(aPod({ name: 'b', phase: 'Succeeded' }), at(2))];

describe('Tracking finalizer removal asked for again', () => {
  it('given a removal asked for, when reconciled before it expires, then it is not asked again and the Job wakes up at the expiry', () => {
    const outcome = given(job, ...history, tick(at(100))).when({ now: at(100) });
    expect(removals(outcome.commands)).toEqual([]);
    expect(outcome.wakeAt).toBe(afterExpiry(2));
  });

  it('given the pod still shows the finalizer after the expiry, when reconciled, then it is asked again under a new commandId', () => {
    const outcome = given(job, ...history, tick(at(400))).when({ now: at(400) });
    expect(removals(outcome.commands)).toEqual(['job-uid/finalizer/b/2']);
    expect(outcome.decisions).toContainEqual(expect.objectContaining({ type: 'PodFinalizersRemovalRequested', pods: [expect.objectContaining({ uid: 'b' })] }));
  });

  it('given the third request, then its commandId says so', () => {
    const outcome = given(job, ...history, tick(at(400)), tick(at(800))).when({ now: at(800) });
    expect(removals(outcome.commands)).toEqual(['job-uid/finalizer/b/3']);
  });

  it('given the pod seen without the finalizer, then it is never asked again and nothing wakes the Job for it', () => {
    const gone = podObserved(aPod({ name: 'b', phase: 'Succeeded', finalizer: false }), at(3));
    const outcome = given(job, ...history, gone, tick(at(400))).when({ now: at(400) });
    expect(removals(outcome.commands)).toEqual([]);
    expect(outcome.wakeAt).toBeUndefined();
  });

  it('given a snapshot taken while the request is pending, then the restored Job asks again after the expiry', () => {
    const { snapshot } = takeSnapshot(given(job, ...history).when({ now: at(2) }).state);
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)));
    expect(removals(decide(restored, at(100)).commands)).toEqual([]);
    expect(removals(decide(restored, at(400)).commands)).toEqual(['job-uid/finalizer/b/2']);
  });
});
