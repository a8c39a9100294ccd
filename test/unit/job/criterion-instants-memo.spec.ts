import { describe, expect, it } from 'vitest';
import { decide, evolve, jobStatus, type JobEvent, type JobState } from '../../../shared/job/index.ts';
import { aJob, aPod, at, podDeleted, podObserved } from '../../support/builders.ts';
import { conditionsOf, given } from '../../support/job-spec.ts';

// Issue 21: a Job jobfold does not run whose decided outcome has a challenger (here
// SuccessCriteriaMet, and BackoffLimitExceeded met later) has both criteria's instants compared at
// every decide (outcome-correction.ts correctOutcome). Each instant walks every pod, so a
// 100,000-pod Job's deletions cost two walks each, quadratic over its life. The instants are
// remembered while nothing that moves them is folded (criterion-instants.ts); these specs count
// the walks, not their time.

const job = aJob({ completionMode: 'Indexed', completions: 4, parallelism: 4, backoffLimit: 0, successPolicy: { rules: [{ succeededCount: 1 }] } });
const history: JobEvent[] = [
  ...[0, 1, 2, 3].map((index) => podObserved(aPod({ index }), at(10))),
  podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(20)),
  // Terminated by jobfold after the success, they fail later: BackoffLimitExceeded, met after it.
  ...[1, 2, 3].map((index) => podObserved(aPod({ index, phase: 'Failed', exitCode: 137 }), at(30))),
];

/** Folds `event` and decides at its time, as the writer does; the decisions are folded back. */
function foldAndDecide(state: JobState, event: JobEvent): void {
  evolve(state, event);
  const { decisions } = decide(state, 'observedAt' in event ? event.observedAt : event.at);
  for (const decision of decisions) evolve(state, decision);
}

describe('criteria instants are worked out once while nothing moves them', () => {
  it('given a finished Job whose success stands against a failure met later, when its finished pods are deleted one by one, then the instants are not worked out again', () => {
    const { state } = given(job, ...history).fold();
    foldAndDecide(state, podDeleted('pod-1', at(40))); // the Job is Complete: a decision, folded
    foldAndDecide(state, podDeleted('pod-2', at(41)));
    expect(conditionsOf(jobStatus(state))).toEqual(['SuccessCriteriaMet=True:SuccessPolicy', 'Complete=True:SuccessPolicy']);
    expect([...state.criterionMemo.values.keys()].sort()).toEqual(['BackoffLimitExceeded', 'SuccessPolicy']);
    const worked = state.criterionMemo.valuesEpoch;

    foldAndDecide(state, podDeleted('pod-3', at(42)));
    foldAndDecide(state, podDeleted('pod-0', at(43)));
    foldAndDecide(state, podDeleted('pod-3', at(44))); // delivered again

    expect(state.criterionMemo.valuesEpoch).toBe(worked);
    expect(state.status.failed).toBe(3);
  });

  it('given the same Job, when the deletion of a pod never seen arrives (its instant may count), then the instants are worked out again', () => {
    const { state } = given(job, ...history).fold();
    foldAndDecide(state, podDeleted('pod-1', at(40)));
    foldAndDecide(state, podDeleted('pod-2', at(41)));
    const worked = state.criterionMemo.valuesEpoch;

    foldAndDecide(state, podDeleted('pod-unseen', at(42)));

    expect(state.criterionMemo.valuesEpoch).not.toBe(worked);
    expect([...state.criterionMemo.values.keys()].sort()).toEqual(['BackoffLimitExceeded', 'SuccessPolicy']);
  });
});
