import type { JobCondition } from './conditions.ts';
import { findCondition } from './conditions.ts';
import { POD_FAILURE_POLICY_REASON_PREFIX, Reason } from './constants.ts';
import type { TerminationCause } from './decisions.ts';
import type { JobEvent } from './evolve.ts';
import type { TerminatedPod } from './explain.ts';
import type { ConditionEvidence } from './explain-sentences.ts';
import type { JobState } from './state.ts';

// What the explanation can still say without the decision that set a condition: a condition
// the cluster reported before jobfold's log began, or a caller that passes no log.

/** The evidence of a condition, rebuilt from the state (no tipping event unless known). */
export function evidenceFromState(state: JobState, condition: JobCondition): ConditionEvidence | undefined {
  if (condition.status !== 'True') return undefined;
  const base = reasonEvidence(state, condition);
  const interim = condition.type === 'Complete' ? 'SuccessCriteriaMet' : condition.type === 'Failed' ? 'FailureTarget' : undefined;
  if (interim === undefined || findCondition(state.status.conditions, interim)?.status !== 'True') return base;
  return { ...base, follows: interim };
}

function reasonEvidence(state: JobState, condition: JobCondition): ConditionEvidence | undefined {
  const { settings, status } = state;
  const reason = condition.reason;
  if (!settings) return undefined;
  if (reason === Reason.PodFailurePolicy || reason.startsWith(POD_FAILURE_POLICY_REASON_PREFIX)) {
    const failJob = state.failJob;
    if (!failJob) return undefined;
    const pod = state.pods.get(failJob.uid);
    return {
      tippedBy: failJob.tippedBy,
      rule: { policy: 'podFailurePolicy', index: failJob.ruleIndex, name: failJob.ruleName },
      pods: [{ uid: failJob.uid, name: failJob.podName, index: pod?.index, seq: failJob.podSeq }],
      container: pod?.failureMatch?.container,
      podCondition: pod?.failureMatch?.conditionType,
    };
  }
  switch (reason) {
    case Reason.BackoffLimitExceeded:
      return { failed: status.failed + state.heldCountable, limit: settings.backoffLimit };
    case Reason.DeadlineExceeded:
      return { startTime: status.startTime, activeDeadlineSeconds: settings.activeDeadlineSeconds };
    case Reason.MaxFailedIndexesExceeded:
    case Reason.FailedIndexes:
      return {
        failedIndexes: status.failedIndexes.toString(),
        succeededIndexes: status.completedIndexes.toString(),
        limit: settings.maxFailedIndexes,
      };
    case Reason.SuccessPolicy:
    case Reason.CompletionsReached: {
      const last = state.lastSucceeded;
      // Upstream's SuccessPolicy message is "Matched rules at index <i>": the rule it names.
      const ruleIndex = /^Matched rules at index (\d+)$/.exec(condition.message)?.[1];
      return {
        rule: ruleIndex === undefined ? undefined : { policy: 'successPolicy', index: Number(ruleIndex) },
        pods: last ? [last] : undefined,
        succeeded: settings.indexed ? status.completedIndexes.size : status.succeeded,
        limit: reason === Reason.CompletionsReached ? settings.completions : undefined,
        succeededIndexes: settings.indexed ? status.completedIndexes.toString() : undefined,
      };
    }
    default:
      return undefined;
  }
}

/**
 * Every pod jobfold asked to delete: from the PodsTerminationRequested decisions of the log,
 * plus any the state knows of that the log (a tail after a snapshot) does not hold.
 */
export function terminatedPods(state: JobState, log: readonly JobEvent[]): TerminatedPod[] {
  const result: TerminatedPod[] = [];
  const seen = new Set<string>();
  for (const event of log) {
    if (event.type !== 'PodsTerminationRequested') continue;
    for (const pod of event.pods) {
      if (seen.has(pod.uid)) continue;
      seen.add(pod.uid);
      result.push({
        name: pod.name,
        uid: pod.uid,
        index: validIndex(pod.index),
        cause: event.cause,
        reason: event.reason,
        requestedAt: event.at,
        decidedBy: event.seq,
      });
    }
  }
  for (const pod of state.pods.values()) {
    if (pod.terminationRequestedAt === undefined || seen.has(pod.uid)) continue;
    result.push({
      name: pod.name,
      uid: pod.uid,
      index: validIndex(pod.index),
      cause: undefined,
      reason: undefined,
      requestedAt: formatTime(pod.terminationRequestedAt),
      decidedBy: undefined,
    });
  }
  return result;
}

const LINGERING_CAUSE: Readonly<Record<string, TerminationCause>> = {
  SuccessCriteriaMet: 'JobFinishing',
  FailureTarget: 'JobFinishing',
  Suspended: 'JobSuspended',
};

/** Pods terminated because of this condition: lingering pods of a finishing or suspended Job. */
export function lingeringCount(pods: readonly TerminatedPod[], condition: JobCondition): number {
  const cause = LINGERING_CAUSE[condition.type];
  if (cause === undefined || condition.status !== 'True') return 0;
  const since = Date.parse(condition.lastTransitionTime);
  return pods.filter(
    (pod) => (pod.cause === cause || pod.cause === undefined) && Date.parse(pod.requestedAt) >= since,
  ).length;
}

/** Completion indexes are non-negative; the fold writes -1 for a pod without one. */
export const validIndex = (index: number | undefined): number | undefined =>
  index !== undefined && index >= 0 ? index : undefined;

/** RFC 3339 the way the API server writes it: whole seconds without a fraction. */
export const formatTime = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
