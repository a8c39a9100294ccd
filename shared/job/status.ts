import type { JobCondition } from './conditions.ts';
import type { JobState } from './state.ts';
import { expectedCreations } from './expectations.ts';

/** batch/v1 JobStatus as jobfold computes it; field names and shapes as the API writes them. */
export interface JobStatusView {
  readonly conditions: readonly JobCondition[];
  readonly startTime: string | null;
  readonly completionTime: string | null;
  readonly active: number;
  readonly ready: number;
  readonly terminating: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly completedIndexes: string;
  /** `null` unless backoffLimitPerIndex is set. */
  readonly failedIndexes: string | null;
}

/**
 * The status the Job controller would have written after the last decision. Once the Job is
 * finished it is the status written then: upstream stops syncing a finished Job, so pods seen
 * or counted later (lingering, late or replayed observations) never move it.
 */
export function jobStatus(state: JobState): JobStatusView {
  return state.finalStatus ?? liveStatus(state);
}

/** The status from the fold's current counts and sets. */
export function liveStatus(state: JobState): JobStatusView {
  const { status, settings, counts } = state;
  const indexed = settings?.indexed ?? false;
  return {
    conditions: status.conditions,
    startTime: status.startTime ?? null,
    completionTime: status.completionTime ?? null,
    // Pods created by the last reconcile count as active until they are observed, as upstream
    // writes `active` in the sync that creates them (or until a sync after the expectation timed
    // out: apply-decision.ts forgetExpiredCreations).
    active: counts.active + expectedCreations(state),
    ready: counts.ready,
    terminating: counts.terminating,
    succeeded: indexed ? status.completedIndexes.size : status.succeeded,
    failed: status.failed,
    completedIndexes: indexed ? status.completedIndexes.toString() : '',
    failedIndexes:
      settings?.backoffLimitPerIndex !== undefined ? status.failedIndexes.toString() : null,
  };
}
