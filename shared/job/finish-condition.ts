import { formatTime, parseTime } from '../k8s/time.ts';
import { exceedsBackoffLimit } from '../policies/backoff-limit.ts';
import { pastActiveDeadline } from '../policies/active-deadline.ts';
import { matchFailedIndexes } from '../policies/failed-indexes.ts';
import { policyFailureCondition } from '../policies/pod-failure-policy.ts';
import { matchSuccessPolicy } from '../policies/success-policy.ts';
import { findCondition } from './conditions.ts';
import { JOBFOLD_CONTROLLER_NAME, Message, Reason } from '../k8s/job-controller.ts';
import { rememberedCriterionMetAt } from './criterion-instants.ts';
import type { Evidence } from '../policies/evidence.ts';
import type { JobState } from './state.ts';
import type { Sync } from './sync.ts';

/** The outcome a sync has settled on: an interim condition, then the terminal one. */
export interface FinishTarget {
  readonly outcome: 'success' | 'failure';
  readonly reason: string;
  readonly message: string;
  /** False when the interim condition (FailureTarget / SuccessCriteriaMet) is already set. */
  readonly isNew: boolean;
  readonly evidence: Evidence;
}

/**
 * Picks the Job's outcome in upstream `syncJob`'s order; the first hit wins and later checks
 * are not evaluated:
 *  1. SuccessCriteriaMet already set: heading for Complete; no failure check runs at all.
 *  2. FailureTarget already set: heading for Failed with the same reason and message.
 *  3. a failed pod matches a pod failure policy rule whose action fails the Job (KEP-3329, KEP-4443);
 *  4. backoffLimit exceeded;
 *  5. activeDeadlineSeconds passed;
 *  6. backoffLimitPerIndex: maxFailedIndexes exceeded, else every index settled with failures;
 *  7. the success policy matched (KEP-3998).
 * Completions reached (check 8) comes after pod management, in decide.
 * A failure (3–6) and the success policy (7) both met are the syncs of two instants seen at once,
 * when the evidence arrived out of order (a Job jobfold does not run), or when a Job jobfold runs
 * waited for the pod events missing from its view (pod-view-gap.ts) and decides on them all at
 * once: the one met first on the cluster's clock wins (criterion-instants.ts), as upstream's
 * syncs between those events would have decided; the failure at the same instant (one sync) or
 * when an instant is not told.
 */
export function chooseFinishTarget(sync: Sync): FinishTarget | undefined {
  const { state } = sync;
  const settings = state.settings;
  if (!settings) return undefined;
  const tippedBy = state.position;
  const met = findCondition(sync.conditions, 'SuccessCriteriaMet');
  if (met?.status === 'True') return existing('success', met.reason, met.message, tippedBy);
  const target = findCondition(sync.conditions, 'FailureTarget');
  if (target?.status === 'True') return existing('failure', target.reason, target.message, tippedBy);
  const failure = failureTarget(sync);
  if (failure === undefined) return successPolicyTarget(sync);
  const success = successPolicyTarget(sync);
  return success === undefined ? failure : (firstMet(state, success, failure) ?? failure);
}

/**
 * Checks 3–6: of the failure criteria the Job meets, the one met first on the cluster's clock,
 * which a sync of the cluster's controller found alone (its syncs run on each pod event); the
 * first in upstream's order at the same instant, or when an instant is not told. The deadline
 * keeps its place in that order: it is met on the clock read so far (docs/data-model.md "Time"),
 * not by evidence that can arrive late. Generated seed-7/history-57: `FailedIndexes` met at 0:30
 * by one pod's failure, `BackoffLimitExceeded` at 1:06 by a second; a delivery that read both
 * failures at once wrote the backoff limit, and then took it back for a success of 0:30, where
 * the cluster's order wrote `FailedIndexes` in the 0:30 sync, before the success.
 * A Job jobfold runs takes the first in upstream's order: its syncs are its controller's, on the
 * view they hold (a failure read late is not weighed back against the one it decided, which is
 * never corrected: weighing them at the decision measured one delivery worse, elastic
 * seed-5/history-56, and none better).
 */
export function failureTarget(sync: Sync): FinishTarget | undefined {
  const met = failureTargets(sync);
  const inOrder = met[0];
  if (inOrder === undefined || met.length === 1 || sync.state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return inOrder;
  let first = inOrder;
  let firstAt = weighedInstant(sync.state, first.reason);
  for (const challenger of met.slice(1)) {
    if (firstAt === undefined) break;
    const at = weighedInstant(sync.state, challenger.reason);
    if (at !== undefined && at < firstAt) [first, firstAt] = [challenger, at];
  }
  return first === inOrder || firstAt === undefined ? first : { ...first, evidence: { ...first.evidence, metAt: formatTime(firstAt) } };
}

/** A failure criterion's instant as failureTarget weighs it: undefined for the deadline and whatever the evidence does not tell. */
function weighedInstant(state: JobState, reason: string): number | undefined {
  return reason === Reason.DeadlineExceeded ? undefined : rememberedCriterionMetAt(state, reason);
}

/** Checks 3–6: every failure criterion the Job meets, in upstream's order. */
export function failureTargets(sync: Sync): FinishTarget[] {
  const { state } = sync;
  const settings = state.settings;
  if (!settings) return [];
  const met: FinishTarget[] = [];
  const tippedBy = state.position;
  const status = state.status;
  const policyFailure = state.policyFailure;
  if (policyFailure) {
    const { reason, message, evidence } = policyFailureCondition(policyFailure, state.pods.get(policyFailure.uid), state.config.gates);
    met.push(failure(reason, message, evidence));
  }
  const failed = status.failed + state.heldCountable;
  const backoff = {
    backoffLimit: settings.backoffLimit,
    failed,
    restartPolicyOnFailure: settings.restartPolicyOnFailure,
    restartsOfRunningPods: state.counts.restartsOfRunningPods,
  };
  if (exceedsBackoffLimit(backoff)) {
    met.push(failure(Reason.BackoffLimitExceeded, Message.BackoffLimitExceeded, {
      tippedBy,
      failed,
      limit: settings.backoffLimit,
    }));
  }
  const startTime = sync.startTime === undefined ? undefined : parseTime(sync.startTime);
  const deadline = {
    activeDeadlineSeconds: settings.activeDeadlineSeconds,
    startTime,
    suspended: settings.suspend,
    now: sync.now,
  };
  if (pastActiveDeadline(deadline)) {
    met.push(failure(Reason.DeadlineExceeded, Message.DeadlineExceeded, {
      tippedBy,
      startTime: sync.startTime,
      activeDeadlineSeconds: settings.activeDeadlineSeconds,
    }));
  }
  if (settings.backoffLimitPerIndex !== undefined) {
    const verdict = matchFailedIndexes({
      failedIndexes: status.failedIndexes.size,
      succeededIndexes: status.completedIndexes.size,
      maxFailedIndexes: settings.maxFailedIndexes,
      completions: settings.completions ?? 0,
    });
    if (verdict) {
      met.push(failure(verdict.reason, verdict.message, {
        tippedBy,
        failedIndexes: status.failedIndexes.toString(),
        succeededIndexes: status.completedIndexes.toString(),
        limit: settings.maxFailedIndexes,
      }));
    }
  }
  return met;
}

/** Check 7: the success policy matched (KEP-3998). */
export function successPolicyTarget(sync: Sync): FinishTarget | undefined {
  const { state } = sync;
  const settings = state.settings;
  if (!settings) return undefined;
  const status = state.status;
  const success = matchSuccessPolicy(
    settings.successPolicyRules,
    state.successRuleProgress,
    status.completedIndexes.size,
  );
  if (!success) return undefined;
  const last = state.lastSucceeded;
  return {
    outcome: 'success',
    reason: Reason.SuccessPolicy,
    message: success.message,
    isNew: true,
    evidence: {
      tippedBy: last?.seq ?? state.position,
      rule: { policy: 'successPolicy', index: success.ruleIndex },
      pods: last ? [last] : undefined,
      succeededIndexes: status.completedIndexes.toString(),
    },
  };
}

/**
 * Of two criteria the Job meets, the one met first on the cluster's clock, with that instant in
 * its evidence; `first` (earlier in syncJob's order) at the same instant, since one sync read
 * both. Undefined when either instant is not told.
 */
export function firstMet(state: JobState, later: FinishTarget, first: FinishTarget): FinishTarget | undefined {
  const laterAt = rememberedCriterionMetAt(state, later.reason);
  const firstAt = rememberedCriterionMetAt(state, first.reason);
  if (laterAt === undefined || firstAt === undefined) return undefined;
  const [winner, at] = laterAt < firstAt ? [later, laterAt] : [first, firstAt];
  return { ...winner, evidence: { ...winner.evidence, metAt: formatTime(at) } };
}

function existing(outcome: FinishTarget['outcome'], reason: string, message: string, tippedBy: number) {
  return { outcome, reason, message, isNew: false, evidence: { tippedBy } };
}

function failure(reason: string, message: string, evidence: Evidence): FinishTarget {
  return { outcome: 'failure', reason, message, isNew: true, evidence };
}
