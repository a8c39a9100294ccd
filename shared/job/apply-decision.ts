import { parseTime } from '../k8s/time.ts';
import { EXPECTATIONS_TIMEOUT_MS } from '../k8s/job-controller.ts';
import type { Decision, DecisionOf } from './decisions.ts';
import { enter, leave } from './aggregates.ts';
import { putCondition } from './conditions.ts';
import { countStrippedLivePods, inferDeletionsWhileFailing, recountAll } from './observe-pod.ts';
import type { JobState } from './state.ts';
import { liveStatus } from './status.ts';
import { retractOutcome } from './outcome-correction.ts';
import { isInterimCondition, noteInterimInstants } from './interim-instants.ts';
import { finishMetEarlier, leaveOutUnseenPods } from './late-outcome.ts';

/** Folds a decision jobfold wrote to the log. */
export function applyDecision(state: JobState, decision: Decision): void {
  forgetExpiredCreations(state, parseTime(decision.at));
  switch (decision.type) {
    case 'StartTimeSet':
      state.status.startTime = decision.startTime;
      return;
    case 'CriterionMetEarlier':
      finishMetEarlier(state, parseTime(decision.metAt), parseTime(decision.was));
      return;
    case 'JobConditionChanged':
      return applyCondition(state, decision);
    case 'PodsTerminationRequested':
      return applyTermination(state, decision);
    case 'PodsTerminationExpired':
      return applyTerminationExpired(state, decision);
    case 'PodCreationsRequested':
      // Upstream `ExpectCreations` replaces the Job's expectations.
      state.expectations = {
        creations: decision.count,
        deletions: new Set(),
        setAt: parseTime(decision.at),
        ...(decision.indexes?.length === decision.count ? { indexes: [...decision.indexes] } : {}),
      };
      state.creationRequests += decision.count;
      return;
    case 'PodFinalizersRemovalRequested':
      for (const ref of decision.pods) {
        const pod = state.pods.get(ref.uid);
        if (!pod) continue;
        pod.finalizerRemovalRequested = true;
        pod.finalizerRemovalRequestedAt = parseTime(decision.at);
        pod.finalizerRemovalAttempts = (pod.finalizerRemovalAttempts ?? 0) + 1;
      }
      return;
    case 'JobOutcomeCorrected':
      return retractOutcome(state, decision);
    case 'JobStatusSent':
      state.lastStatusSent = decision.hash;
      return;
    case 'JobRejected':
      state.rejectionRecorded = true;
      return;
    case 'ObservationRefused':
      // A record for the history: the refused observation changes nothing.
      return;
    case 'JobUpdateRefused':
      if (state.refusedUpdate?.eventId === decision.refusedEventId) state.refusedUpdateRecorded = true;
      return;
    default: {
      const exhaustive: never = decision;
      throw new Error(`unknown decision ${JSON.stringify(exhaustive)}`);
    }
  }
}

function applyCondition(state: JobState, decision: DecisionOf<'JobConditionChanged'>): void {
  const condition = decision.condition;
  state.status.conditions = putCondition(state.status.conditions, condition);
  // The one condition settled after the Job finished (suspension-order.ts): the final status shows it.
  if (condition.type === 'Suspended' && state.finalStatus !== undefined) state.finalStatus = { ...state.finalStatus, conditions: putCondition(state.finalStatus.conditions, condition) };
  if (condition.status !== 'True') return;
  if (condition.type === 'Complete') state.status.completionTime = condition.lastTransitionTime;
  if (condition.type === 'Complete' || condition.type === 'Failed') {
    // A finished Job is never synced again: pods it asked for and never saw (expired
    // expectations) are not active, as upstream writes `active: 0` when the Job finishes.
    state.expectations = { creations: 0, deletions: new Set(), setAt: undefined };
    finish(state);
  }
  if (isInterimCondition(condition)) {
    // Before the recount: what FailureTarget counts must not move a failure's instant.
    noteInterimInstants(state, condition, decision.evidence);
    recountAll(state);
  }
  if (condition.type === 'FailureTarget') {
    countStrippedLivePods(state);
    inferDeletionsWhileFailing(state);
  }
}

/**
 * A sync after the creations it expected stopped holding it back (upstream's ExpectationsTimeout)
 * counts the pods it sees, as upstream's writes `active` from its informer: creations never seen
 * are no longer active. Otherwise the status would keep them for good when a decision follows
 * the timeout (a suspension enacted then), and not when the sync that asked for them never ran
 * (the suspension arrived first): the same Job's `active` would depend on the delivery order.
 */
function forgetExpiredCreations(state: JobState, at: number): void {
  const { creations, setAt } = state.expectations;
  if (creations > 0 && setAt !== undefined && at - setAt > EXPECTATIONS_TIMEOUT_MS) state.expectations = { ...state.expectations, creations: 0 };
}

/** The Job finished: its status is written for the last time. */
export function finish(state: JobState): void {
  if (state.finalStatus !== undefined) return;
  state.finalStatus = { ...liveStatus(state), conditions: [...state.status.conditions] };
  state.finishedAt = state.position;
  if (state.clock.now !== undefined) state.finishedInstant = state.clock.now;
  leaveOutUnseenPods(state);
}

function applyTermination(state: JobState, decision: DecisionOf<'PodsTerminationRequested'>): void {
  const at = parseTime(decision.at);
  const uids = new Set<string>();
  for (const ref of decision.pods) {
    const pod = state.pods.get(ref.uid);
    if (!pod || pod.terminationRequestedAt !== undefined) continue;
    leave(state, pod);
    pod.terminationRequestedAt = at;
    // What the pod was observed as stays so: whether the finalizer went is for the cluster to
    // report (a pod that had already finished keeps it, and counts, counting.ts isTracked).
    if (decision.finalizersRemoved) {
      pod.released = true;
      pod.releasedUntil = at + EXPECTATIONS_TIMEOUT_MS;
    }
    enter(state, pod);
    uids.add(pod.uid);
  }
  // Upstream `ExpectDeletions` replaces the Job's expectations; a continuation page adds to them.
  if (decision.page !== undefined) for (const uid of state.expectations.deletions) uids.add(uid);
  state.expectations = { creations: 0, deletions: uids, setAt: at };
}

/** Pods whose requested deletion was never seen (termination-lapse.ts): active again, no longer expected to go. */
function applyTerminationExpired(state: JobState, decision: DecisionOf<'PodsTerminationExpired'>): void {
  for (const ref of decision.pods) {
    const pod = state.pods.get(ref.uid);
    state.expectations.deletions.delete(ref.uid);
    if (!pod || pod.terminationRequestedAt === undefined) continue;
    leave(state, pod);
    pod.terminationRequestedAt = undefined;
    enter(state, pod);
  }
}
