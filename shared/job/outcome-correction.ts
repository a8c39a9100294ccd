import { outcomeCorrected } from '../decide/outcome-correction.ts';
import { formatTime } from '../k8s/time.ts';
import { findCondition, type JobCondition } from './conditions.ts';
import { JOBFOLD_CONTROLLER_NAME, Reason } from '../k8s/job-controller.ts';
import { isPolicyFailureReason } from '../policies/pod-failure-policy.ts';
import { rememberedCriterionMetAt } from './criterion-instants.ts';
import type { DecisionOf } from './decisions.ts';
import type { PodRefData } from '../policies/evidence.ts';
import { failureTarget, successPolicyTarget, type FinishTarget } from './finish-condition.ts';
import { inferDeletedOutcomes, uncountFailingSyncs } from './observe-pod.ts';
import { isUnfinished } from './pod-record.ts';
import type { JobState } from './state.ts';
import { record, type Sync } from './sync.ts';

// Issue 21: "Decisions may be taken earlier or later depending on the order; the outcome may
// not." For a Job jobfold does not run, its status is jobfold's model of what the Job's
// controller did, and its commands are only computed. When jobfold decided the outcome on the
// evidence that arrived first (FailureTarget, say), and evidence arriving later shows another
// criterion met earlier on the cluster's clock (the success policy), the controller decided on
// that one: the model is corrected. The correction is an entry of its own (JobOutcomeCorrected),
// so the audit trail shows the condition jobfold wrote, the evidence that took it back and both
// criteria's instants; the conditions of the criterion met first follow as usual.
//
// The rule is chooseFinishTarget's for two criteria seen at once (finish-condition.ts): the one
// met first wins, a failure at the same instant (syncJob checks failures first), and nothing is
// corrected when an instant is not told. Failure competes against the success policy, and a
// failure decided against another failure met before it (the first in syncJob's order at the same
// instant; the deadline is not weighed against another failure).
// A Job jobfold runs is never corrected: what it enacted stands (its controller is jobfold, and
// it decides no outcome while its view of the pods has a hole, pod-view-gap.ts); only its
// Suspended condition is settled against the outcome (suspension-order.ts). Neither is a
// condition the cluster reported (the first Job observation's status): it is the controller's.

/** The interim conditions and the terminal ones after them, per outcome. */
const DECIDED = {
  success: ['SuccessCriteriaMet', 'Complete'],
  failure: ['FailureTarget', 'Failed'],
} as const;

/**
 * The conditions a correction is logged right before (in the same sync): the interim condition
 * of the criterion met first. A reader citing only what an explanation needs finds a Job's
 * corrections before these (functions/query/job-explanation.ts).
 */
export const CORRECTED_TO: ReadonlySet<string> = new Set([DECIDED.success[0], DECIDED.failure[0]]);

/**
 * Decide side: when the Job's decided outcome lost to a criterion met first, records the
 * correction and takes its conditions out of the sync, so that the sync decides again.
 */
export function correctOutcome(sync: Sync): void {
  const { state } = sync;
  const metAt = state.outcomeMetAt;
  if (metAt === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return;
  const decided = decidedOutcome(sync.conditions);
  if (decided === undefined) return;
  // Evidence of the decided criterion that arrived since may tell an earlier instant (asked only
  // when a challenger is met: each ask after an event walks the pods).
  let decidedAt: number | undefined;
  const decidedInstant = () => (decidedAt ??= Math.min(metAt, rememberedCriterionMetAt(state, decided.condition.reason) ?? Infinity));
  const won = challengerMetFirst(sync, decided.outcome, decided.condition.reason, decidedInstant);
  if (won === undefined) return;
  const { challenger, at: challengerAt } = won;
  const types: readonly string[] = DECIDED[decided.outcome];
  const correction = outcomeCorrected(sync.conditions, types, { retractedMetAt: formatTime(decidedInstant()) }, {
    reason: challenger.reason,
    message: challenger.message,
    evidence: { ...challenger.evidence, metAt: formatTime(challengerAt) },
  });
  sync.conditions = sync.conditions.filter((c) => !types.includes(c.type));
  record(sync, { type: 'JobOutcomeCorrected', ...correction });
}

/**
 * The criterion the cluster's controller met before the decided one, with its instant: against a
 * success, the failure met first (failureTarget) at or before it; against a failure, the success
 * policy met strictly before it, or another failure met before it (at the same instant, one earlier
 * in syncJob's order): a failure decided on evidence read together (the backoff limit, two failures
 * seen at once) whose other failure, met first, a sync of the cluster's had found alone
 * (finish-condition.ts failureTarget; seed-7/history-57). The deadline is not weighed against
 * another failure: it keeps its place in syncJob's order.
 */
function challengerMetFirst(sync: Sync, outcome: FinishTarget['outcome'], reason: string, decidedAt: () => number): { challenger: FinishTarget; at: number } | undefined {
  const { state } = sync;
  if (outcome === 'success') {
    const failure = failureTarget(sync);
    const at = failure === undefined ? undefined : rememberedCriterionMetAt(state, failure.reason);
    return failure !== undefined && at !== undefined && at <= decidedAt() ? { challenger: failure, at } : undefined;
  }
  let won: { challenger: FinishTarget; at: number } | undefined;
  const success = successPolicyTarget(sync);
  const successAt = success === undefined ? undefined : rememberedCriterionMetAt(state, success.reason);
  if (success !== undefined && successAt !== undefined && successAt < decidedAt()) won = { challenger: success, at: successAt };
  if (reason === Reason.DeadlineExceeded) return won;
  const failure = failureTarget(sync);
  if (failure === undefined || failure.reason === reason || failure.reason === Reason.DeadlineExceeded) return won;
  const at = rememberedCriterionMetAt(state, failure.reason);
  if (at === undefined) return won;
  const before = at < decidedAt() || (at === decidedAt() && syncJobRank(failure.reason) < syncJobRank(reason));
  // A failure and the success met at the same instant: the failure (one sync checks it first).
  return before && (won === undefined || at <= won.at) ? { challenger: failure, at } : won;
}

/** A failure criterion's place in syncJob's order of checks (finish-condition.ts chooseFinishTarget, 3-6). */
function syncJobRank(reason: string): number {
  if (isPolicyFailureReason(reason) || reason === Reason.PodFailurePolicy) return 3;
  if (reason === Reason.BackoffLimitExceeded) return 4;
  if (reason === Reason.DeadlineExceeded) return 5;
  return 6;
}

/** The terminal condition that follows each interim one. */
const TERMINAL = { success: 'Complete', failure: 'Failed' } as const;

/**
 * The pods a reopening names at most; its `podCount` counts them all. The writer decides after
 * each run of observations of one instant, so a reopening normally names one pod, but a run (an
 * informer's relist, a writer batch of packed records) can bring thousands, and an entry
 * naming them all could pass the store's 350 KB (MAX_ENTRY_BODY_BYTES): the commit fails and
 * the Job's log is parked. A hundred references of the longest pod names are ~35 KB.
 */
export const REOPENING_PODS_NAMED = 100;

/**
 * Decide side: a Job jobfold finished at once, on a view that lacked a pod the cluster still ran
 * then (its observation from before the finish arrived after it, state.waitedFor), had not
 * finished on the cluster: `enactJobFinished` holds `Complete`/`Failed` while a pod is
 * terminating. The terminal condition is taken back (the interim one stays), the pod is
 * terminated as the finishing sync terminates every active pod, and the terminal condition
 * follows once no pod is terminating, as in the cluster's order. The evidence names the first
 * REOPENING_PODS_NAMED such pods, in the order their observations arrived, and counts them all.
 */
export function reopenFinish(sync: Sync): void {
  const { state } = sync;
  const waited = state.waitedFor;
  if (waited === undefined || state.finishedInstant === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return;
  const decided = decidedOutcome(sync.conditions);
  if (decided === undefined) return;
  const terminal = TERMINAL[decided.outcome];
  if (findCondition(sync.conditions, terminal)?.status !== 'True') return;
  const pods: PodRefData[] = [];
  let podCount = 0;
  for (const uid of waited) {
    const pod = state.pods.get(uid);
    if (pod === undefined || !isUnfinished(pod)) continue;
    podCount += 1;
    if (pods.length < REOPENING_PODS_NAMED) pods.push({ uid: pod.uid, name: pod.name, ...(pod.index >= 0 ? { index: pod.index } : {}), seq: pod.seq });
  }
  if (podCount === 0) return;
  const metAt = formatTime(state.outcomeMetAt ?? state.finishedInstant);
  const correction = outcomeCorrected(sync.conditions, [terminal], { retractedMetAt: metAt }, {
    reason: decided.condition.reason,
    message: decided.condition.message,
    evidence: { tippedBy: state.position, pods, podCount, metAt },
  });
  sync.conditions = sync.conditions.filter((c) => c.type !== terminal);
  record(sync, { type: 'JobOutcomeCorrected', ...correction });
}

/** A correction that takes back only the terminal condition, for the same criterion (reopenFinish). */
export const isReopening = (decision: DecisionOf<'JobOutcomeCorrected'>): boolean =>
  decision.retracted.length > 0 &&
  decision.retracted.every((c) => (c.type === TERMINAL.success || c.type === TERMINAL.failure) && c.reason === decision.reason);

/**
 * A correction that takes back only the Suspended condition (suspension-order.ts retractLateSuspension):
 * a finish criterion was met before the Job was suspended, so its controller never suspended it.
 */
export const isSuspensionRetraction = (decision: DecisionOf<'JobOutcomeCorrected'>): boolean =>
  decision.retracted.length > 0 && decision.retracted.every((c) => c.type === 'Suspended');

/** The outcome the Job's interim condition stands for, if one is True. */
export function decidedOutcome(conditions: readonly JobCondition[]): { outcome: FinishTarget['outcome']; condition: JobCondition } | undefined {
  const met = findCondition(conditions, 'SuccessCriteriaMet');
  if (met?.status === 'True') return { outcome: 'success', condition: met };
  const target = findCondition(conditions, 'FailureTarget');
  if (target?.status === 'True') return { outcome: 'failure', condition: target };
  return undefined;
}

/**
 * Evolve side: takes the conditions back with what they set. Finishing froze the status
 * (finalStatus) and its instant; SuccessCriteriaMet left deletions after it uncounted, and
 * FailureTarget counted every pod still tracked as failed: both are counted again by the pods'
 * own evidence, ready for the conditions that follow.
 */
export function retractOutcome(state: JobState, decision: DecisionOf<'JobOutcomeCorrected'>): void {
  const types = new Set(decision.retracted.map((c) => c.type));
  if (isReopening(decision)) state.reopenedBy = [...(state.reopenedBy ?? []), state.position];
  state.status.conditions = state.status.conditions.filter((c) => !types.has(c.type));
  // A suspension taken back leaves the outcome, finished or not, as it stands.
  if (isSuspensionRetraction(decision)) {
    if (state.finalStatus !== undefined) state.finalStatus = { ...state.finalStatus, conditions: state.finalStatus.conditions.filter((c) => !types.has(c.type)) };
    return;
  }
  if (types.has('Complete')) state.status.completionTime = undefined;
  state.finalStatus = undefined;
  state.finishedAt = undefined;
  delete state.finishedInstant;
  delete state.waitedFor;
  if (types.has('SuccessCriteriaMet') || types.has('FailureTarget')) delete state.outcomeMetAt;
  if (types.has('SuccessCriteriaMet')) {
    delete state.successMetAt;
    inferDeletedOutcomes(state);
  }
  if (types.has('FailureTarget')) uncountFailingSyncs(state);
}
