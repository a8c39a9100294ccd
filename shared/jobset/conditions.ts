import { compareTimes } from '../k8s/time.ts';
import { CONDITION_TYPES } from './constants.ts';

export type ConditionStatus = 'True' | 'False';

/** A `metav1.Condition` on the JobSet status. */
export interface JobSetCondition {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
}

/** A condition to write; the transition time comes from the pass that writes it. */
export interface ConditionUpdate {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason: string;
  readonly message: string;
}

/** `exclusiveConditions`: the two startup-policy conditions are never True together. */
function exclusive(a: string, b: string): boolean {
  const { startupPolicyInProgress: inProgress, startupPolicyCompleted: completed } = CONDITION_TYPES;
  return (a === inProgress && b === completed) || (a === completed && b === inProgress);
}

/**
 * `updateCondition` (jobset_controller.go): a new type is appended only when True; a status
 * change replaces the condition (new transition time); a reason/message change alone updates it
 * in place (transition time kept); an identical write changes nothing. Writing one startup
 * condition as True flips the other one's status to False, leaving its reason, message and time.
 * A condition the cluster wrote `since` an earlier time, seen late, is added even when False,
 * before the first condition written after that time, or at `place` when the caller knows it (the
 * conditions that stood when the fold took a newer spec). Returns the same array when nothing changes.
 */
export function updateCondition(
  conditions: readonly JobSetCondition[],
  update: ConditionUpdate,
  at: string,
  since?: string,
  place?: number,
): readonly JobSetCondition[] {
  let changed = false;
  let found = false;
  const next = conditions.map((current): JobSetCondition => {
    if (current.type === update.type) {
      found = true;
      if (current.status !== update.status) {
        changed = true;
        return { ...update, lastTransitionTime: at };
      }
      if (current.reason !== update.reason || current.message !== update.message) {
        changed = true;
        return { ...current, reason: update.reason, message: update.message };
      }
      return current;
    }
    if (exclusive(current.type, update.type) && current.status === 'True' && update.status === 'True') {
      changed = true;
      return { ...current, status: 'False' };
    }
    return current;
  });
  if (!found && (update.status === 'True' || since !== undefined)) {
    changed = true;
    const index = place !== undefined && place <= next.length ? place : since === undefined ? next.length : placeOfWrittenSince(next, since);
    next.splice(index, 0, { ...update, lastTransitionTime: at });
  }
  return changed ? next : conditions;
}

/** Where a condition written `since` goes by time alone: before the first condition written after it. */
export function placeOfWrittenSince(conditions: readonly JobSetCondition[], since: string): number {
  const later = conditions.findIndex((condition) => compareTimes(condition.lastTransitionTime, since) > 0);
  return later === -1 ? conditions.length : later;
}

/** The condition of `type` moved to just before the one of type `before` (unchanged when either is missing or it is already before). */
export function moveConditionBefore(conditions: readonly JobSetCondition[], type: string, before: string): readonly JobSetCondition[] {
  const from = conditions.findIndex((c) => c.type === type);
  const to = conditions.findIndex((c) => c.type === before);
  if (from === -1 || to === -1 || from < to) return conditions;
  const moved = conditions.filter((_, i) => i !== from);
  moved.splice(to, 0, conditions[from] as JobSetCondition);
  return moved;
}

/** True when writing `update` would change the conditions. */
export function changesConditions(conditions: readonly JobSetCondition[], update: ConditionUpdate): boolean {
  return updateCondition(conditions, update, '') !== conditions;
}

export function findCondition(conditions: readonly JobSetCondition[], type: string): JobSetCondition | undefined {
  return conditions.find((condition) => condition.type === type);
}

export function isConditionTrue(conditions: readonly JobSetCondition[], type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}
