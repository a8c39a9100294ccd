import { Message, Reason, type ConditionType } from '../k8s/job-controller.ts';

/** A batch/v1 JobCondition as jobfold writes it. */
export interface JobCondition {
  readonly type: ConditionType | string;
  readonly status: 'True' | 'False' | 'Unknown' | string;
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
  readonly lastProbeTime?: string;
}

// Loops, not find/some with a closure: decide asks these several times after every pod event.
export function findCondition(conditions: readonly JobCondition[], type: string): JobCondition | undefined {
  for (const c of conditions) if (c.type === type) return c;
  return undefined;
}

/** The Suspended condition upstream's syncJob writes: True (JobSuspended) while suspended, False (JobResumed) once resumed. */
export const suspendedCondition = (suspend: boolean, lastTransitionTime: string): JobCondition =>
  suspend
    ? { type: 'Suspended', status: 'True', reason: Reason.JobSuspended, message: Message.JobSuspended, lastTransitionTime }
    : { type: 'Suspended', status: 'False', reason: Reason.JobResumed, message: Message.JobResumed, lastTransitionTime };

/** True when the Job has a condition of this type with status True. */
export function hasTrueCondition(conditions: readonly JobCondition[], type: string): boolean {
  for (const c of conditions) if (c.type === type && c.status === 'True') return true;
  return false;
}

/** The conditions of an outcome (interim, then terminal). */
const OUTCOME_TYPES: ReadonlySet<string> = new Set(['SuccessCriteriaMet', 'FailureTarget', 'Complete', 'Failed']);

/**
 * Upstream `ensureJobConditionStatus` applied to a list: replaces a condition of the same type
 * in place, or appends it. (Whether a False condition may be added is decided by the caller.)
 * A Suspended condition new to a list that holds an outcome goes before it: upstream writes
 * Suspended only in a sync that chose no outcome, so one jobfold learns of late had that place
 * (suspension-order.ts).
 */
export function putCondition(
  conditions: readonly JobCondition[],
  condition: JobCondition,
): JobCondition[] {
  const at = conditions.findIndex((c) => c.type === condition.type);
  if (at < 0 && condition.type === 'Suspended') {
    const outcome = conditions.findIndex((c) => OUTCOME_TYPES.has(c.type) && c.status === 'True');
    if (outcome >= 0) return [...conditions.slice(0, outcome), condition, ...conditions.slice(outcome)];
  }
  if (at < 0) return [...conditions, condition];
  const next = [...conditions];
  next[at] = condition;
  return next;
}

/** `Complete` or `Failed` with status True: the Job is finished and never synced again. */
export const isFinished = (conditions: readonly JobCondition[]): boolean =>
  hasTrueCondition(conditions, 'Complete') || hasTrueCondition(conditions, 'Failed');
