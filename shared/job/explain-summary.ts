import { findCondition } from './conditions.ts';
import type { JobOutcome } from './explain.ts';
import type { JobState } from './state.ts';
import { jobStatus } from './status.ts';

/** One line saying where the Job stands and why, e.g. `Job default/foobar succeeded at …`. */
export function explainSummary(state: JobState, outcome: JobOutcome): string {
  const identity = state.identity;
  if (!identity) return 'No Job has been observed.';
  const job = `Job ${identity.namespace}/${identity.name}`;
  const conditions = state.status.conditions;
  const because = (type: string): string => {
    const condition = findCondition(conditions, type);
    return condition ? `${condition.reason}: ${condition.message}` : 'no condition';
  };
  const status = jobStatus(state);
  switch (outcome) {
    case 'Unknown':
      return 'No Job has been observed.';
    case 'Rejected': {
      const count = state.rejected?.length ?? 0;
      return `${job} was rejected: its spec has ${count} validation error${count === 1 ? '' : 's'}.`;
    }
    case 'Succeeded':
      return `${job} succeeded at ${findCondition(conditions, 'Complete')?.lastTransitionTime} — ${because('Complete')}.`;
    case 'Failed':
      return `${job} failed at ${findCondition(conditions, 'Failed')?.lastTransitionTime} — ${because('Failed')}.`;
    case 'Succeeding':
      return `${job} will complete once its ${pods(status.terminating)} gone — ${because('SuccessCriteriaMet')}.`;
    case 'Failing':
      return `${job} will fail once its ${pods(status.terminating)} gone — ${because('FailureTarget')}.`;
    case 'Suspended':
      return `${job} is suspended: ${status.active} active, ${status.terminating} terminating.`;
    case 'Pending':
      return `${job} has not started yet.`;
    case 'Running':
      return `${job} is running: ${status.active} active, ${status.succeeded} succeeded, ${status.failed} failed.`;
    default: {
      const exhaustive: never = outcome;
      return exhaustive;
    }
  }
}

const pods = (n: number): string => (n === 1 ? '1 terminating pod is' : `${n} terminating pods are`);
