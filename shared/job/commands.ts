import type { TerminationCause } from './decisions.ts';
import type { JobStatusView } from './status.ts';

// Commands go back to the cluster that owns the Job, through its outbound queue. Each carries a
// commandId derived from what it acts on, so a redelivered command is recognisable downstream.

interface JobTarget {
  readonly commandId: string;
  readonly clusterId: string;
  readonly namespace: string;
  readonly jobName: string;
  readonly jobUid: string;
}

/** Delete a pod, with a uid precondition so that a new pod with the same name is never hit. */
export interface TerminatePod extends JobTarget {
  readonly type: 'TerminatePod';
  readonly podName: string;
  readonly podUid: string;
  readonly reason: string;
  readonly message: string;
  readonly cause: TerminationCause;
}

/** Create the pod for one completion index (or one more pod of a NonIndexed Job). */
export interface CreatePod extends JobTarget {
  readonly type: 'CreatePod';
  readonly index: number | undefined;
  readonly templateHash: string;
  /**
   * backoffLimitPerIndex: the pod's `batch.kubernetes.io/job-index-failure-count` and
   * `job-index-ignored-failure-count` (upstream `getNewIndexFailureCounts`); unset otherwise.
   */
  readonly indexFailureCount?: number;
  readonly indexIgnoredFailureCount?: number;
}

/** Write the status jobfold computed to `jobs/status` (Jobs whose managedBy names jobfold). */
export interface UpdateJobStatus extends JobTarget {
  readonly type: 'UpdateJobStatus';
  readonly status: JobStatusView;
}

/**
 * Remove the `batch.kubernetes.io/job-tracking` finalizer of a pod of a managed Job whose
 * outcome jobfold has counted (or that it deletes uncounted), guarded by the pod's uid.
 */
export interface RemovePodFinalizer extends JobTarget {
  readonly type: 'RemovePodFinalizer';
  readonly podName: string;
  readonly podUid: string;
}

export type JobCommand = TerminatePod | CreatePod | UpdateJobStatus | RemovePodFinalizer;
