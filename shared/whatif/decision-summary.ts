import type { Decision } from '../job/decisions.ts';
import type { JobState } from '../job/state.ts';
import type { DecisionSummary } from './report.ts';

/**
 * What a reconcile decided, as compared between the two folds: conditions, terminations,
 * creations, start time, rejection. `JobStatusSent` is left out: it only echoes the status,
 * whose differences show first as one of these or as a pod counted differently; so is
 * `PodFinalizersRemovalRequested`, which follows a count or a termination.
 */
export function summarize(decisions: readonly Decision[]): DecisionSummary[] {
  const result: DecisionSummary[] = [];
  for (const decision of decisions) {
    switch (decision.type) {
      case 'JobConditionChanged': {
        const { type, status, reason, message } = decision.condition;
        result.push({ kind: 'condition', type, status, reason, message });
        break;
      }
      case 'PodsTerminationRequested':
        result.push({ kind: 'termination', cause: decision.cause, pods: decision.pods.map((p) => p.name) });
        break;
      case 'PodCreationsRequested':
        result.push({ kind: 'creation', count: decision.count, ...(decision.indexes ? { indexes: decision.indexes } : {}) });
        break;
      case 'StartTimeSet':
        result.push({ kind: 'startTime', startTime: decision.startTime });
        break;
      case 'JobRejected':
      case 'JobUpdateRefused':
        result.push({ kind: 'rejection', errors: decision.errors.map((e) => e.message) });
        break;
      case 'JobStatusSent':
      case 'PodFinalizersRemovalRequested':
      case 'ObservationRefused':
        break;
      default: {
        const exhaustive: never = decision;
        throw new Error(`unknown decision ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return result;
}

/** How the fold has counted one pod, and the Job's counters after it. */
export function countingOf(state: JobState, uid: string): DecisionSummary {
  const pod = state.pods.get(uid);
  const { failed, succeeded, failedIndexes, completedIndexes } = state.status;
  return {
    kind: 'pod',
    pod: pod?.name ?? uid,
    counted: pod?.counted ?? 'none',
    failed: failed + state.heldCountable,
    succeeded,
    failedIndexes: failedIndexes.toString(),
    completedIndexes: completedIndexes.toString(),
  };
}

/**
 * A recorded run of decisions as `summarize` sees one reconcile's: a termination logged in
 * pages (shared/reconcile/page-decisions.ts) is one termination again.
 */
export function summarizeRecorded(decisions: readonly Decision[]): DecisionSummary[] {
  const whole: Decision[] = [];
  for (const decision of decisions) {
    const previous = whole.at(-1);
    if (decision.type === 'PodsTerminationRequested' && decision.page !== undefined && previous?.type === 'PodsTerminationRequested') {
      whole[whole.length - 1] = { ...previous, pods: [...previous.pods, ...decision.pods] };
    } else {
      whole.push(decision);
    }
  }
  return summarize(whole);
}

export const sameSummaries = (a: readonly DecisionSummary[], b: readonly DecisionSummary[]): boolean =>
  JSON.stringify(a) === JSON.stringify(b);
