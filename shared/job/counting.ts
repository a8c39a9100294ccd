import { IndexSet } from '../indexes/index-set.ts';
import { advanceRuleProgress, initialRuleProgress } from '../policies/success-policy.ts';
import { countsFailure, failsIndex, matchPodFailurePolicy, policyFailureOf } from '../policies/pod-failure-policy.ts';
import { hasTrueCondition } from './conditions.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { isReleased, isTerminalPhase, outcomeSeenAt, type PodRecord } from './pod-record.ts';
import { completionsAt, completionsSince } from './excess-deletions.ts';
import { countLateOutcome, countsBeforeLateOutcome } from './late-outcome.ts';
import { journal } from './run.ts';
import type { JobState } from './state.ts';

// How a pod is counted, mirroring upstream `trackJobStatusAndRemoveFinalizers`: a pod counts
// once, and only while it shows the tracking finalizer (the finalizer is what tells the
// controller the pod was not counted yet). The rules are applied when the pod's observation
// changes, and again for every pod when a decision changes them (FailureTarget, success).

/** Only keep this many failure times after the last success: the delay is capped long before. */
const MAX_FAILURE_TIMES = 64;

/** Upstream `isPodFailed`: phase Failed, or a deleted non-succeeded pod unless Failed-only. */
export function isPodFailed(state: JobState, pod: PodRecord): boolean {
  if (pod.phase === 'Failed') return true;
  if (state.settings?.onlyReplaceFailedPods) return false;
  return pod.deletionTimestamp !== undefined && pod.phase !== 'Succeeded';
}

/**
 * Whether the Job still tracks the pod (upstream: it carries the tracking finalizer, so its
 * outcome is not accounted for yet). A pod jobfold deleted the way manageJob does lost the
 * finalizer before its deletion: it is tracked only if it was seen finished while still
 * carrying it (it finished before the deletion reached it).
 */
export const isTracked = (pod: PodRecord): boolean =>
  pod.hasFinalizer && (!isReleased(pod) || isTerminalPhase(pod.phase));

const validIndex = (state: JobState, pod: PodRecord): boolean =>
  pod.index >= 0 && pod.index < (state.settings?.completions ?? 0);

/**
 * An Indexed Job counts a pod whose index is valid; a failed pod counts by the completions in
 * force when it failed, on the cluster's clock (elastic Jobs: upstream counted the failure in
 * `failed` then, and lowering completions later drops the index, not the count), whichever of
 * the failure and the Job observations arrived first. A Job jobfold runs counts by the
 * completions its own sync held: its counts are what it enacted.
 */
function countableIndex(state: JobState, pod: PodRecord): boolean {
  if (!isPodFailed(state, pod) || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return validIndex(state, pod);
  return pod.index >= 0 && pod.index < completionsAt(state, outcomeSeenAt(pod) ?? Infinity);
}

/**
 * Evaluates the pod failure policy once the pod has failed, and remembers the first pod (in
 * listing order) whose match fails the Job.
 */
export function judgeFailure(state: JobState, pod: PodRecord): void {
  const settings = state.settings;
  if (!settings || pod.failureMatch !== undefined || pod.phase !== 'Failed') return;
  pod.failureMatch = matchPodFailurePolicy(settings.podFailurePolicyRules, pod);
  const failure = policyFailureOf(pod, pod.failureMatch);
  if (failure && (!state.policyFailure || failure.podSeq < state.policyFailure.podSeq)) state.policyFailure = failure;
}

/**
 * backoffLimitPerIndex (upstream `isIndexFailed`): marks the pod's index failed if it is. As
 * upstream `calculateFailedIndexes`, only a pod still carrying the tracking finalizer, i.e. not
 * accounted for yet, can fail its index.
 */
export function judgeIndex(state: JobState, pod: PodRecord): void {
  if (pod.counted !== 'none') return;
  if (failsItsIndex(state, pod) && state.status.failedIndexes.add(pod.index)) {
    journal(state, { kind: 'failedIndex', index: pod.index });
    releaseHeld(state, pod.index);
  }
}

/** Upstream `isIndexFailed`, for a pod still carrying the tracking finalizer. */
function failsItsIndex(state: JobState, pod: PodRecord): boolean {
  const limit = state.settings?.backoffLimitPerIndex;
  if (limit === undefined || !isTracked(pod) || pod.counted === 'ignored') return false;
  if (!validIndex(state, pod) || !isPodFailed(state, pod)) return false;
  const match = pod.failureMatch;
  return failsIndex(match) || (countsFailure(match) && pod.failureCount >= limit);
}

/**
 * Whether the pod's counted failure failed its index (backoffLimitPerIndex), whatever its
 * finalizer shows since: the final status leaves out an index only its unseen pods failed
 * (late-outcome.ts takeOutUnseenCounts).
 */
export function failedItsIndex(state: JobState, pod: PodRecord): boolean {
  const limit = state.settings?.backoffLimitPerIndex;
  if (limit === undefined || pod.counted !== 'failed') return false;
  const match = pod.failureMatch;
  return failsIndex(match) || (countsFailure(match) && pod.failureCount >= limit);
}

/**
 * Upstream `isIndexFailed`, for a pod the Job tracks or counted failed: whether its failure is one
 * that fails its index (criterion-instants.ts: when an index failed is the instant of such a
 * failure; not of one a policy ignored, or below the limit, or of a pod this Job never tracked).
 */
export function failureFailsIndex(state: JobState, pod: PodRecord): boolean {
  const limit = state.settings?.backoffLimitPerIndex;
  if (limit === undefined || !(pod.counted === 'failed' || isTracked(pod)) || !isPodFailed(state, pod)) return false;
  const match = pod.failureMatch;
  return failsIndex(match) || (countsFailure(match) && pod.failureCount >= limit);
}

/**
 * After a run's count was taken back and with it an index's failure (run.ts): the index stays
 * failed if another pod failed it too. O(pods), only on that rare path.
 */
export function rejudgeIndexes(state: JobState, indexes: readonly number[], except: string): void {
  for (const index of indexes) {
    for (const pod of state.pods.values()) {
      if (pod.index !== index || pod.uid === except || !failsItsIndex(state, pod)) continue;
      if (state.status.failedIndexes.add(index)) releaseHeld(state, index);
      break;
    }
  }
}

/**
 * Counts the pod if its state says it should be counted now. `mayHold`: false when the pod's
 * finalizer is known to be gone already (observe-pod.ts countByEvidence) — upstream holds a
 * failed pod by keeping that finalizer, so one removed was counted.
 */
export function countPod(state: JobState, pod: PodRecord, mayHold = true): void {
  const settings = state.settings;
  if (!settings || pod.counted !== 'none' || !isTracked(pod)) return;
  // Counted by another rule before its sync judged it (observe-pod.ts countAtSync): the policy's
  // match is taken where the count is made.
  judgeFailure(state, pod);
  if (settings.indexed && !countableIndex(state, pod)) return;
  if (pod.phase === 'Succeeded') return countSucceeded(state, pod);
  const failing = hasTrueCondition(state.status.conditions, 'FailureTarget');
  if (isPodFailed(state, pod)) {
    if (mayHold && !failing && holdForReplacement(state, pod)) return;
    countFailed(state, pod, true);
    return;
  }
  // While the Job is failing, every other pod it still tracks is counted as failed, unless the
  // pod failure policy says its failure does not count: upstream matches the policy on these
  // pods too, so a Running pod with DisruptionTarget under an Ignore rule is accounted for but
  // not failed.
  if (failing) countFailed(state, pod, false);
}

function countSucceeded(state: JobState, pod: PodRecord): void {
  pod.counted = 'succeeded';
  const { status, settings } = state;
  if (settings?.indexed) {
    if (status.completedIndexes.add(pod.index)) {
      advanceRuleProgress(settings.successPolicyRules ?? [], state.successRuleProgress, pod.index);
      releaseHeld(state, pod.index);
    }
  } else {
    status.succeeded += 1;
  }
  state.lastSucceeded = { uid: pod.uid, name: pod.name, index: pod.index, seq: pod.lastSeq };
  recordSuccessTime(state, pod.finishedAt);
}

/** `ownFailure`: the pod failed by itself (feeds the recreation backoff), not by the Job failing. */
function countFailed(state: JobState, pod: PodRecord, ownFailure: boolean): void {
  const rules = state.settings?.podFailurePolicyRules;
  const match = ownFailure ? pod.failureMatch : rules && matchPodFailurePolicy(rules, pod);
  const ignored = !countsFailure(match);
  pod.counted = ignored ? 'ignored' : 'failed';
  if (!ignored) state.status.failed += 1;
  const recorded = ownFailure && recordFailureTime(state, pod.finishedAt);
  journal(state, { kind: 'counted', uid: pod.uid, ...(recorded ? { failureTime: pod.finishedAt } : {}) });
}

/**
 * backoffLimitPerIndex: the latest failed pod of an index that is not succeeded, failed or
 * active keeps its finalizer until the replacement exists, so its failure count carries over
 * (upstream `getPodsWithDelayedDeletionPerIndex`). Returns true when the pod is held.
 */
function holdForReplacement(state: JobState, pod: PodRecord): boolean {
  const settings = state.settings;
  if (settings?.backoffLimitPerIndex === undefined) return false;
  if (hasTrueCondition(state.status.conditions, 'SuccessCriteriaMet')) return false;
  const index = pod.index;
  const { completedIndexes, failedIndexes } = state.status;
  if (completedIndexes.has(index) || failedIndexes.has(index) || state.activeByIndex.has(index)) {
    return false;
  }
  const heldUid = state.held.get(index);
  const held = heldUid === undefined ? undefined : state.pods.get(heldUid);
  if (held && held.uid !== pod.uid) {
    const keepsHeld =
      absoluteFailureCount(held) > absoluteFailureCount(pod) || pod.finishedAt < held.finishedAt;
    if (keepsHeld) return false;
    releaseHeld(state, index);
  }
  state.held.set(index, pod.uid);
  const countable = countsFailure(pod.failureMatch);
  if (countable) state.heldCountable += 1;
  journal(state, { kind: 'held', index, uid: pod.uid, countable });
  return true;
}

export const absoluteFailureCount = (pod: PodRecord): number =>
  pod.failureCount + pod.ignoredFailureCount;

/**
 * A held pod is not counted yet, so upstream judges it again at every sync from its newest
 * state: before a newer observation of it is folded, it is let go without being counted.
 */
export function unhold(state: JobState, pod: PodRecord): void {
  if (state.held.get(pod.index) !== pod.uid) return;
  state.held.delete(pod.index);
  if (countsFailure(pod.failureMatch)) state.heldCountable -= 1;
}

/** Counts the pod held for an index, once its replacement exists or the index is settled. */
export function releaseHeld(state: JobState, index: number): void {
  const uid = state.held.get(index);
  if (uid === undefined) return;
  state.held.delete(index);
  const pod = state.pods.get(uid);
  if (!pod) return;
  const countable = countsFailure(pod.failureMatch);
  if (countable) state.heldCountable -= 1;
  journal(state, { kind: 'released', index, uid, countable });
  countFailed(state, pod, true);
}

/** A success finishing at or after a failure resets the consecutive-failure count. */
function recordSuccessTime(state: JobState, finishedAt: number): void {
  const backoff = state.backoff;
  if (backoff.lastSuccessAt === undefined || finishedAt > backoff.lastSuccessAt) {
    backoff.lastSuccessAt = finishedAt;
  }
  backoff.failureTimes = backoff.failureTimes.filter((t) => t > finishedAt);
}

function recordFailureTime(state: JobState, finishedAt: number): boolean {
  const backoff = state.backoff;
  if (backoff.lastSuccessAt !== undefined && finishedAt <= backoff.lastSuccessAt) return false;
  const times = backoff.failureTimes;
  let at = times.length;
  while (at > 0 && (times[at - 1] ?? 0) > finishedAt) at--;
  times.splice(at, 0, finishedAt);
  if (times.length > MAX_FAILURE_TIMES) times.shift();
  return true;
}

/**
 * The FailureTarget was taken back (outcome-correction.ts): a pod its sync counted as failed
 * though it had not failed (countPod while failing) is not counted any more; returns whether it
 * was. A count a deletion inferred stays (state.inferred: SuccessCriteriaMet takes back those
 * after it). A pod being deleted is uncounted too: its deletion counts it again, as inferred
 * (observe-pod.ts), so that a success met before the deletion can take it back.
 */
export function uncountFailingSync(state: JobState, pod: PodRecord): boolean {
  if (pod.counted !== 'failed' && pod.counted !== 'ignored') return false;
  if (isTerminalPhase(pod.phase) || state.inferred.has(pod.uid)) return false;
  if (pod.counted === 'failed') state.status.failed -= 1;
  pod.counted = 'none';
  return true;
}

/**
 * The Job's completions over the cluster's clock changed (an elastic Indexed Job observed out of
 * order): both its failed pods (recountFailuresByCompletions) and its completed indexes are
 * counted again by the completions in force at each pod's instant.
 */
export function recountByCompletions(state: JobState): void {
  recountFailuresByCompletions(state);
  recountCompletedIndexes(state);
}

/**
 * An index a pod completed stays completed only while every completions in force since the
 * success, on the cluster's clock, covers it: upstream parses completedIndexes against the
 * current completions on every sync, so a lowering drops the index for good and a raise does not
 * bring it back (a new pod of the index runs again) — whichever order the success and the Job
 * observations arrived in. Found by the corpus property (issue 21,
 * elastic-indexed__scale-down-then-up): the raise arriving before the lowering, the success of
 * the index's new pod was clipped by the lowering and never came back. Indexes no pod tells (the
 * status a Job adopted mid-flight reported) stay as clipped. O(pods + changes).
 */
function recountCompletedIndexes(state: JobState): void {
  const settings = state.settings;
  if (!settings?.indexed || settings.managedBy === JOBFOLD_CONTROLLER_NAME) return;
  const kept = new Map<number, boolean>();
  for (const pod of state.pods.values()) {
    if (pod.counted !== 'succeeded' || pod.index < 0 || kept.get(pod.index) === true) continue;
    kept.set(pod.index, pod.index < completionsSince(state, outcomeSeenAt(pod) ?? Infinity));
  }
  const completed = state.status.completedIndexes;
  const dropped = new Set<number>();
  let changed = false;
  for (const [index, keep] of kept) {
    if (keep) changed = completed.add(index) || changed;
    else if (completed.has(index)) dropped.add(index);
  }
  if (dropped.size > 0) state.status.completedIndexes = IndexSet.of(...[...completed].filter((index) => !dropped.has(index)));
  if (changed || dropped.size > 0) state.successRuleProgress = initialRuleProgress(settings.successPolicyRules ?? [], state.status.completedIndexes);
}

/**
 * The Job's completions over the cluster's clock changed (an elastic Indexed Job observed out of
 * order): a failed pod counts if its index was valid when it failed (countableIndex), and one
 * counted by completions it failed after no longer does. O(pods), on such an observation only.
 */
function recountFailuresByCompletions(state: JobState): void {
  if (!state.settings?.indexed || state.settings.managedBy === JOBFOLD_CONTROLLER_NAME) return;
  for (const pod of state.pods.values()) {
    if (!isPodFailed(state, pod)) continue;
    if (pod.counted === 'none') {
      // Failed before the Job finished on the cluster's clock: the final status counts it too.
      const before = countsBeforeLateOutcome(state, outcomeSeenAt(pod) ?? Infinity);
      countPod(state, pod);
      if (before) countLateOutcome(state, before);
    } else if (pod.counted === 'failed' && !countableIndex(state, pod) && !state.inferred.has(pod.uid)) {
      pod.counted = 'none';
      state.status.failed -= 1;
    }
  }
}
