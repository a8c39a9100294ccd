import { formatTime, parseTime } from '../k8s/time.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import type { Evidence } from '../policies/evidence.ts';
import type { JobCondition } from './conditions.ts';
import { criterionMetAt, criterionReadsPods, rememberedCriterionMetAt } from './criterion-instants.ts';
import type { JobEvent } from './evolve.ts';
import type { FinishTarget } from './finish-condition.ts';
import { forgetDeletionsAfterSuccess, latestSuccessSeenAt } from './observe-pod.ts';
import type { JobState } from './state.ts';

// Issues 20, 21: same log => same answer, whatever snapshot a fold starts from. Folding an
// interim condition (SuccessCriteriaMet, FailureTarget) notes two instants that later folds
// read: when its criterion was met on the cluster's clock (state.outcomeMetAt: outcome
// corrections, the cluster's finish, late outcomes) and, for success, the latest success seen
// (state.successMetAt: deletions after success). Both are read from every pod. A fold from a
// snapshot (the query API's status?at=, /explain, a writer loaded cold) holds only the pods the
// snapshot kept and its tail names: an archived pod's instant was missing there, and the answer
// differed from a replay of the log. So the writer logs both in the condition's evidence, for
// every Job (for a Job with a success policy since fold-2026-11-28.29, for the others since
// fold-2026-11-29.40), deciding on every pod's instants: a writer loaded from a snapshot decides
// such a condition again on its whole archive (readsEveryPod, shared/decide/write-batch.ts). The
// fold takes them from there: no walk, no archived pod needed. A condition logged without them
// (older logs, or an instant no pod told) is folded by the walk, as before; a fold from a
// snapshot then needs every archived pod (walksEveryPod, the rule archive-restore.ts applies).

/**
 * Decide side: the new interim condition's evidence, with the instants its fold notes, read from
 * every pod (a writer loaded from a snapshot decides it on its whole archive: readsEveryPod).
 * O(pods), once.
 */
export function interimEvidence(state: JobState, target: FinishTarget): Evidence {
  const metAt = target.evidence.metAt ?? criterionInstant(state, target.reason);
  const lastSuccessAt = target.outcome === 'success' ? latestSuccessSeenAt(state) : undefined;
  return {
    ...target.evidence,
    ...(metAt === undefined ? {} : { metAt }),
    ...(lastSuccessAt === undefined ? {} : { lastSuccessAt: formatTime(lastSuccessAt) }),
  };
}

/** The criterion's instant, where folding the condition would read it from the pods (criterionReadsPods). */
function criterionInstant(state: JobState, reason: string): string | undefined {
  if (state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME || !criterionReadsPods(state, reason)) return undefined;
  const at = rememberedCriterionMetAt(state, reason);
  return at === undefined ? undefined : formatTime(at);
}

/**
 * Evolve side, when an interim condition is folded (apply-decision.ts), before the recount:
 * the instants its evidence logs, else walked from the pods (a condition logged without them).
 * A Job jobfold runs keeps no criterion's instant: nothing of its own is corrected.
 */
export function noteInterimInstants(state: JobState, condition: JobCondition, evidence: Evidence): void {
  if (condition.type === 'SuccessCriteriaMet') {
    forgetDeletionsAfterSuccess(state, evidence.lastSuccessAt === undefined ? latestSuccessSeenAt(state) : parseTime(evidence.lastSuccessAt));
  }
  if (state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return;
  const at = evidence.metAt === undefined ? criterionMetAt(state, condition.reason) : parseTime(evidence.metAt);
  if (at === undefined) delete state.outcomeMetAt;
  else state.outcomeMetAt = at;
}

/** Whether the condition is an interim one set True, whose fold notes the instants (noteInterimInstants). */
export const isInterimCondition = (condition: JobCondition): boolean =>
  condition.status === 'True' && (condition.type === 'SuccessCriteriaMet' || condition.type === 'FailureTarget');

/**
 * Whether folding `event` on `state` walks every pod for an instant: an interim condition whose
 * evidence lacks one its fold reads from the pods. The one rule that tells which logs a fold
 * from a snapshot answers as a replay only with every archived pod restored (archive-restore.ts).
 */
export function walksEveryPod(state: JobState, event: JobEvent): boolean {
  if (event.type !== 'JobConditionChanged' || !isInterimCondition(event.condition)) return false;
  const { condition, evidence } = event;
  if (condition.type === 'SuccessCriteriaMet' && evidence.lastSuccessAt === undefined) return true;
  return state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME && evidence.metAt === undefined && criterionReadsPods(state, condition.reason);
}

/**
 * Whether deciding `event` read every pod: an interim condition whose evidence logs an instant
 * read from the pods (interimEvidence) or that is weighed against a suspension, or the finish of a Job jobfold does not run, which waits
 * until the instant the cluster finished it (decide.ts heldByTerminating, cluster-finish.ts: an
 * archived pod that ended after the criterion's instant pushes it later). Decided on a state
 * loaded from a snapshot (the archived pods its tail names), it would log another instant, or
 * finish earlier, than a writer kept warm; the write loop decides the batch again on the whole
 * archive (decider.ts). Once each in a Job's life.
 */
export function readsEveryPod(state: JobState, event: JobEvent): boolean {
  // A Suspended taken back: the outcome's criterion weighed against the suspension by its
  // instant, read from every pod (suspension-order.ts retractLateSuspension; a cold writer whose
  // snapshot named too few pods took it back where a warm one did not: stored-orders, seed 99,
  // managed history 13, once the Job-event count held the outcome back to another batch).
  if (event.type === 'JobOutcomeCorrected') return event.retracted.some((c) => c.type === 'Suspended');
  if (event.type !== 'JobConditionChanged' || event.condition.status !== 'True') return false;
  const { condition } = event;
  if (condition.type === 'SuccessCriteriaMet') return true;
  // An outcome decided on a Job seen suspended, jobfold's own too: the suspension is weighed
  // against the criterion's instant, read from every pod (suspension-order.ts settleSuspension;
  // a cold writer kept Suspended where a warm one took it back: stored-orders, seed 7).
  if (isInterimCondition(condition) && state.suspensionObservedAt !== undefined) return true;
  const ownJob = state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME;
  if (condition.type === 'Complete' || condition.type === 'Failed') return !ownJob;
  return condition.type === 'FailureTarget' && !ownJob && criterionReadsPods(state, condition.reason);
}

/**
 * Whether deciding after `observations` may read every pod although no decision of the batch is
 * known yet: a finished Job jobfold does not run, whose criterion's instant is read from the
 * pods, walks every pod's instant at each decide to learn whether its criterion was met earlier
 * (decide.ts criterionMetEarlier; also on a Tick: the walk counts the pods its FailureTarget's
 * recount counted, which the instant logged with it did not). A writer loaded from a snapshot
 * lacked the archived failures there and decided nothing where a writer kept warm logged
 * CriterionMetEarlier (snapshot property, named-only restore, seed 154): it puts back the whole
 * archive before any batch of such a Job (decider.ts restoreForBatch), once per load.
 */
export function batchReadsEveryPod(state: JobState, observations: readonly { type: string }[]): boolean {
  if (state.finalStatus === undefined || state.outcomeMetAt === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return false;
  const reason = decidedInterimReason(state);
  return reason !== undefined && criterionReadsPods(state, reason) && observations.length > 0;
}

/** The reason of the interim condition the state holds: the outcome whose criterion's instant state.outcomeMetAt notes. */
export const decidedInterimReason = (state: JobState): string | undefined => state.status.conditions.find(isInterimCondition)?.reason;
