import { describe, expect, it } from 'vitest';
import { decide, evolve, jobStatus, type JobEvent, type JobState } from '../../../shared/job/index.ts';
import { aJob, aPod, at, podDeleted, podObserved } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';

// Issue 21 at the sizes users have: a Job jobfold does not run, failed, waits while its pods
// terminate (upstream's enactJobFinished), and decide asks at every sync whether a pod the
// cluster never saw holds it (cluster-finish.ts clusterFinishInstant) once one pod was first
// seen past the cluster's finish floor. The walk stopped at the first pod holding the Job: with
// the pods going in creation order it walked past every one already gone, O(pods) per sync,
// quadratic over the Job's end (10,000 pods: 50 million pods walked). The pods it finds holding
// are remembered (state.finishHolders); these specs count the pods walked, not their time.

/** Folds `event` and decides at its time, as the writer does; the decisions are folded back. */
function foldAndDecide(state: JobState, event: JobEvent): void {
  evolve(state, event);
  const { decisions } = decide(state, 'observedAt' in event ? event.observedAt : event.at);
  for (const decision of decisions) evolve(state, decision);
}

/** Counts the pod records every walk of `state.pods` visits (the walk's work, whatever its time). */
function countWalks(state: JobState): { visited: number } {
  const counter = { visited: 0 };
  const pods = state.pods;
  for (const name of ['values', 'entries', 'keys', Symbol.iterator] as const) {
    const walk = pods[name].bind(pods) as () => Iterator<unknown>;
    Object.defineProperty(pods, name, {
      value: () => {
        const it = walk();
        return {
          next: () => {
            const step = it.next();
            if (step.done !== true) counter.visited += 1;
            return step;
          },
          [Symbol.iterator]() {
            return this;
          },
        };
      },
    });
  }
  const forEach = pods.forEach.bind(pods);
  Object.defineProperty(pods, 'forEach', {
    value: (fn: Parameters<typeof pods.forEach>[0]) => forEach((pod, key, map) => ((counter.visited += 1), fn(pod, key, map))),
  });
  return counter;
}

describe('a failing Job waiting for its terminating pods walks each pod a bounded number of times', () => {
  // pod-0 fails at 30 s: FailureTarget (backoffLimit 0). The cluster deletes the others; each is
  // observed terminating, then gone, one event each, a decide after each. A
  // duplicate of index 1, created before the failure, is first seen terminating at 400 s, past
  // the floor (30 s + the 5 min expectations): a pod the cluster may never have seen.
  for (const pods of [1_000, 100_000]) {
    it(`given ${pods.toLocaleString('en-US')} pods, when they terminate and go one by one (${(2 * pods).toLocaleString('en-US')} events), then fewer than 4 pods are walked per event`, { timeout: 120_000 }, () => {
      const job = aJob({ completionMode: 'Indexed', completions: pods, parallelism: pods, backoffLimit: 0 });
      const { state } = given(
        job,
        ...Array.from({ length: pods }, (_, index) => podObserved(aPod({ index }), at(10))),
        podObserved(aPod({ index: 0, phase: 'Failed', exitCode: 1 }), at(30)),
      ).fold();
      foldAndDecide(state, podObserved(aPod({ index: 0, phase: 'Failed', exitCode: 1 }), at(30.5)));
      expect(conditionsOf(jobStatus(state))).toEqual(['FailureTarget=True:BackoffLimitExceeded']);

      const step = 600 / pods;
      const terminating = (index: number, when: string, name = `pod-${index}`) => podObserved(aPod({ index, name, deletionTimestamp: at(31) }), when);
      const half = pods / 2; // pod-<half> is seen terminating at 331 s
      const events: JobEvent[] = [
        ...Array.from({ length: half }, (_, k) => terminating(k + 1, at(31 + (k + 1) * step))),
        terminating(1, at(400), 'pod-1-duplicate'),
        ...Array.from({ length: pods - 1 - half }, (_, k) => terminating(half + k + 1, at(400 + (k + 1) * step))),
        ...Array.from({ length: pods - 1 }, (_, k) => podDeleted(`pod-${k + 1}`, at(1_000 + (k + 1) * step))),
        podDeleted('pod-1-duplicate', at(1_700)),
      ];
      const counter = countWalks(state);
      for (const event of events) foldAndDecide(state, event);

      expect(conditionsOf(jobStatus(state))).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
      expect(counter.visited / events.length).toBeLessThan(4);
    });
  }
});
