import type { DefaultedJobSetSpec } from './defaulting.ts';
import { allReplicasStarted, type ReplicatedJobStatus } from './replicated-jobs-status.ts';

/** What the startup policy allows in one pass. */
export interface StartupPlan {
  /** Replicated jobs (spec order) whose missing Jobs may be created and suspended Jobs resumed. */
  readonly release: readonly string[];
  /** The InOrder condition to write: in progress, completed, or none (AnyOrder or suspended). */
  readonly condition: 'InProgress' | 'Completed' | undefined;
  /** The walk reached the end of the list, so a suspended JobSet may be reported resumed. */
  readonly walkComplete: boolean;
}

/**
 * KEP-104 StartupPolicy, the walk shared by `reconcileReplicatedJobs` and
 * `resumeJobsIfNecessary` (jobset_controller.go). InOrder on a running JobSet releases only the
 * first replicated job that has not started (every Job ready or finished, `allReplicasStarted`
 * on the statuses computed at the start of the pass); started ones are skipped. AnyOrder, or any
 * suspended JobSet, releases all of them and writes no startup condition.
 */
export function matchStartupPolicy(
  spec: DefaultedJobSetSpec,
  statuses: readonly ReplicatedJobStatus[],
): StartupPlan {
  const names = spec.replicatedJobs.map((rjob) => rjob.name);
  if (spec.startupPolicy.startupPolicyOrder !== 'InOrder' || spec.suspend) {
    return { release: names, condition: undefined, walkComplete: true };
  }
  const next = spec.replicatedJobs.find(
    (rjob) => !allReplicasStarted(rjob.replicas, statuses.find((status) => status.name === rjob.name)),
  );
  return next === undefined
    ? { release: [], condition: 'Completed', walkComplete: true }
    : { release: [next.name], condition: 'InProgress', walkComplete: false };
}
