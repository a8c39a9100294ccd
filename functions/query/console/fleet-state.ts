import type { JobSummary } from '../../../shared/log/event-store.ts';

// One word for where an object of the fleet stands, from the condition its summary carries.
// The console's state filter and counts use it; kubectl's STATUS column says the same things.

export const FLEET_STATES = ['Running', 'Suspended', 'Succeeded', 'Failed', 'Rejected'] as const;
export type FleetState = (typeof FLEET_STATES)[number];

/**
 * The state of a Job or JobSet: decided outcomes count from the interim condition on
 * (`SuccessCriteriaMet`, `FailureTarget`: the outcome is final, only pods are still stopping);
 * anything without a true terminal, suspended or rejected condition is Running.
 */
export function fleetState(summary: Pick<JobSummary, 'latestCondition'>): FleetState {
  const condition = summary.latestCondition;
  if (condition === undefined || condition.status !== 'True') return 'Running';
  switch (condition.type) {
    case 'Complete':
    case 'Completed':
    case 'SuccessCriteriaMet':
      return 'Succeeded';
    case 'Failed':
    case 'FailureTarget':
      return 'Failed';
    case 'Suspended':
      return 'Suspended';
    case 'Rejected':
      return 'Rejected';
    default:
      return 'Running';
  }
}

/** The reason the fleet shows for an object: its latest condition's, or '' when it has none. */
export function fleetReason(summary: Pick<JobSummary, 'latestCondition'>): string {
  return summary.latestCondition?.reason ?? '';
}
