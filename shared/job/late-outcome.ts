import { IndexSet, parseIndexes } from '../indexes/index-set.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { finishedInClusterOrder, finishedOnCluster, unseenBy, withoutUnseenPods } from './cluster-finish.ts';
import { failedItsIndex } from './counting.ts';
import { isUnfinished, outcomeSeenAt, type PodCount, type PodRecord } from './pod-record.ts';
import type { JobState } from './state.ts';

// Upstream counts a pod's outcome in the sync after it happens, so every outcome that happened
// before the Job finished is in its final status. An observation can arrive after jobfold
// decided the Job finished although it happened before, on the cluster's clock (EventBridge
// does not order): the final status then counts it too, so that it does not depend on arrival
// order. One at the very instant jobfold finished the Job counts too: the cluster's sync at that
// instant read every event of it (basics__parallel-work-queue-job: two successes of one instant,
// the Job completed on the first to arrive). Conditions stay as decided (they only move
// forward), and an outcome that happened after the decision is not counted, as upstream no
// longer syncs a finished Job. Jobs jobfold runs are exempt: there jobfold's syncs are the
// controller's, and what it had not seen when it finished the Job it had not counted.
// The instant is jobfold's clock when it finished the Job: the newest it had read, which can lie
// past the cluster's own finish when the evidence that finished it arrived after newer events.
// Once the criterion's instant is known, it is moved back to where a fold of the cluster's order
// would have finished the Job (cluster-finish.ts finishedInClusterOrder), so that an outcome
// between the two counts or not whatever arrived first (leaveOutUnseenPods).

/** The counts an observation may change, taken before folding it. */
export interface CountsBefore {
  readonly succeeded: number;
  readonly failed: number;
  readonly completedIndexes: IndexSet;
  readonly failedIndexes: IndexSet;
}

/** The counts before an observation at `at`, when it happened before the Job finished (or at that instant) and arrived after; else undefined. */
export function countsBeforeLateOutcome(state: JobState, at: number): CountsBefore | undefined {
  return happenedBeforeFinish(state, at) ? countsBeforeFinalCount(state) : undefined;
}

/** jobfold finished the Job at or after `at` on the cluster's clock, and its final status takes later counts. */
const happenedBeforeFinish = (state: JobState, at: number): boolean =>
  state.finishedInstant !== undefined && at <= state.finishedInstant && takesFinalCounts(state);

/**
 * A Job observation made at or before the instant jobfold finished the Job (on the cluster's
 * clock), arriving after it: a spec change (elastic completions, parallelism) the cluster's
 * finishing sync already held, which `fold` folds. The final status is counted by that spec as
 * the live one is: a pod the change counts whose outcome happened by the finish counts in it
 * (one after it stays outside, as any outcome after the finish); a count the change takes back
 * leaves it (a deletion a lowering of parallelism made excess, excess-deletions.ts); and indexes
 * beyond the completions leave it, as upstream parses completedIndexes against the current
 * completions on every sync. O(pods), for such an observation only. Found by the corpus property
 * (issue 21): elastic-indexed__scale-up and __scale-down-then-up, basics__parallelism-down-and-up.
 */
export function followLateSpec(state: JobState, at: number, fold: () => void): void {
  if (!happenedBeforeFinish(state, at)) return fold();
  const countedBefore = new Map<string, PodCount>();
  for (const pod of state.pods.values()) if (pod.counted !== 'none') countedBefore.set(pod.uid, pod.counted);
  const finalBefore = state.finalStatus;
  fold();
  // What the fold added to the final status by itself (counting.ts recountFailuresByCompletions) is counted here, once.
  state.finalStatus = finalBefore;
  const finishedInstant = state.finishedInstant;
  if (finalBefore === undefined || finishedInstant === undefined) return;
  for (const pod of state.pods.values()) {
    const before = countedBefore.get(pod.uid) ?? 'none';
    if (before !== pod.counted) recountInFinal(state, pod, before, finishedInstant);
  }
  clipFinalIndexes(state);
}

/**
 * A pod's count changed from `before` once jobfold had finished the Job: the final status
 * follows, if the pod's old count was in it (not counted `outside`), and takes the new one if its
 * outcome happened by the finish.
 */
function recountInFinal(state: JobState, pod: PodRecord, before: PodCount, finishedInstant: number): void {
  const outside = pod.finalCount === 'outside' && pod.finalCountOf === state.finishedAt;
  if (before !== 'none' && !outside) uncountInFinal(state, before);
  if (pod.counted === 'none') markFinalCount(state, pod, undefined);
  else if ((outcomeSeenAt(pod) ?? Infinity) <= finishedInstant) {
    countInFinal(state, pod);
    markFinalCount(state, pod, undefined);
  } else markFinalCount(state, pod, 'outside');
}

/** A pod's count changed from `before` (observe-pod.ts succeededWhenFailing): the final status of a Job jobfold finished follows. */
export function followRecount(state: JobState, pod: PodRecord, before: PodCount): void {
  const finishedInstant = state.finishedInstant;
  if (finishedInstant === undefined || !takesFinalCounts(state)) return;
  recountInFinal(state, pod, before, finishedInstant);
}

/** Takes a count out of the final status (an Indexed Job's completed index leaves it only by clipFinalIndexes). */
function uncountInFinal(state: JobState, counted: PodCount): void {
  const final = state.finalStatus;
  if (final === undefined) return;
  if (counted === 'failed') state.finalStatus = { ...final, failed: Math.max(0, final.failed - 1) };
  else if (counted === 'succeeded' && !state.settings?.indexed) state.finalStatus = { ...final, succeeded: Math.max(0, final.succeeded - 1) };
}

/** An Indexed Job's final indexes, parsed against its completions. */
function clipFinalIndexes(state: JobState): void {
  const final = state.finalStatus;
  if (final === undefined || !state.settings?.indexed) return;
  const completions = state.settings.completions ?? 0;
  const completed = parseIndexes(final.completedIndexes, completions);
  state.finalStatus = {
    ...final,
    succeeded: completed.size,
    completedIndexes: completed.toString(),
    ...(final.failedIndexes === null ? {} : { failedIndexes: parseIndexes(final.failedIndexes, completions).toString() }),
  };
}

/** jobfold finished the Job (a final status) and does not run it: later counts may belong in the final status. */
const takesFinalCounts = (state: JobState): boolean =>
  state.finalStatus !== undefined && state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME;

/**
 * Once jobfold finished the Job, the counts before a count the final status must take in (an
 * outcome upstream counted before the Job finished: a late one, or a pod whose finalizer was
 * removed before it ended, observe-pod.ts countStrippedLive); else undefined.
 */
export function countsBeforeFinalCount(state: JobState): CountsBefore | undefined {
  if (!takesFinalCounts(state)) return undefined;
  const { status } = state;
  return { succeeded: status.succeeded, failed: status.failed, completedIndexes: status.completedIndexes.clone(), failedIndexes: status.failedIndexes.clone() };
}

/** Adds what the observation counted to the final status. */
export function countLateOutcome(state: JobState, before: CountsBefore): void {
  const final = state.finalStatus;
  if (final === undefined) return;
  const { status, settings } = state;
  const completions = settings?.completions ?? 0;
  const indexed = settings?.indexed ?? false;
  const completed = indexed ? added(parseIndexes(final.completedIndexes, completions), before.completedIndexes, status.completedIndexes) : undefined;
  const failedIndexes =
    final.failedIndexes === null ? undefined : added(parseIndexes(final.failedIndexes, completions), before.failedIndexes, status.failedIndexes);
  state.finalStatus = {
    ...final,
    succeeded: completed ? completed.size : final.succeeded + Math.max(0, status.succeeded - before.succeeded),
    failed: final.failed + Math.max(0, status.failed - before.failed),
    ...(completed ? { completedIndexes: completed.toString() } : {}),
    ...(failedIndexes ? { failedIndexes: failedIndexes.toString() } : {}),
  };
}

/** `into` with the indexes `after` holds and `before` did not. */
function added(into: IndexSet, before: IndexSet, after: IndexSet): IndexSet {
  if (before.equals(after)) return into;
  for (const index of after) if (!before.has(index)) into.add(index);
  return into;
}

/**
 * A pod active on the cluster when its Job finished there kept the Job waiting
 * (`enactJobFinished` writes `Complete`/`Failed` only once no pod is terminating, and every
 * terminated pod is counted first), so upstream's final status counts how it ended, even when it
 * ended after the criterion was met. jobfold finishes the Job on the pods it has seen: one whose
 * observations arrive after the finish, the oldest of them made at or before the finish instant
 * (on the cluster's clock, the same instant included), was such a pod. Its outcome then counts in
 * the final status once, whichever arrived first: the observation from before the finish (the
 * pod is `owed` until its outcome is counted) or the outcome (counted `outside` the final status
 * until the older observation tells it belongs there). A pod first seen after the finish instant
 * stays outside: builders and clusters alike create pods long before they are seen, so the
 * creation time does not tell (finished-means-finished.spec.ts). Jobs jobfold runs are exempt, as
 * for late outcomes above.
 *
 * Called after each pod observation or deletion folded: `seenActiveAt`, the instant of an
 * observation showing the pod not finished (a deletion, or a pod already gone when jobfold
 * finished the Job, never kept it waiting); `countedBefore`, the pod's count before it;
 * `finalBefore`, the final status before it (a count the observation added as a late outcome,
 * or countStrippedLive, replaced it).
 */
export function settleAfterFinish(
  state: JobState,
  uid: string,
  seenActiveAt: number | undefined,
  countedBefore: PodCount,
  finalBefore: JobState['finalStatus'],
): void {
  if (state.finishedInstant === undefined || !takesFinalCounts(state)) return;
  const pod = state.pods.get(uid);
  if (pod === undefined) return;
  // The cluster finished the Job when its criterion was met, when the pods tell that instant
  // (state.outcomeMetAt), which jobfold's clock can lie past (a deadline read late).
  const seenByFinish = seenActiveAt !== undefined && seenActiveAt <= Math.min(state.finishedInstant, state.outcomeMetAt ?? Infinity);
  // Not finished in the view either: the cluster's Job waits for it (outcome-correction.ts reopenFinish).
  if (seenByFinish && isUnfinished(pod)) (state.waitedFor ??= new Set()).add(pod.uid);
  // A mark of a finish since taken back no longer holds (pod-record.ts finalCountOf).
  if (pod.finalCount !== undefined && pod.finalCountOf !== state.finishedAt) markFinalCount(state, pod, undefined);
  if (countedBefore === 'none' && pod.counted !== 'none') {
    const addedNow = state.finalStatus !== finalBefore;
    if (pod.finalCount === 'owed' && !addedNow) countInFinal(state, pod);
    markFinalCount(state, pod, addedNow || pod.finalCount === 'owed' ? undefined : 'outside');
    return;
  }
  // Counted outside the final status by an observation made after the finish, and now shown
  // ended by one made at or before it, with its tracking finalizer or without it (a late, older
  // observation, arriving after the one that counted it): the cluster's sync counted it then, as
  // a late outcome that arrived first would be (countsBeforeLateOutcome). Without it a failure of
  // 0:59, seen tracked at 1:00 and arriving after a newer observation of it, stayed out of the
  // final status of a Job completed at 7:45 (generated cluster seed-5/history-53).
  if (pod.finalCount === 'outside' && endedTrackedAt(pod) <= state.finishedInstant) {
    countInFinal(state, pod);
    markFinalCount(state, pod, undefined);
    return;
  }
  if (!seenByFinish) return;
  if (pod.finalCount === 'outside') {
    countInFinal(state, pod);
    markFinalCount(state, pod, undefined);
  } else if (pod.counted === 'none') markFinalCount(state, pod, 'owed');
}

/** The earliest observation showing the pod ended with its finalizer, or its finalizer gone: when the cluster had counted it by. */
const endedTrackedAt = (pod: PodRecord): number => Math.min(pod.finishedTrackedAt ?? Infinity, pod.strippedAt ?? Infinity);

/**
 * The Job finished (apply-decision.ts finish), its criterion's instant known: the pods the
 * cluster saw only after it had finished the Job (cluster-finish.ts) are not active or
 * terminating in the final status, and the finish's instant is the cluster's: an outcome first
 * seen after it is no late outcome (countsBeforeLateOutcome), though jobfold's clock had read
 * past it; one whose observation from before it arrives later still counts (settleAfterFinish).
 */
export function leaveOutUnseenPods(state: JobState, leftOutBy?: number): void {
  const final = state.finalStatus;
  if (final === undefined || !takesFinalCounts(state)) return;
  const finishedAt = finishedOnCluster(state);
  if (finishedAt === undefined) return;
  state.finalStatus = { ...withoutUnseenPods(state, final, finishedAt, leftOutBy), conditions: final.conditions };
  const inOrder = finishedInClusterOrder(state);
  const instant = Math.min(finishedAt, inOrder ?? Infinity);
  if (state.finishedInstant === undefined || instant < state.finishedInstant) state.finishedInstant = instant;
  takeOutUnseenCounts(state, finishedAt);
}

/**
 * Decide found the finish's criterion met earlier than the instant jobfold finished the Job on
 * (decisions.ts CriterionMetEarlier: evidence from before the finish arrived after it): the
 * finish's instant moves back with it, and the pods the cluster saw only after the earlier
 * finish leave the final status as well (those left out at `was`'s finish already, once).
 */
export function finishMetEarlier(state: JobState, metAt: number, was: number): void {
  const previous = finishedOnCluster(state);
  state.outcomeMetAt = metAt;
  leaveOutUnseenPods(state, previous ?? was);
}

/**
 * What jobfold counted, before the evidence of the finish arrived, of pods the cluster saw only
 * after it had finished the Job (their own outcome arrived first): upstream's status is frozen at
 * the finish and never counted them, so the final status leaves them out. They stay counted in
 * the fold's own tally and are marked 'outside': an observation of one from before the finish,
 * arriving later, counts it in again (settleAfterFinish). O(pods), once per finish.
 */
function takeOutUnseenCounts(state: JobState, finishedAt: number): void {
  const final = state.finalStatus;
  if (final === undefined) return;
  const completions = state.settings?.completions ?? 0;
  const indexed = state.settings?.indexed === true;
  const unseen: PodRecord[] = [];
  const seenSucceeded = new Set<number>();
  const seenFailing = new Set<number>();
  for (const pod of state.pods.values()) {
    if (pod.counted === 'none' || pod.counted === 'ignored') continue;
    // Out of the final status already (an earlier leave-out of this finish, an outcome after it).
    if (pod.finalCount === 'outside' && pod.finalCountOf === state.finishedAt) continue;
    if (unseenBy(pod, finishedAt)) unseen.push(pod);
    else if (pod.counted === 'succeeded') seenSucceeded.add(pod.index);
    else if (failedItsIndex(state, pod)) seenFailing.add(pod.index);
  }
  if (unseen.length === 0) return;
  let { succeeded, failed } = final;
  const notCompleted = new Set<number>();
  const notFailed = new Set<number>();
  for (const pod of unseen) {
    if (pod.counted === 'succeeded') {
      if (!indexed) succeeded -= 1;
      else if (!seenSucceeded.has(pod.index)) notCompleted.add(pod.index);
    } else {
      failed -= 1;
      // The index's failure is this pod's unless a pod the cluster saw failed there too.
      if (failedItsIndex(state, pod) && !seenFailing.has(pod.index)) notFailed.add(pod.index);
    }
    markFinalCount(state, pod, 'outside');
  }
  const completed = indexed ? withoutIndexes(parseIndexes(final.completedIndexes, completions), notCompleted) : undefined;
  state.finalStatus = {
    ...final,
    succeeded: completed === undefined ? Math.max(0, succeeded) : completed.size,
    failed: Math.max(0, failed),
    ...(completed === undefined ? {} : { completedIndexes: completed.toString() }),
    ...(final.failedIndexes === null || notFailed.size === 0 ? {} : { failedIndexes: withoutIndexes(parseIndexes(final.failedIndexes, completions), notFailed).toString() }),
  };
}

/** The set less the `removed` indexes (a few: pods the cluster never saw). O(intervals + removed). */
function withoutIndexes(set: IndexSet, removed: ReadonlySet<number>): IndexSet {
  if (removed.size === 0) return set;
  const cuts = [...removed].sort((a, b) => a - b);
  const kept: [number, number][] = [];
  for (const [first, last] of set.intervals()) {
    let start = first;
    for (const cut of cuts) {
      if (cut < start || cut > last) continue;
      if (cut > start) kept.push([start, cut - 1]);
      start = cut + 1;
    }
    if (start <= last) kept.push([start, last]);
  }
  return IndexSet.fromIntervals(kept);
}


/** A changed mark is archived again (the later save wins), so a restored pod is not counted twice. */
function markFinalCount(state: JobState, pod: PodRecord, mark: PodRecord['finalCount']): void {
  if (pod.finalCount === mark && (mark === undefined || pod.finalCountOf === state.finishedAt)) return;
  if (mark === undefined) {
    delete pod.finalCount;
    delete pod.finalCountOf;
  } else {
    pod.finalCount = mark;
    if (state.finishedAt !== undefined) pod.finalCountOf = state.finishedAt;
  }
}

/** Adds the pod's own count to the final status. */
function countInFinal(state: JobState, pod: PodRecord): void {
  const final = state.finalStatus;
  if (final === undefined || pod.counted === 'none' || pod.counted === 'ignored') return;
  const completions = state.settings?.completions ?? 0;
  if (pod.counted === 'succeeded') {
    if (state.settings?.indexed) {
      const completed = parseIndexes(final.completedIndexes, completions);
      completed.add(pod.index);
      state.finalStatus = { ...final, succeeded: completed.size, completedIndexes: completed.toString() };
    } else state.finalStatus = { ...final, succeeded: final.succeeded + 1 };
    return;
  }
  const failedIndexes = final.failedIndexes === null || !state.status.failedIndexes.has(pod.index) ? undefined : parseIndexes(final.failedIndexes, completions);
  failedIndexes?.add(pod.index);
  state.finalStatus = { ...final, failed: final.failed + 1, ...(failedIndexes ? { failedIndexes: failedIndexes.toString() } : {}) };
}
