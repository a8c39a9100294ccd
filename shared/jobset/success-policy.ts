import type { DefaultedJobSetSpec } from './defaulting.ts';
import type { ChildJobView } from './state.ts';

export interface SuccessPolicyResult {
  readonly met: boolean;
  /** Succeeded current-attempt Jobs of targeted replicated jobs (`numJobsMatchingSuccessPolicy`). */
  readonly counted: readonly ChildJobView[];
  /** 1 for `Any`; for `All`, the replicas of the targeted replicated jobs (`numJobsExpectedToSucceed`). */
  readonly required: number;
}

/**
 * `executeSuccessPolicy` (jobset_controller.go, success_policy.go): the JobSet completes when
 * the succeeded Jobs of the targeted replicated jobs (all of them when no target is listed)
 * reach the required count. `successful` holds the current-attempt Jobs with `Complete`.
 */
export function matchSuccessPolicy(
  spec: DefaultedJobSetSpec,
  successful: readonly ChildJobView[],
): SuccessPolicyResult {
  const { operator, targetReplicatedJobs: targets } = spec.successPolicy;
  const targeted = (name: string | undefined): boolean =>
    targets.length === 0 || (name !== undefined && targets.includes(name));
  const counted = successful.filter((job) => targeted(job.replicatedJob));
  const required =
    operator === 'Any'
      ? 1
      : spec.replicatedJobs.filter((rjob) => targeted(rjob.name)).reduce((sum, rjob) => sum + rjob.replicas, 0);
  return { met: counted.length >= required, counted, required };
}
