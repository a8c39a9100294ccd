import type { DecisionOf, TerminationCause } from './decisions.ts';
import type { FinalizerRemovalCause } from './finalizer-guard.ts';
import type { JobIdentity } from './job-settings.ts';
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
 * outcome jobfold has counted (or that it deletes uncounted), guarded by the pod's uid, and by
 * its cause on the live pod (shared/job/finalizer-guard.ts).
 */
export interface RemovePodFinalizer extends JobTarget {
  readonly type: 'RemovePodFinalizer';
  readonly podName: string;
  readonly podUid: string;
  readonly cause: FinalizerRemovalCause;
}

export type JobCommand = TerminatePod | CreatePod | UpdateJobStatus | RemovePodFinalizer;

/** The Job a command acts on, as its identity names it. */
export type CommandJob = Pick<JobIdentity, 'clusterId' | 'namespace' | 'name' | 'uid'>;

/**
 * The TerminatePod commands a termination decision (or one page of it) stands for, one per pod,
 * each named `<jobUid>/terminate/<podUid>`: built here only, for the sync that decides them and
 * for the publisher, from the pods and fields the outbox page carries (shared/outbox/outbox-page.ts).
 */
export function terminatePods(
  job: CommandJob,
  decision: Pick<DecisionOf<'PodsTerminationRequested'>, 'reason' | 'message' | 'cause'> & {
    readonly pods: readonly { readonly name: string; readonly uid: string }[];
  },
): TerminatePod[] {
  return decision.pods.map((pod) => ({
    type: 'TerminatePod',
    commandId: `${job.uid}/terminate/${pod.uid}`,
    clusterId: job.clusterId,
    namespace: job.namespace,
    jobName: job.name,
    jobUid: job.uid,
    podName: pod.name,
    podUid: pod.uid,
    reason: decision.reason,
    message: decision.message,
    cause: decision.cause,
  }));
}

/**
 * Where a command about one pod goes and what it acts on: the owning Job's cluster and identity,
 * the pod by name and uid, and a commandId `<jobUid>/<verb>/<podUid>` that names the act.
 */
export function podCommandTarget(
  identity: JobIdentity | undefined,
  pod: { readonly uid: string; readonly name: string; readonly namespace: string },
  verb: string,
): JobTarget & { readonly podName: string; readonly podUid: string } {
  return {
    commandId: `${identity?.uid}/${verb}/${pod.uid}`,
    clusterId: identity?.clusterId ?? '',
    namespace: pod.namespace,
    jobName: identity?.name ?? '',
    jobUid: identity?.uid ?? '',
    podName: pod.name,
    podUid: pod.uid,
  };
}
