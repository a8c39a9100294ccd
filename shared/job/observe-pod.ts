import { comparableVersion, isStaleObservation, type ObservationOrder } from '../k8s/object-sequence.ts';
import { parseTime } from '../k8s/time.ts';
import type { PodDeleted, PodObserved } from './events.ts';
import { enter, leave } from './aggregates.ts';
import { creationSeen } from './expectations.ts';
import { countPod, isPodFailed, isTracked, judgeFailure, judgeIndex, rejudgeIndexes, releaseHeld, uncountFailingSync, unhold } from './counting.ts';
import { hasTrueCondition } from './conditions.ts';
import { JOB_TRACKING_FINALIZER, JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { podFacts, ZERO_TIME_MS, type PodFacts } from './pod-facts.ts';
import { isTerminalPhase, mergeFacts, noteDeletionRequested, noteSeen, podClass, recordOrder, newPodRecord, reportsReady, takeFacts, type PodRecord } from './pod-record.ts';
import { countingObservation, revokeRunCount } from './run.ts';
import { countLateOutcome, countsBeforeFinalCount, countsBeforeLateOutcome, followRecount } from './late-outcome.ts';
import type { JobState } from './state.ts';
import { deletedAsExcess } from './excess-deletions.ts';
import { byLeastAdvanced } from './active-pods-order.ts';
import { finishedOnCluster, notePodFirstSeen, unseenBy } from './cluster-finish.ts';
import { observationMovesNoInstant, podObservationMark } from './criterion-instants.ts';
import { openMetBefore } from './met-before.ts';

/**
 * Folds a pod observation: merge, recount its contribution, apply the counting rules. A pod's
 * state is a join of its observations: one older (by resourceVersion, or the forwarder's stamp)
 * than, or the same as, one already folded arrives late, stays in the log and does not move the
 * pod backwards; but if it shows the pod finished while still carrying the tracking finalizer
 * and the pod is not counted yet, it is what upstream counted the pod by, and counts it.
 */
export function observePod(state: JobState, event: PodObserved, at: number): void {
  const known = state.pods.get(event.pod.metadata.uid);
  const seenTracked = known?.trackedSeen === true;
  if (known !== undefined) countBeforeRemoval(state, known, event);
  foldObservation(state, event, at, known);
  // Known so far by its deletion alone: this observation shows the cluster's Job tracked it.
  if (known?.gone === true && !seenTracked && known.trackedSeen === true) inferDeletedWhileFailing(state, known);
}

/**
 * A pod awaiting its sync's count (countAtSync), seen finished with the tracking finalizer, now
 * seen without it: a sync read it finished and counted it before removing the finalizer, so it
 * is counted from the facts that sync read, before they give way to the newer ones.
 */
function countBeforeRemoval(state: JobState, pod: PodRecord, event: PodObserved): void {
  if (!state.countDue.has(pod.uid) || !pod.hasFinalizer || !isTerminalPhase(pod.phase)) return;
  if ((event.pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) return;
  state.countDue.delete(pod.uid);
  if (pod.controlledBy === undefined) countPodFacts(state, pod);
}

function foldObservation(state: JobState, event: PodObserved, at: number, known: PodRecord | undefined): void {
  if (known?.controlledBy !== undefined) return; // another Job's now: nothing it does is this Job's
  if (event.controlledBy !== undefined) return releaseToController(state, event, known, at);
  if (known) noteSeen(known, at);
  if (known) noteDeletionRequested(known, event.pod.metadata);
  const order = podObservationOrder(event);
  const stale = known !== undefined && isStaleObservation(recordOrder(known), order);
  if (stale) lateReadiness(state, known, event);
  const failingCount = known !== undefined && countedByFailingSync(state, known);
  if (stale && (known.counted !== 'none' || known.hasFinalizer)) {
    if (failingCount) succeededWhenFailing(state, known, event);
    else outcomeSeenEarlier(state, known, event);
    return;
  }
  const facts = podFacts(event.pod, state.settings?.sidecarNames ?? NO_SIDECARS, state.settings?.policyInterest, at);
  const observedAt = parseTime(event.observedAt);
  if (known) noteTracking(known, facts);
  if (known && stale) {
    if (!facts.hasFinalizer && (known.strippedAt === undefined || observedAt < known.strippedAt)) known.strippedAt = observedAt;
    // The earliest instant it was seen so is its outcome's on the cluster's clock (criterion-instants.ts), whatever came first.
    if (facts.hasFinalizer) noteEndedTracked(state, known, facts, observedAt);
    countByEvidence(state, known, facts, observedAt);
    return countStrippedLive(state, known, observedAt);
  }
  if (known && facts.hasFinalizer) noteEndedTracked(state, known, facts, observedAt);
  if (known) {
    if (order.sequence !== undefined) known.order = order.sequence;
    if (order.version !== undefined) known.version = order.version;
    known.lastEventId = event.eventId;
  }
  if (!known) {
    const pod = newRecord(state, facts, false, order, at);
    noteDeletionRequested(pod, event.pod.metadata);
    noteTracking(pod, facts);
    pod.lastEventId = event.eventId;
    if (!facts.hasFinalizer) pod.strippedAt = observedAt;
    if (facts.hasFinalizer) noteEndedTracked(state, pod, facts, observedAt);
    // Upstream `addPod` lowers the creation expectation for any new pod of the Job.
    creationSeen(state, pod.index >= 0 ? pod.index : undefined);
    afterChange(state, pod);
    countStrippedLive(state, pod, observedAt);
    return;
  }
  // Unordered observations: the finalizer only ever goes, so one showing it is the older; if
  // it shows the pod finished and the pod is not counted, it counts it (below).
  const evidence = !known.hasFinalizer && facts.hasFinalizer && known.counted === 'none' ? facts : undefined;
  // In order: the pod was seen finished with the finalizer and left uncounted (held for its
  // index), and this newer observation shows the finalizer gone: the earlier one is the evidence.
  // Before the spec is known, a deletion seen tracked is evidence too (countByEvidence keeps it for the spec).
  const finishedTracked = known.finishedTrackedAt ?? (state.settings === undefined ? state.earlyDeletedTrackedAt.get(known.uid) : undefined);
  const heldEvidence =
    known.hasFinalizer && !facts.hasFinalizer && known.counted === 'none' && endedAsCounted(state, known) &&
    finishedTracked !== undefined && finishedTracked < observedAt
      ? { ...known }
      : undefined;
  if (!facts.hasFinalizer && (known.strippedAt === undefined || observedAt < known.strippedAt)) known.strippedAt = observedAt;
  const merged = mergeFacts(known, facts);
  if (!merged) {
    if (evidence) countByEvidence(state, known, evidence, observedAt);
    if (heldEvidence && finishedTracked !== undefined) countByEvidence(state, known, heldEvidence, finishedTracked);
    return countStrippedLive(state, known, observedAt); // a replay, or a state older than what is known: nothing changes
  }
  const wasTracked = known.hasFinalizer;
  leave(state, known);
  takeFacts(known, merged);
  known.lastSeq = state.position;
  // What was counted (or held) from an older state of the pod is judged again from this one.
  // After the merge: the merged facts may carry the record's old bookkeeping along.
  rejudgeIndexes(state, revokeRunCount(state, known.uid), known.uid);
  // What the pod's deletion made of it until it was seen finished gives way to how it ended,
  // unless it was seen without its finalizer before it finished: how it ended came after.
  const inferredRevoked = isTerminalPhase(known.phase) && state.inferred.has(known.uid) && known.strippedLive !== true;
  if (inferredRevoked) rejudgeIndexes(state, revokeRunCount(state, known.uid, state.inferred), known.uid);
  unhold(state, known);
  enter(state, known);
  afterChange(state, known);
  // Seen tracked, then deleted (counted as its deletion made it), then finished with the
  // finalizer already gone: the controller counted it as it ended, when it removed the
  // finalizer. Counted so here too, not left uncounted (the failed count would go back).
  if (inferredRevoked && wasTracked && !known.hasFinalizer && known.counted === 'none') countAsTracked(state, known, known);
  if (evidence) countByEvidence(state, known, evidence, observedAt);
  if (heldEvidence && finishedTracked !== undefined) countByEvidence(state, known, heldEvidence, finishedTracked);
  countStrippedLive(state, known, observedAt);
  if (failingCount) succeededWhenFailing(state, known, event);
}

/**
 * A late, older observation of a pod counted as it ended, showing it ended with its tracking
 * finalizer: the cluster saw the outcome then, so that is its instant on the cluster's clock
 * (criterion-instants.ts), whichever observation arrived first. Nothing else of it is taken (the
 * newer observation stands). Left at the newer one's instant, a success policy met at 0:00 read as
 * met at 1:03 when the 0:00 observation came last, after a suspension of 1:01 that jobfold took the
 * controller to have flipped: the suspension was then weighed as before the outcome and its
 * JobResumed kept, where the cluster, finished at 0:00, never wrote Suspended (generated cluster
 * history-21).
 */
function outcomeSeenEarlier(state: JobState, pod: PodRecord, event: PodObserved): void {
  if (pod.counted === 'none' || !(event.pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) return;
  const observedAt = parseTime(event.observedAt);
  if (observedAt >= (pod.finishedTrackedAt ?? Infinity)) return;
  const facts = podFacts(event.pod, state.settings?.sidecarNames ?? NO_SIDECARS, state.settings?.policyInterest, observedAt);
  if (endedAsCounted(state, facts)) pod.finishedTrackedAt = observedAt;
}

/**
 * Counted failed by the sync that found the Job failing (counting.ts countPod: every pod it still
 * tracks), though the pod did not fail: not Failed, not being deleted, and no deletion's count
 * (state.inferred).
 */
const countedByFailingSync = (state: JobState, pod: PodRecord): boolean =>
  (pod.counted === 'failed' || pod.counted === 'ignored') && pod.phase !== 'Failed' && pod.deletionTimestamp === undefined && !state.inferred.has(pod.uid);

/**
 * A pod the failing sync counted failed (countedByFailingSync), seen Succeeded with its tracking
 * finalizer at or before the instant the failure criterion was met on the cluster's clock
 * (state.outcomeMetAt): the cluster's failing sync read it Succeeded and counted it so (upstream
 * counts only non-terminated pods as failed when the Job fails), whichever arrived first; the
 * final status follows. Found by the corpus property (issue 21,
 * success-policy__backoff-limit-wins-in-same-sync): the Job arrived after two failures of :05:00,
 * failed on them, and the success of the same instant arrived last.
 */
function succeededWhenFailing(state: JobState, pod: PodRecord, event: PodObserved): void {
  const metAt = state.outcomeMetAt;
  const observedAt = parseTime(event.observedAt);
  if (metAt === undefined || observedAt > metAt || !hasTrueCondition(state.status.conditions, 'FailureTarget')) return;
  const facts = podFacts(event.pod, state.settings?.sidecarNames ?? NO_SIDECARS, state.settings?.policyInterest, observedAt);
  if (facts.phase !== 'Succeeded' || !facts.hasFinalizer) return;
  const before = pod.counted;
  if (before === 'failed') state.status.failed -= 1;
  pod.counted = 'none';
  if (observedAt < (pod.finishedTrackedAt ?? Infinity)) pod.finishedTrackedAt = observedAt;
  countAsTracked(state, pod, facts);
  followRecount(state, pod, before);
}

/**
 * The readiness a late (stale) observation tells of a live pod whose newer observations carried
 * no Ready condition: the kubelet adds it at the pod's first sync and never takes it away, so
 * its absence is the older readiness (mergeFacts keeps it so when the observations arrive in
 * order). Found by test:explore (stamped-arrival, seed 1538991330): Running and Ready, then
 * Running without conditions, gave ready 1 in order and 0 the other way round.
 */
function lateReadiness(state: JobState, pod: PodRecord, event: PodObserved): void {
  if (isTerminalPhase(pod.phase) || reportsReady(pod) || !event.pod.status?.conditions?.some((c) => c.type === 'Ready')) return;
  const facts = podFacts(event.pod, state.settings?.sidecarNames ?? NO_SIDECARS, state.settings?.policyInterest);
  if (isTerminalPhase(facts.phase) || !reportsReady(facts)) return;
  leave(state, pod);
  Object.assign(pod, { ready: facts.ready, readySince: facts.readySince, readyChangedAt: facts.readyChangedAt });
  enter(state, pod);
}

/** What the observation tells of the pod's tracking finalizer (pod-record.ts trackedSeen, strippedLive). */
function noteTracking(pod: PodRecord, facts: PodFacts): void {
  if (facts.hasFinalizer) pod.trackedSeen = true;
  else if (!isTerminalPhase(facts.phase)) pod.strippedLive = true;
}

/**
 * A pod seen carrying the tracking finalizer, and seen without it before it finished
 * (strippedLive). Upstream removes the finalizer of a pod that has not finished only in a sync
 * that counts it failed — it is being deleted and not only Failed pods are replaced
 * (`isPodFailed`), or the Job is failing, when every tracked pod not succeeded counts as failed
 * (`trackJobStatusAndRemoveFinalizers`) — or in one that leaves it uncounted: the Job met its
 * success criteria before the deletion, or is suspended, or manageJob deleted the pod as
 * excess (`deleteJobPods` removes the finalizer first; `released`, counting.ts isTracked).
 * countPod tells them apart from the pod as it was then, unfinished and tracked, whatever it
 * did after: a pod that succeeded once its finalizer was gone is no success. The count is
 * journaled as a deletion's (state.inferred), so success criteria met before the deletion
 * take it back (forgetDeletionsAfterSuccess), and a terminal observation never does (the pod
 * ended after it was counted). Whichever of the pod's observations arrives first, it counts once.
 */
function countStrippedLive(state: JobState, pod: PodRecord, observedAt?: number): void {
  if (pod.counted !== 'none' || pod.trackedSeen !== true || pod.strippedLive !== true || pod.hasFinalizer) return;
  const settings = state.settings;
  if (settings === undefined || pod.controlledBy !== undefined) return; // countKnownPod counts it once the spec is known
  // A Job jobfold runs loses a finalizer only when jobfold has counted the pod; a suspended
  // Job's controller removes it first, uncounted.
  if (settings.managedBy === JOBFOLD_CONTROLLER_NAME || settings.suspend === true) return;
  if (deletedAfterSuccess(state, pod.deletionTimestamp ?? Infinity)) return;
  const live: PodFacts = isTerminalPhase(pod.phase) ? { ...pod, phase: 'Running', terminated: [], conditions: [], finishedAt: ZERO_TIME_MS } : pod;
  // Removed before jobfold finished the Job on the cluster's clock, the count is in the final
  // status, whichever of the pod's observations arrived after (late-outcome.ts); so is one seen
  // removed at the very instant it finished: the sync that finished the Job read the pod then,
  // and upstream never finishes a Job before counting every pod it removed the finalizer of.
  // An observation the fold takes as a late outcome adds it already.
  const asLateOutcome = observedAt !== undefined && countsBeforeLateOutcome(state, observedAt) !== undefined;
  const removedBefore = pod.strippedAt !== undefined && state.finishedInstant !== undefined && pod.strippedAt <= state.finishedInstant;
  const before = asLateOutcome || !removedBefore ? undefined : countsBeforeFinalCount(state);
  countingObservation(state, pod.uid, true, () => countAsTracked(state, pod, live), state.inferred);
  if (before) countLateOutcome(state, before);
  // Counted at FailureTarget (no observation): tracked from its first sighting until the failing sync stripped it.
  const trackedAt = observedAt ?? pod.firstSeenAt;
  if (trackedAt !== undefined) releaseDuplicateOf(state, pod, trackedAt);
}

/**
 * A pod of an index shown tracked and running late (observed at `trackedAt`, before the failure
 * criterion was met on the cluster's clock), beside a less advanced pod of its index that the
 * failing sync counted failed though it had not failed: on the cluster, the sync that first read
 * both (both seen before the criterion) deleted that one as a duplicate (manage-pods.ts
 * invalidAndDuplicated; upstream `appendDuplicatedIndexPodsForRemoval` keeps the most advanced by
 * `controller.ActivePods`, removing the finalizer first), so the failing sync did not count it.
 * The count moves from it to this pod, in the same step (or in the failing sync's own step, when
 * the pod's observations all arrived before the Job; or when the failing sync counts either pod
 * as it is folded, releaseDuplicatesOfIndex). Found by the generated elastic
 * history-36 (issue 21): the Job arrived after the running pod's finalizer-less observation.
 */
function releaseDuplicateOf(state: JobState, pod: PodRecord, trackedAt: number): void {
  const metAt = state.outcomeMetAt;
  if (pod.index < 0 || pod.counted !== 'failed' || metAt === undefined || trackedAt >= metAt) return;
  if (!hasTrueCondition(state.status.conditions, 'FailureTarget')) return;
  for (const other of state.pods.values()) {
    if (other === pod || other.index !== pod.index || !other.hasFinalizer || !countedByFailingSync(state, other)) continue;
    // Both active on the cluster at once before the criterion; created in one second (manage-pods.ts withoutEndedUnseen).
    if ((other.firstSeenAt ?? Infinity) >= metAt || other.creationTimestamp !== pod.creationTimestamp) continue;
    if (byLeastAdvanced(other, pod) >= 0) continue;
    uncountFailingSync(state, other);
  }
}

/** FailureTarget: every pod stripped before it finished that is not counted yet counts as the failing sync counted it. O(pods), once. */
export function countStrippedLivePods(state: JobState): void {
  for (const pod of state.pods.values()) countStrippedLive(state, pod);
}

/**
 * The pod this Job created is controlled by another Job now (it was released, then adopted).
 * Upstream's controller re-syncs the Job whose controllerRef the pod lost, and its `ClaimPods`
 * ignores a pod owned by someone else: the pod leaves the Job's active, ready and terminating
 * counts, is not counted when it ends (the other Job counts it), is no longer awaited or
 * terminated, and nothing it does later is this Job's. What it already counted stays, as
 * upstream's status keeps it. Once another's, always another's: whatever order the pod's
 * observations arrive in, the Job ends the same.
 */
function releaseToController(state: JobState, event: PodObserved, known: PodRecord | undefined, at: number): void {
  const pod = known ?? newRecord(state, podFacts(event.pod, NO_SIDECARS, undefined, at), false, podObservationOrder(event), at);
  // Seen first as another Job's, it was still created for this one (its controller-uid label).
  if (!known) creationSeen(state, pod.index >= 0 ? pod.index : undefined);
  leave(state, pod);
  pod.gone = true;
  pod.controlledBy = event.controlledBy;
  pod.lastEventId = event.eventId;
  pod.lastSeq = state.position;
  enter(state, pod);
  state.expectations.deletions.delete(pod.uid);
  state.awaitingOutcome.delete(pod.uid);
  state.earlyEvidence.delete(pod.uid);
  if (state.held.get(pod.index) === pod.uid) releaseHeld(state, pod.index);
}

/** The facts an observation holds that decide how a finished pod counts. */
const COUNTED_FACTS = ['phase', 'deletionTimestamp', 'terminated', 'conditions', 'finishedAt', 'failureCount', 'ignoredFailureCount'] as const;

/**
 * An older observation (`evidence`, observed at `observedAt`) shows the pod finished (or
 * deleted, which upstream counts as failed unless only Failed pods are replaced) while it still
 * carried the tracking finalizer, and the pod is not counted: a sync read it so, counted it and
 * removed the finalizer after, so the fold counts it by that observation, once. Only if it was
 * observed before the finalizer was first seen gone (`strippedAt`): one sync reads the
 * observations that share a time as one snapshot, the newest of them (run.ts). The record
 * keeps its newest state otherwise. Depends on the pod's observations, not their arrival order.
 */
function countByEvidence(state: JobState, pod: PodRecord, evidence: PodFacts, observedAt: number): void {
  const stripped = pod.strippedAt;
  // In the removal's second too: the finalizer never comes back, so an observation showing it came first (seed-5/history-4).
  if (pod.counted !== 'none' || !evidence.hasFinalizer || stripped === undefined || observedAt > stripped) return;
  if (state.settings === undefined) {
    // The spec decides how it counts: kept until it is known, the newest before the removal.
    const kept = state.earlyEvidence.get(pod.uid);
    if (kept === undefined || kept.observedAt < observedAt) state.earlyEvidence.set(pod.uid, { facts: evidence, observedAt });
    return;
  }
  if (!endedAsCounted(state, evidence)) return;
  countAsTracked(state, pod, evidence);
}

/**
 * Counts a pod whose finalizer is gone as a sync that read `facts` with the finalizer still on
 * counted it; the record keeps its own facts (and no finalizer), and the failure policy's match
 * of the facts it was counted by. A `Failed` observation is matched as it is (upstream's sync
 * matched `matchPodFailurePolicy` against the pod its informer held), not by the match of a newer
 * one: a late observation of a pod `Failed` with exit code 42, tracked, under a rule that
 * ignores `DisruptionTarget`, counts failed though a newer one, without the finalizer, shows the
 * condition (a writer loaded cold, whose archived pod keeps no match, counted it so: stored-orders
 * seed 5, free history-4). A pod counted as it was while it ran (countStrippedLive) keeps the
 * match of how it ended.
 */
function countAsTracked(state: JobState, pod: PodRecord, facts: PodFacts): void {
  leave(state, pod);
  const kept: Partial<PodRecord> = {};
  for (const key of COUNTED_FACTS) Object.assign(kept, { [key]: pod[key] });
  const ownMatch = isTerminalPhase(pod.phase) && facts.phase !== 'Failed';
  Object.assign(pod, { hasFinalizer: true, failureMatch: ownMatch ? pod.failureMatch : undefined });
  for (const key of COUNTED_FACTS) Object.assign(pod, { [key]: facts[key] });
  judgeFailure(state, pod);
  judgeIndex(state, pod);
  unhold(state, pod);
  countPod(state, pod, false);
  Object.assign(pod, kept, { hasFinalizer: false });
  enter(state, pod);
}

/**
 * What an observation with the tracking finalizer shows a sync counting: the pod finished, or is
 * being deleted, which upstream's `isPodFailed` counts as failed unless only Failed pods are replaced.
 */
/**
 * An observation with the tracking finalizer that shows the pod ended as a sync counts it: the
 * earliest is its outcome's instant on the cluster's clock (finishedTrackedAt). Before the Job's
 * spec is known, one that shows it only being deleted waits for the spec (state.earlyDeletedTrackedAt,
 * countKnownPod): where only Failed pods are replaced, a deletion ends nothing, and taken as the
 * instant it put a pod's failure, seen at 0:06, at 0:00, the failure criterion then met before
 * another pod's failure of 0:01, which fell outside the final status (generated cluster
 * seed-5/history-23, the pods' events arriving before the Job).
 */
function noteEndedTracked(state: JobState, pod: PodRecord, facts: PodFacts, observedAt: number): void {
  if (!(observedAt < (pod.finishedTrackedAt ?? Infinity))) return;
  if (state.settings === undefined && !isTerminalPhase(facts.phase)) {
    if (facts.deletionTimestamp !== undefined && !(observedAt >= (state.earlyDeletedTrackedAt.get(pod.uid) ?? Infinity))) state.earlyDeletedTrackedAt.set(pod.uid, observedAt);
    return;
  }
  if (endedAsCounted(state, facts)) pod.finishedTrackedAt = observedAt;
}

const endedAsCounted = (state: JobState, facts: PodFacts): boolean =>
  isTerminalPhase(facts.phase) || (!state.settings?.onlyReplaceFailedPods && facts.deletionTimestamp !== undefined);

const NO_SIDECARS: ReadonlySet<string> = new Set();

/** A pod observation's place among the pod's others: its resourceVersion, and the forwarder's stamp. */
export const podObservationOrder = (event: PodObserved): ObservationOrder => ({
  version: comparableVersion(event.pod.metadata.resourceVersion),
  sequence: event.sequence,
});

/**
 * Folds the pod's disappearance; the record stays as a tombstone so late events count once. A
 * pod deleted before anything said how it ended is counted as upstream's `isPodFailed` counts a
 * deleted pod that did not succeed (inferOutcome), until its own events say otherwise.
 */
export function podDeleted(state: JobState, event: PodDeleted, at: number): void {
  const known = state.pods.get(event.uid);
  if (!known) {
    newRecord(state, tombstoneFacts(event, at), true, {}, at).lastEventId = event.eventId;
    // Seeing a pod's deletion first still means the pod was created: lower the expectation,
    // or the arrival order would decide whether the Job waits for it.
    creationSeen(state, undefined);
    return;
  }
  noteSeen(known, at);
  if (known.gone) return;
  leave(state, known);
  known.gone = true;
  // A pod is deleted by setting its deletionTimestamp first (the finalizer holds it there).
  if (known.deletionTimestamp === undefined) Object.assign(known, { deletionTimestamp: at });
  known.lastEventId = event.eventId;
  known.lastSeq = state.position;
  enter(state, known);
  state.expectations.deletions.delete(known.uid);
  if (state.held.get(known.index) === known.uid) releaseHeld(state, known.index);
  if (uncountGoneBeforeFailing(state, known, at)) return;
  inferOutcome(state, known, at);
}

/**
 * A pod the failing sync counted failed for being tracked and unfinished (FailureTarget counts
 * every such pod), whose deletion, arriving after, shows it gone on the cluster's clock before the
 * failure was met (state.outcomeMetAt): the cluster's failing sync never listed it, so it is
 * uncounted (the final status follows), as when the deletion arrived first, where its deletion
 * alone does not count it failed (gone-before-failing.spec.ts; generated cluster seed-5/history-51: a pod Running
 * and deleted at 0:00, the Job failing at 0:01 under `podReplacementPolicy: Failed`). Jobs jobfold
 * runs are exempt: their failing sync is jobfold's own, on the view it held.
 */
function uncountGoneBeforeFailing(state: JobState, pod: PodRecord, at: number): boolean {
  const since = state.outcomeMetAt;
  if (since === undefined || at >= since || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return false;
  // A deletion that counts the pod failed by itself (isPodFailed) leaves the count as it is.
  if (!hasTrueCondition(state.status.conditions, 'FailureTarget') || isPodFailed(state, pod)) return false;
  const before = pod.counted;
  if (!uncountFailingSync(state, pod)) return false;
  followRecount(state, pod, before);
  return true;
}

/**
 * Counts a pod the fold holds once the spec is known (the Job's first observation, or a new
 * completions): by its state, or, deleted before it was seen finished, as inferOutcome does.
 */
export function countKnownPod(state: JobState, pod: PodRecord): void {
  const deletedTrackedAt = state.earlyDeletedTrackedAt.get(pod.uid);
  if (deletedTrackedAt !== undefined) state.earlyDeletedTrackedAt.delete(pod.uid);
  if (pod.controlledBy !== undefined) return;
  // Its spec known: a deletion seen tracked before it ended the pod as counted, or not (noteEndedTracked).
  if (deletedTrackedAt !== undefined && !state.settings?.onlyReplaceFailedPods && deletedTrackedAt < (pod.finishedTrackedAt ?? Infinity)) pod.finishedTrackedAt = deletedTrackedAt;
  const early = state.earlyEvidence.get(pod.uid);
  if (early !== undefined) {
    state.earlyEvidence.delete(pod.uid);
    countByEvidence(state, pod, early.facts, early.observedAt);
    if (pod.counted !== 'none') return;
  }
  // A deletion of a pod never observed (a tombstone: no creationTimestamp) counts nothing when it
  // arrives after the Job (podDeleted), so not when it arrives before either; a Job jobfold runs
  // awaits its outcome both ways (inferOutcome). Generated cluster seed-99/history-45: counted
  // failed on the Job's arrival, it made a second failure the cluster's order never counts.
  if (pod.gone && !isTerminalPhase(pod.phase)) {
    if (pod.creationTimestamp !== undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) inferOutcome(state, pod, pod.deletionTimestamp ?? state.clock.now ?? 0);
  } else countPod(state, pod);
  countStrippedLive(state, pod);
}

/**
 * A pod deleted while the fold still tracks it and before it was seen finished. Upstream saw
 * it with a deletionTimestamp and the finalizer (which holds a pod until the controller has
 * counted it) and counted it as `isPodFailed` says: failed, unless only Failed pods are
 * replaced, or the Job had met its success criteria before the deletion on the cluster's clock
 * (upstream then removed every pod's finalizer without counting it), or the Job is suspended (its controller deletes the active
 * pods without counting them), or it was deleted as excess after parallelism was lowered (excess-deletions.ts). The count is journaled in `state.inferred`: if the pod's
 * terminal observation arrives later, it decides instead (observePod). For a Job jobfold runs,
 * the finalizer goes only once jobfold has counted the pod, so such a deletion arrived ahead of
 * the pod's own events: it is awaited like an expectation instead (state.awaitingOutcome).
 */
function inferOutcome(state: JobState, pod: PodRecord, at: number): void {
  if (pod.counted !== 'none' || pod.controlledBy !== undefined || !isTracked(pod) || isTerminalPhase(pod.phase)) return;
  // Deleted after the success criteria were met: upstream had removed its finalizer uncounted.
  if (deletedAfterSuccess(state, at)) return;
  // A suspended Job's controller deletes its active pods the way manageJob does (the finalizer
  // goes first, so they are not counted): a deletion that arrived before that removal did.
  if (state.settings?.suspend === true) return;
  if (state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME && !pod.finalizerRemovalRequested) {
    state.awaitingOutcome.set(pod.uid, at);
    return;
  }
  // Deleted as excess after parallelism was lowered: the controller removed its finalizer first.
  if (deletedAsExcess(state, pod, at)) return;
  countingObservation(state, pod.uid, true, () => countPod(state, pod), state.inferred);
}

/**
 * Whether folding an interim condition may still count or uncount the pod by its walk of every
 * pod: FailureTarget counts a pod tracked once and never counted (countStrippedLivePods,
 * inferDeletionsWhileFailing), SuccessCriteriaMet takes back the failure of one deleted unfinished
 * (forgetDeletionsAfterSuccess). A fold from a snapshot holds only the archived pods its tail
 * names: such a pod, archived, was missed there, and the count differed from a replay's (issues
 * 20, 21; snapshot property, named-only restore). So it stays in the snapshot until the Job
 * finishes (snapshot.ts isSettled): a few pods (removed uncounted, or deleted while running).
 */
export function interimMayRecount(state: JobState, pod: PodRecord): boolean {
  if (state.finalStatus !== undefined) return false;
  if (pod.counted === 'none') return pod.trackedSeen === true;
  return pod.counted === 'failed' && pod.gone && !isTerminalPhase(pod.phase) && pod.deletionTimestamp !== undefined;
}

/**
 * The Job met its success criteria (SuccessCriteriaMet). Upstream's sync that met them removed
 * the tracking finalizer of every pod still running without counting it, so a pod deleted after
 * that instant on the cluster's clock was never counted. The instant (`state.successMetAt`,
 * `metAt` here: latestSuccessSeenAt, as the condition's evidence logs it) is never earlier than
 * the truth, so a pod deleted before it (counted failed by upstream) keeps its count whatever
 * arrived first; a deletion at that very instant, or with no instant known, is taken as after.
 * One whose deletion arrived ahead of the evidence of success was counted failed by
 * inferOutcome: that count is taken back. O(pods), once.
 */
export function forgetDeletionsAfterSuccess(state: JobState, metAt: number | undefined): void {
  if (metAt !== undefined) state.successMetAt = metAt;
  for (const uid of [...state.inferred.keys()]) {
    const pod = state.pods.get(uid);
    if (pod?.deletionTimestamp === undefined || !deletedAfterSuccess(state, pod.deletionTimestamp)) continue;
    leave(state, pod);
    rejudgeIndexes(state, revokeRunCount(state, uid, state.inferred), uid);
    enter(state, pod);
  }
  // Known first by its deletion, then by an older observation showing it tracked and unfinished:
  // counted failed by that observation (isPodFailed), not journaled as a deletion's count, and
  // taken back all the same. Found by the corpus property (issue 21,
  // success-policy__met-earlier-deadline-passes-while-terminating).
  for (const pod of state.pods.values()) {
    if (pod.counted !== 'failed' || !pod.gone || isTerminalPhase(pod.phase) || pod.deletionTimestamp === undefined) continue;
    if (state.inferred.has(pod.uid) || !deletedAfterSuccess(state, pod.deletionTimestamp)) continue;
    pod.counted = 'none';
    state.status.failed -= 1;
  }
}

/**
 * The latest instant at which a succeeded pod was first seen finished, or without its finalizer
 * (which goes only once it is counted); undefined when none tells it. O(pods): asked when the
 * condition is decided (its evidence logs it, interim-instants.ts), and when a condition logged
 * without it is folded.
 */
export function latestSuccessSeenAt(state: JobState): number | undefined {
  let metAt: number | undefined;
  for (const pod of state.pods.values()) {
    if (pod.counted !== 'succeeded') continue;
    const seen = Math.min(pod.finishedTrackedAt ?? Infinity, pod.strippedAt ?? Infinity);
    if (seen !== Infinity && (metAt === undefined || seen > metAt)) metAt = seen;
  }
  return metAt;
}

/**
 * SuccessCriteriaMet was taken back (outcome-correction.ts): a pod deleted after it, left
 * uncounted, counts as its deletion makes it (inferOutcome). O(pods), once.
 */
export function inferDeletedOutcomes(state: JobState): void {
  for (const pod of state.pods.values()) {
    if (pod.gone && pod.counted === 'none') inferOutcome(state, pod, pod.deletionTimestamp ?? state.clock.now ?? 0);
  }
}

/**
 * Re-applies the counting rules after a decision changed them: FailureTarget and
 * SuccessCriteriaMet release the pods held for replacement, and FailureTarget counts every
 * pod still tracked as failed, but those the cluster saw only after it finished the Job
 * (cluster-finish.ts): its failing sync never listed them. A pod being deleted after the
 * success criteria were met, that has not ended, is not counted (inferOutcome), as when its
 * deletion is folded after the decision. O(pods), once per Job.
 */
export function recountAll(state: JobState): void {
  for (const index of [...state.held.keys()]) releaseHeld(state, index);
  const finishedAt = finishedOnCluster(state);
  for (const pod of state.pods.values()) {
    if (pod.gone || (finishedAt !== undefined && unseenBy(pod, finishedAt))) continue;
    if (!deletedUnfinishedAfterSuccess(state, pod)) countPod(state, pod);
  }
}

/**
 * FailureTarget was taken back (outcome-correction.ts): what its sync counted is uncounted
 * (counting.ts uncountFailingSync), and a pod being deleted counts as its deletion makes it.
 * O(pods), once.
 */
export function uncountFailingSyncs(state: JobState): void {
  for (const pod of state.pods.values()) {
    if (uncountFailingSync(state, pod) && pod.deletionTimestamp !== undefined) inferOutcome(state, pod, pod.deletionTimestamp);
  }
}

/** FailureTarget was written: every pod gone uncounted is judged by inferDeletedWhileFailing. O(pods), once. */
export function inferDeletionsWhileFailing(state: JobState): void {
  const finishedAt = finishedOnCluster(state);
  for (const pod of state.pods.values()) {
    if (pod.gone && pod.counted === 'none') inferDeletedWhileFailing(state, pod, finishedAt);
  }
}

/**
 * A pod seen carrying the tracking finalizer and deleted at or after the instant the Job's failure
 * criterion was met on the cluster's clock (state.outcomeMetAt) was still running when the
 * cluster's Job was failing: upstream's finishing sync counted it failed ("every non-terminated
 * pod is considered failed"), even where only Failed pods count otherwise (podFailurePolicy,
 * podReplacementPolicy Failed). Its deletion can arrive before the evidence of the failure, or
 * its only observation after the deletion: then it was gone, not running, in the view that wrote
 * FailureTarget, and is counted here, as the in-order fold counts it (inferOutcome). Of a pod
 * known by its deletion alone, nothing says the cluster's Job tracked it: not counted.
 */
function inferDeletedWhileFailing(state: JobState, pod: PodRecord, finishedAt?: number): void {
  const since = state.outcomeMetAt;
  if (since === undefined || pod.counted !== 'none' || pod.trackedSeen !== true) return;
  if (!hasTrueCondition(state.status.conditions, 'FailureTarget')) return;
  const at = pod.deletionTimestamp ?? state.clock.now ?? 0;
  if (at < since) return;
  // Nor one the cluster saw only after it had finished the Job (cluster-finish.ts): never listed.
  const finished = finishedAt ?? finishedOnCluster(state);
  if (finished === undefined || !unseenBy(pod, finished)) inferOutcome(state, pod, at);
}

/**
 * Gone, not seen finished, while the Job is failing: the failing sync listed it only if it was
 * deleted at or after the criterion's instant (inferDeletedWhileFailing), not whenever an older
 * observation of it arrives after FailureTarget (recountAll leaves gone pods out likewise).
 */
const goneUnfinishedWhileFailing = (state: JobState, pod: PodRecord): boolean =>
  pod.gone && !isTerminalPhase(pod.phase) && hasTrueCondition(state.status.conditions, 'FailureTarget');

/** Being deleted, not finished, since after the Job met its success criteria: upstream had removed its finalizer uncounted (inferOutcome). */
const deletedUnfinishedAfterSuccess = (state: JobState, pod: PodRecord): boolean =>
  pod.deletionTimestamp !== undefined && !isTerminalPhase(pod.phase) && deletedAfterSuccess(state, pod.deletionTimestamp);

/** Whether a deletion at `at` came after the Job met its success criteria (forgetDeletionsAfterSuccess). */
function deletedAfterSuccess(state: JobState, at: number): boolean {
  if (!hasTrueCondition(state.status.conditions, 'SuccessCriteriaMet')) return false;
  return state.successMetAt === undefined || at >= state.successMetAt;
}

function afterChange(state: JobState, pod: PodRecord): void {
  // A pod jobfold asked to delete that is seen deleting, gone or already finished (the request
  // was taken on a view it had left: nothing deletes a finished pod) is no longer awaited.
  if (pod.deletionTimestamp !== undefined || pod.gone || isTerminalPhase(pod.phase)) state.expectations.deletions.delete(pod.uid);
  if (isTerminalPhase(pod.phase)) state.awaitingOutcome.delete(pod.uid);
  // evolve records the facts; the sync that reads them counts the pod (countAtSync), as
  // upstream's syncJob counts from the informer's pods. A finished Job is
  // never synced again: what arrives after the finish is counted as it is folded, into the
  // final status where it happened before the finish (late-outcome.ts).
  if (state.finishedAt === undefined) {
    state.countDue.add(pod.uid);
    return;
  }
  countingObservation(state, pod.uid, !isTerminalPhase(pod.phase), () => countPodFacts(state, pod));
}

/** The counting rules over one pod's newest facts: the policy's match, its index, its count. */
function countPodFacts(state: JobState, pod: PodRecord): void {
  judgeFailure(state, pod);
  judgeIndex(state, pod);
  // Known first by a deletion after the success criteria were met, then by an older observation
  // showing it tracked and unfinished: not counted, as when the deletion arrives last (inferOutcome).
  if (goneUnfinishedWhileFailing(state, pod)) inferDeletedWhileFailing(state, pod);
  else if (!deletedUnfinishedAfterSuccess(state, pod)) countPod(state, pod);
  if (podClass(pod) === 'active' && pod.index >= 0) releaseHeld(state, pod.index);
  if (countedByFailingSync(state, pod)) releaseDuplicatesOfIndex(state, pod);
}

/**
 * A pod the failing sync counts as it is folded (FailureTarget written before its observation
 * arrived), beside other pods of its index: of those seen tracked before the criterion, the
 * cluster's sync that read them kept the most advanced and deleted the others as duplicates
 * (releaseDuplicateOf), whichever of their observations arrived first, this one's or the most
 * advanced pod's. Found by the generated elastic history-36 (issue 21): a Pending pod of index 0
 * counted failed on arrival, the Running one after it (or before it) counted too, where the
 * cluster's order counts the Running one alone. O(pods) only when its index holds more than one
 * active or terminating pod.
 */
function releaseDuplicatesOfIndex(state: JobState, pod: PodRecord): void {
  if (pod.index < 0 || (state.activeByIndex.get(pod.index) ?? 0) + (state.terminatingByIndex.get(pod.index) ?? 0) < 2) return;
  for (const other of state.pods.values()) {
    if (other.index !== pod.index || other.counted !== 'failed' || other.trackedSeen !== true || other.firstSeenAt === undefined) continue;
    releaseDuplicateOf(state, other, other.firstSeenAt);
  }
}

/**
 * The sync's count (upstream `trackJobStatusAndRemoveFinalizers` over `getNewFinishedPods`):
 * every pod whose facts changed since the last sync is judged against the pod failure policy
 * and counted from its newest facts. Run by the writer before it decides at a position, and by
 * every fold where a run of observations ends (evolve.ts), so readers count where the writer did.
 */
export function countAtSync(state: JobState): void {
  if (state.countDue.size === 0) return;
  const due = [...state.countDue];
  state.countDue.clear();
  for (const uid of due) {
    const pod = state.pods.get(uid);
    if (pod === undefined || pod.controlledBy !== undefined) continue;
    const mark = podObservationMark(state, uid);
    countPodFacts(state, pod);
    // The count moved an instant the criteria read (criterion-instants.ts): remembered no longer.
    if (!observationMovesNoInstant(state, uid, mark)) {
      state.criterionMemo.epoch += 1;
      openMetBefore(state);
    }
  }
}

function newRecord(state: JobState, facts: PodFacts, gone: boolean, order: ObservationOrder, seenAt: number): PodRecord {
  const pod = newPodRecord(facts, { seq: state.nextPodSeq++, lastSeq: state.position, order: order.sequence, version: order.version, gone, firstSeenAt: seenAt, lastSeenAt: seenAt });
  state.pods.set(pod.uid, pod);
  notePodFirstSeen(state, seenAt);
  enter(state, pod);
  return pod;
}

/** What a `PodDeleted` for an unseen pod tells: only that it existed and is gone. */
function tombstoneFacts(event: PodDeleted, at: number): PodFacts {
  return {
    uid: event.uid,
    name: event.name ?? event.uid,
    namespace: event.namespace ?? 'default',
    phase: 'Pending',
    index: -1,
    failureCount: 0,
    ignoredFailureCount: 0,
    deletionTimestamp: at,
    hasFinalizer: true,
    ready: false,
    readySince: undefined,
    readyChangedAt: undefined,
    assigned: false,
    restartCount: 0,
    maxRestarts: 0,
    creationTimestamp: undefined,
    finishedAt: ZERO_TIME_MS,
    terminated: [],
    conditions: [],
  };
}
