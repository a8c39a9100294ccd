import { classifyChildJobs } from './child-jobs.ts';
import type { JobSetCondition } from './conditions.ts';
import { isReconciled } from './managed-by.ts';
import { calculateReplicatedJobStatuses, type ReplicatedJobStatus } from './replicated-jobs-status.ts';
import type { ChildJobView as ChildJob, JobSetState, TerminalState } from './state.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from './constants.ts';
import { compareVersions } from '../k8s/object-sequence.ts';
import { compareTimes } from '../k8s/time.ts';

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
  const owned = classifyChildJobs(state) ?? EMPTY;
  const replicatedJobsStatus =
    spec === undefined || !isReconciled(spec) ? [] : calculateReplicatedJobStatuses(spec, { ...owned, active: owned.active.filter((job) => !createdOnLeftSpec(state, job)) });
  return {
    conditions: state.conditions,
    restarts: state.restarts,
    restartsCountTowardsMax: state.restartsCountTowardsMax,
    terminalState: state.terminalState,
    replicatedJobsStatus,
  };
}

/**
 * A Job the fold created suspended, never seen made, for a JobSet the cluster's controller runs,
 * on a suspended spec the cluster had already left: the resumed spec the fold holds now is newer
 * and was seen at or before the create. The cluster's controller created on the resumed spec
 * (only the Jobs its walk reached, running): this one it never made suspended.
 */
function createdOnLeftSpec(state: JobSetState, job: ChildJob): boolean {
  const spec = state.jobSet?.spec;
  if (spec === undefined || spec.suspend || spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return false;
  if (!job.suspend || job.createdAt === undefined || job.createdOnSpecVersion === undefined) return false;
  const held = state.jobSetOrder?.version;
  const seenAt = state.jobSetSeenAt;
  return held !== undefined && seenAt !== undefined && compareVersions(held, job.createdOnSpecVersion) > 0 && compareTimes(seenAt, job.createdAt) <= 0;
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
