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

describe('a finished Job\'s lingering pods, observed one by one, leave the instants remembered', () => {
  // The same Job at size: pod-0 succeeded at 20 s (SuccessCriteriaMet), pod-1 failed tracked at
  // 30 s (BackoffLimitExceeded, met after it: correctOutcome compares both at every decide).
  // The cluster deletes the other pods, removing their finalizers (upstream does so once the
  // success criteria are met): each is observed terminating, then Failed, then gone, none counted.
  // Before, each observation dropped the instants and the next decide walked every pod twice.
  const lingering = (pods: number, observed: number): JobEvent[] =>
    Array.from({ length: observed }, (_, k) => {
      const index = 2 + k;
      const when = (s: number) => at(40 + 3 * k + s);
      return [
        podObserved(aPod({ index, finalizer: false, deletionTimestamp: when(0) }), when(0)),
        podObserved(aPod({ index, phase: 'Failed', exitCode: 137, finalizer: false, deletionTimestamp: when(0) }), when(1)),
        podDeleted(`pod-${index}`, when(2)),
      ];
    }).flat();

  // The first decide works them out; with every pod gone the Job is Complete, a decision folded, and they are worked out again.
  for (const [pods, observed, workedOut] of [[1_000, 998, 2], [100_000, 300, 1]] as const) {
    it(`given ${pods} pods, when ${observed} of them linger and go (${3 * observed} events, a decide after each), then the instants are worked out ${workedOut === 1 ? 'once' : 'twice'}`, { timeout: 120_000 }, () => {
      const big = aJob({ completionMode: 'Indexed', completions: pods, parallelism: pods, backoffLimit: 0, successPolicy: { rules: [{ succeededCount: 1 }] } });
      const { state } = given(
        big,
        ...Array.from({ length: pods }, (_, index) => podObserved(aPod({ index }), at(10))),
        podObserved(aPod({ index: 0, phase: 'Succeeded' }), at(20)),
        podObserved(aPod({ index: 1, phase: 'Failed', exitCode: 1 }), at(30)),
      ).fold();
      let refills = 0;
      let seen = state.criterionMemo.valuesEpoch;
      for (const event of lingering(pods, observed)) {
        foldAndDecide(state, event);
        if (state.criterionMemo.valuesEpoch !== seen) refills += 1;
        seen = state.criterionMemo.valuesEpoch;
      }
      // Each refill walks the pods once per criterion asked (SuccessPolicy, BackoffLimitExceeded).
      expect([...state.criterionMemo.values.keys()].sort()).toEqual(['BackoffLimitExceeded', 'SuccessPolicy']);
      expect(refills).toBe(workedOut);
      expect(conditionsOf(jobStatus(state))[0]).toBe('SuccessCriteriaMet=True:SuccessPolicy');
      expect(state.status.failed).toBe(1);
    });
  }
});


describe('a finished Job\'s outcomes seen after its finish do not make decide walk its pods', () => {
  // Issue 20: a finished Job jobfold does not run whose criterion reads its pods asks at every
  // decide whether the criterion was met before the finish's instant (decide.ts
  // criterionMetEarlier). Here backoffLimit 0: the first failure seen, at 2 s, fails the Job; the
  // rest of its 2,000 pods are first seen failed after that, one by one. Each of their outcomes
  // moves the criterion's instant, so the memo forgot it and the next decide walked every pod:
  // 1,999 walks. Seen at or after 2 s, none can put the criterion before it (met-before.ts).
  const pods = 2_000;
  const failure = (i: number, seconds: number): JobEvent => podObserved(aPod({ name: `pod-${i}`, phase: 'Failed', finishedAt: at(seconds) }), at(seconds));
  const finished = (): JobState => {
    const { state } = given(aJob({ completions: pods, parallelism: pods, backoffLimit: 0 })).fold();
    foldAndDecide(state, failure(0, 2));
    expect(conditionsOf(jobStatus(state))).toEqual(['FailureTarget=True:BackoffLimitExceeded', 'Failed=True:BackoffLimitExceeded']);
    return state;
  };

  it(`given ${pods} pods, when the other ${pods - 1} are first seen failed after the finish (a decide after each), then the pods are walked once`, () => {
    const state = finished();
    let refills = 0;
    let seen = state.criterionMemo.valuesEpoch;
    for (let i = 1; i < pods; i++) {
      foldAndDecide(state, failure(i, 3 + i / 1000));
      if (state.criterionMemo.valuesEpoch !== seen) refills += 1;
      seen = state.criterionMemo.valuesEpoch;
    }
    expect(refills).toBe(1);
    expect(state.status.failed).toBe(pods);
    expect(state.outcomeMetAt).toBe(Date.parse(at(2)));
  });

  it('given the same Job, when a failure seen before the finish\'s instant arrives among them, then it is walked and the finish moves back to it', () => {
    const state = finished();
    for (let i = 1; i < 100; i++) foldAndDecide(state, failure(i, 3 + i / 1000));
    const worked = state.criterionMemo.valuesEpoch;

    foldAndDecide(state, failure(100, 1));

    expect(state.criterionMemo.valuesEpoch).not.toBe(worked);
    expect(state.outcomeMetAt).toBe(Date.parse(at(1)));
  });
});
