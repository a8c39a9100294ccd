import { classifyChildJobs } from './child-jobs.ts';
import type { JobSetCondition } from './conditions.ts';
import { isReconciled } from './managed-by.ts';
import { calculateReplicatedJobStatuses, type ReplicatedJobStatus } from './replicated-jobs-status.ts';
import type { JobSetState, TerminalState } from './state.ts';

/** `JobSetStatus` as jobfold computes it (the fields the controller writes with default gates). */
export interface JobSetStatus {
  readonly conditions: readonly JobSetCondition[];
  readonly restarts: number;
  readonly restartsCountTowardsMax: number;
  readonly terminalState: TerminalState;
  /** One entry per replicated job, in spec order. */
  readonly replicatedJobsStatus: readonly ReplicatedJobStatus[];
}

const EMPTY = { previous: [], active: [], successful: [], failed: [] };

/**
 * Derives the JobSet status from the fold. `replicatedJobsStatus` is recomputed from the child
 * Jobs, as every reconcile does; while a child Job's restart-attempt label is unusable (upstream's
 * reconcile fails) the counters read zero. A JobSet another controller manages gets none: the
 * controller returns before computing it.
 */
export function jobSetStatus(state: JobSetState): JobSetStatus {
  const spec = state.jobSet?.spec;
  const replicatedJobsStatus =
    spec === undefined || !isReconciled(spec) ? [] : calculateReplicatedJobStatuses(spec, classifyChildJobs(state) ?? EMPTY);
  return {
    conditions: state.conditions,
    restarts: state.restarts,
    restartsCountTowardsMax: state.restartsCountTowardsMax,
    terminalState: state.terminalState,
    replicatedJobsStatus,
  };
}

/** A child Job as the controller believes it exists. */
export interface ChildJobSummary {
  readonly name: string;
  readonly replicatedJob: string | undefined;
  readonly jobIndex: number | undefined;
  readonly restartAttempt: number | undefined;
  readonly suspend: boolean;
  readonly terminating: boolean;
}

/** The child Jobs the controller believes exist, sorted by name. */
export function listChildJobs(state: JobSetState): ChildJobSummary[] {
  return Object.values(state.children)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ name, replicatedJob, jobIndex, restartAttempt, suspend, terminating }) => ({
      name,
      replicatedJob,
      jobIndex,
      restartAttempt,
      suspend,
      terminating,
    }));
}
