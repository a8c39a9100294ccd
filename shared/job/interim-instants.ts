import { formatTime, parseTime } from '../k8s/time.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import type { Evidence } from '../policies/evidence.ts';
import type { JobCondition } from './conditions.ts';
import { criterionMetAt, criterionReadsPods, rememberedCriterionMetAt } from './criterion-instants.ts';
import type { JobEvent } from './evolve.ts';
import type { FinishTarget } from './finish-condition.ts';
import { forgetDeletionsAfterSuccess, latestSuccessSeenAt } from './observe-pod.ts';
import { outcomeReadsArchivedInstants } from './snapshot.ts';
import type { JobState } from './state.ts';

// Issues 20, 21: same log => same answer, whatever snapshot a fold starts from. Folding an
// interim condition (SuccessCriteriaMet, FailureTarget) notes two instants that later folds
// read: when its criterion was met on the cluster's clock (state.outcomeMetAt: outcome
// corrections, the cluster's finish, late outcomes) and, for success, the latest success seen
// (state.successMetAt: deletions after success). Both are read from every pod. A fold from a
// snapshot (the query API's status?at=, /explain) holds only the pods the snapshot kept and its
// tail names: an archived counted pod's instant was missing there, and the answer differed from a
// replay of the log. For a Job with a success policy the writer holds every pod's instants when
// it decides (decider.ts restores its whole archive, which keeps them), so it logs both instants
// in the condition's evidence, and the fold takes them from there: no walk, no archived pod
// needed. Another Job's archive keeps no instants: its fold walks the pods it holds, as before.
// A condition logged without them (before fold-2026-11-28.29, or an instant no pod told) is
// folded by the walk, as before; a fold from a snapshot then needs every archived pod
// (walksEveryPod, the rule archive-restore.ts applies).

/**
 * Decide side: the new interim condition's evidence, with the instants its fold notes, for a Job
 * whose outcome reads its pods' instants (snapshot.ts outcomeReadsArchivedInstants: a success
 * policy), whose writer restores the whole archive on a cold load. Another Job's writer restores
 * only the archived pods its tail names: it would read other instants than one kept warm, and the
 * decision would depend on when snapshots were taken (snapshot property); its fold walks the pods
 * as before. O(pods), once.
 */
export function interimEvidence(state: JobState, target: FinishTarget): Evidence {
  if (!outcomeReadsArchivedInstants(state)) return target.evidence;
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
