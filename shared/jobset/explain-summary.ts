import { findCondition } from './conditions.ts';
import { CONDITION_TYPES } from './constants.ts';
import type { JobSetOutcome } from './explain.ts';
import type { JobSetState } from './state.ts';
import { jobSetStatus } from './status.ts';

/** One line saying where the JobSet stands and why, e.g. `JobSet default/x failed at … — …`. */
export function explainJobSetSummary(state: JobSetState, outcome: JobSetOutcome): string {
  const metadata = state.jobSet?.metadata;
  if (metadata === undefined) return 'No JobSet has been observed.';
  const gone = state.deleted ? ' (deleted)' : state.deleting === true ? ' (being deleted)' : '';
  const jobSet = `JobSet ${metadata.namespace ?? 'default'}/${metadata.name}${gone}`;
  const because = (type: string): string => {
    const condition = findCondition(state.conditions, type);
    return condition === undefined ? '' : ` at ${condition.lastTransitionTime} — ${condition.reason}: ${condition.message}`;
  };
  const after = state.restarts === 0 ? '' : ` after ${plural(state.restarts, 'restart')}`;
  switch (outcome) {
    case 'Pending':
      return `${jobSet} has no child Jobs yet.`;
    case 'Rejected':
      return `${jobSet} was rejected: its spec has ${plural(state.validationErrors.length, 'validation error')}.`;
    case 'Completed':
      return `${jobSet} completed${after}${because(CONDITION_TYPES.completed)}.`;
    case 'Failed':
      return `${jobSet} failed${after}${because(CONDITION_TYPES.failed)}.`;
    case 'Restarting':
      return `${jobSet} is restarting (restart ${state.restarts}, ${counted(state)})${because(CONDITION_TYPES.restartingJobSet)}.`;
    case 'Suspended':
      return `${jobSet} is suspended: ${jobCounts(state)}.`;
    case 'Running': {
      const attempt = state.restarts === 0 ? '' : ` (restart attempt ${state.restarts}, ${counted(state)})`;
      return `${jobSet} is running${attempt}: ${jobCounts(state)}.`;
    }
    default: {
      const _exhaustive: never = outcome;
      return _exhaustive;
    }
  }
}

/** `4 Jobs — 4 active, 4 ready, 0 succeeded, 0 failed`, over the current attempt's Jobs. */
function jobCounts(state: JobSetState): string {
  const rows = jobSetStatus(state).replicatedJobsStatus;
  const sum = (key: 'active' | 'ready' | 'succeeded' | 'failed' | 'suspended'): number =>
    rows.reduce((total, row) => total + row[key], 0);
  const current = Object.values(state.children).filter((job) => (job.restartAttempt ?? 0) >= state.restarts).length;
  const suspended = sum('suspended') === 0 ? '' : `, ${sum('suspended')} suspended`;
  return `${plural(current, 'Job')} — ${sum('active')} active, ${sum('ready')} ready, ${sum('succeeded')} succeeded, ${sum('failed')} failed${suspended}`;
}

function counted(state: JobSetState): string {
  const max = state.jobSet?.spec.failurePolicy?.maxRestarts ?? 0;
  return `${state.restartsCountTowardsMax} of maxRestarts ${max} counted`;
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
