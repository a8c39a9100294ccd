import type { JobIndexes } from '../../../functions/query/api-types.ts';

// Per-index state of an Indexed Job, one byte per index, from the interval lists of
// GET …/indexes. 100,000 indexes are 100 KB here and one canvas on screen.

export const PENDING = 0;
export const ACTIVE = 1;
export const TERMINATING = 2;
export const SUCCEEDED = 3;
export const FAILED = 4;
export const STATE_NAMES = ['Pending', 'Active', 'Terminating', 'Succeeded', 'Failed'] as const;

/**
 * The states' names at a point of the log. Once the Job's outcome is decided (SuccessCriteriaMet
 * or FailureTarget, then Complete or Failed) it creates no pod: an index neither succeeded nor
 * failed will not run, so it is "Not completed" (as `kubectl describe` leaves it out of Completed
 * Indexes), not "Pending". A Job without backoffLimitPerIndex tracks no failed indexes: one failed
 * by a pod failure policy has every index but the succeeded ones so.
 */
export function stateNames(decided: boolean): readonly string[] {
  return decided ? ['Not completed', ...STATE_NAMES.slice(1)] : STATE_NAMES;
}

/** Sets `state` on every index of an interval list (`0-2,5`) below `n`. */
export function markIntervals(states: Uint8Array, list: string, state: number): void {
  if (list === '') return;
  for (const part of list.split(',')) {
    const dash = part.indexOf('-');
    const first = Number(dash < 0 ? part : part.slice(0, dash));
    const last = Math.min(dash < 0 ? first : Number(part.slice(dash + 1)), states.length - 1);
    if (!Number.isInteger(first) || !Number.isInteger(last)) continue;
    states.fill(state, first, last + 1);
  }
}

/** Later marks win: an index that succeeded while a duplicate pod still runs shows Succeeded. */
export function indexStates(indexes: Pick<JobIndexes, 'completions' | 'succeeded' | 'failed' | 'active' | 'terminating'>): Uint8Array {
  const states = new Uint8Array(indexes.completions ?? 0);
  markIntervals(states, indexes.active, ACTIVE);
  markIntervals(states, indexes.terminating, TERMINATING);
  markIntervals(states, indexes.succeeded, SUCCEEDED);
  markIntervals(states, indexes.failed, FAILED);
  return states;
}

export function countStates(states: Uint8Array): number[] {
  const counts = [0, 0, 0, 0, 0];
  for (const s of states) counts[s]!++;
  return counts;
}
