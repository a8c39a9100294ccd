import { isConditionTrue, type ConditionUpdate, type JobSetCondition } from './conditions.ts';
import { CONDITION_TYPES } from './constants.ts';
import type { JobSetDecisionEvent } from './decision-events.ts';
import type { JobSetOutcome, LoggedJobSetDecision } from './explain.ts';
import type { JobFailure, JobSetState } from './state.ts';

/** The outcome: rejection first, then terminal state, suspension, restart, progress. */
export function jobSetOutcome(state: JobSetState): JobSetOutcome {
  const { conditions } = state;
  if (state.jobSet === undefined) return 'Pending';
  if (state.validationErrors.length > 0) return 'Rejected';
  if (state.terminalState === 'Completed' || isConditionTrue(conditions, CONDITION_TYPES.completed)) return 'Completed';
  if (state.terminalState === 'Failed' || isConditionTrue(conditions, CONDITION_TYPES.failed)) return 'Failed';
  if (isConditionTrue(conditions, CONDITION_TYPES.suspended)) return 'Suspended';
  if (isConditionTrue(conditions, CONDITION_TYPES.restartingJobSet)) return 'Restarting';
  return Object.keys(state.children).length === 0 ? 'Pending' : 'Running';
}

/** The condition a decision wrote, if it wrote one. */
export function writtenCondition(event: JobSetDecisionEvent): ConditionUpdate | undefined {
  switch (event.type) {
    case 'JobSetConditionChanged':
    case 'JobSetRestarted':
    case 'JobSetFailed':
    case 'JobSetCompleted':
      return event.condition;
    case 'JobSetRejected':
    case 'CreateJobIssued':
    case 'DeleteJobIssued':
    case 'SuspendJobIssued':
    case 'ResumeJobIssued':
    case 'JobSetDeletionRequested':
      return undefined;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * The latest decision that wrote `condition` as it stands (type, status, reason, message). A
 * startup-policy condition turned False by its counterpart going True (`exclusiveConditions`)
 * is explained by that counterpart's decision.
 */
export function conditionEvidence(
  condition: JobSetCondition,
  decisions: readonly LoggedJobSetDecision[],
): LoggedJobSetDecision | undefined {
  const same = (written: ConditionUpdate | undefined): boolean =>
    written !== undefined &&
    written.type === condition.type &&
    written.status === condition.status &&
    written.reason === condition.reason &&
    written.message === condition.message;
  const found = findLast(decisions, (d) => same(writtenCondition(d.event)));
  if (found !== undefined || condition.status !== 'False') return found;
  const counterpart = EXCLUSIVE[condition.type];
  if (counterpart === undefined) return undefined;
  return findLast(decisions, (d) => {
    const written = writtenCondition(d.event);
    return written?.type === counterpart && written.status === 'True';
  });
}

const EXCLUSIVE: Readonly<Record<string, string>> = {
  [CONDITION_TYPES.startupPolicyInProgress]: CONDITION_TYPES.startupPolicyCompleted,
  [CONDITION_TYPES.startupPolicyCompleted]: CONDITION_TYPES.startupPolicyInProgress,
};

/**
 * The child Job a failure-policy message names (`messageWithFirstFailedJob`) and its failure as
 * the state still knows it; for explaining a condition whose decision is not in the log.
 */
export function firstFailedJob(state: JobSetState, message: string): { name: string; failure: JobFailure | undefined } | undefined {
  const name = /\(first failed job: (.+)\)$/.exec(message)?.[1];
  if (name === undefined) return undefined;
  return { name, failure: state.children[name]?.failure };
}

function findLast<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as T;
    if (test(item)) return item;
  }
  return undefined;
}
