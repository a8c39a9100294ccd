import { describe, expect, it } from 'vitest';
import { creationRefusal, onlyReplaceFailedPods, type LiveJob, type LivePod } from '../../../shared/job/index.ts';

// Issue 21, "no harmful command from a transient view": the forwarder's last word on a CreatePod
// decided on a view minutes old (shared/job/creation-guard.ts). Given the live Job and pods, when
// the command is applied, then it creates what upstream's next sync would create, and no more.

const job = (spec: Partial<LiveJob> = {}): LiveJob => ({ parallelism: 2, completions: 4, suspended: false, onlyReplaceFailedPods: false, ...spec });
const pending = (index?: number): LivePod => ({ index, terminal: false, succeeded: false, deleting: false, tracked: true });
const terminating = (index?: number): LivePod => ({ index, terminal: false, succeeded: false, deleting: true, tracked: true });
const failed = (index?: number, indexFailures?: number): LivePod => ({
  index,
  terminal: true,
  succeeded: false,
  deleting: false,
  tracked: true,
  ...(indexFailures === undefined ? {} : { indexFailures }),
});

describe('The creation guard, under podReplacementPolicy: Failed (upstream onlyReplaceFailedPods)', () => {
  it('takes a pod policy or a pod failure policy for Failed, and TerminatingOrFailed or nothing for not', () => {
    expect(onlyReplaceFailedPods({ podReplacementPolicy: 'Failed' })).toBe(true);
    expect(onlyReplaceFailedPods({ podFailurePolicy: { rules: [] } })).toBe(true);
    expect(onlyReplaceFailedPods({ podReplacementPolicy: 'TerminatingOrFailed' })).toBe(false);
    expect(onlyReplaceFailedPods({ podFailurePolicy: null })).toBe(false);
  });

  // history-15 of the closed loop (seed 21): parallelism 3 then 2 in one second, a pod being
  // deleted; the delivery read only the 3 and asked for two pods, upstream creates 2 - 1 - 0.
  it('counts a terminating pod against parallelism, as manageJob subtracts it from wantActive', () => {
    const live = job({ parallelism: 2, completions: 3, onlyReplaceFailedPods: true });
    expect(creationRefusal(live, { index: undefined }, [terminating()])).toBeUndefined();
    expect(creationRefusal(live, { index: undefined }, [terminating(), pending()])).toBe('parallelism-reached');
    expect(creationRefusal({ ...live, onlyReplaceFailedPods: false }, { index: undefined }, [terminating(), pending()])).toBeUndefined();
  });

  it('counts a terminating pod toward completions, as wantActive - terminating - active does', () => {
    const live = job({ parallelism: 4, completions: 2, onlyReplaceFailedPods: true });
    expect(creationRefusal(live, { index: undefined }, [terminating(), { ...pending(), terminal: true, succeeded: true }])).toBe('completions-reached');
  });

  it('creates nothing for an index whose pod is terminating, as firstPendingIndexes covers it, and creates once it failed', () => {
    const live = job({ parallelism: 4, completions: 4, onlyReplaceFailedPods: true });
    expect(creationRefusal(live, { index: 1 }, [terminating(1)])).toBe('index-terminating');
    expect(creationRefusal(live, { index: 1 }, [{ ...terminating(1), terminal: true }])).toBeUndefined();
    expect(creationRefusal(live, { index: 2 }, [terminating(1)])).toBeUndefined();
    expect(creationRefusal({ ...live, onlyReplaceFailedPods: false }, { index: 1 }, [terminating(1)])).toBeUndefined();
  });
});

describe('The creation guard, under backoffLimitPerIndex', () => {
  const live = job({ parallelism: 4, completions: 4 });

  it('creates the replacement of the failed pod the decision counted: the new pod carries one failure more', () => {
    expect(creationRefusal(live, { index: 2, indexFailureCount: 1, indexIgnoredFailureCount: 0 }, [failed(2, 0)])).toBeUndefined();
    expect(creationRefusal(live, { index: 2, indexFailureCount: 1, indexIgnoredFailureCount: 1 }, [failed(2, 0), failed(2, 1)])).toBeUndefined();
  });

  // history-37 of the closed loop (seed 21): the decision's view lacked index 2's first pod
  // (its events in flight past the expectation's timeout), which had failed by then.
  it('creates nothing when the index has a failed pod the decision did not count: the counts asked for are not above its own', () => {
    expect(creationRefusal(live, { index: 2, indexFailureCount: 0, indexIgnoredFailureCount: 0 }, [failed(2, 0)])).toBe('index-failure-unseen');
    expect(creationRefusal(live, { index: 2, indexFailureCount: 1, indexIgnoredFailureCount: 0 }, [failed(2, 0), failed(2, 1)])).toBe('index-failure-unseen');
    expect(creationRefusal(live, { index: 2, indexFailureCount: 0, indexIgnoredFailureCount: 0 }, [failed(3, 0)])).toBeUndefined();
  });

  // seed-7 history-16 of the closed loop, in the cluster's order: index 0's pod failed and was
  // counted, its replacement was deleted for a suspension (its finalizer removed first, uncounted);
  // after the resumption upstream replaces no tracked pod and starts the index's counts afresh.
  it('reads no counts of a failed pod whose finalizer is gone: counted or released, it is replaced by nothing', () => {
    expect(creationRefusal(live, { index: 0, indexFailureCount: 0, indexIgnoredFailureCount: 0 }, [{ ...failed(0, 0), tracked: false }])).toBeUndefined();
  });

  it('reads no counts where the command carries none or the pod shows none', () => {
    expect(creationRefusal(live, { index: 2 }, [failed(2, 0)])).toBeUndefined();
    expect(creationRefusal(live, { index: 2, indexFailureCount: 0 }, [failed(2)])).toBeUndefined();
  });
});
