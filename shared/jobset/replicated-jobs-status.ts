import type { OwnedJobs } from './child-jobs.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';

/** One entry of `status.replicatedJobsStatus`. */
export interface ReplicatedJobStatus {
  readonly name: string;
  readonly ready: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly active: number;
  readonly suspended: number;
}

/**
 * `calculateReplicatedJobStatuses`: counts current-attempt Jobs per replicated job, in spec order.
 * Previous-attempt Jobs count nowhere; Jobs without a known replicatedjob-name label are skipped.
 * A Job is ready when `succeeded + ready >= min(parallelism, completions)`; `active` is Jobs with
 * a running or pending pod; `suspended` is Jobs with `spec.suspend`. A terminating Job still counts.
 */
export function calculateReplicatedJobStatuses(
  spec: DefaultedJobSetSpec,
  owned: OwnedJobs,
): ReplicatedJobStatus[] {
  const counts = new Map(
    spec.replicatedJobs.map((rjob) => [
      rjob.name,
      { name: rjob.name, ready: 0, succeeded: 0, failed: 0, active: 0, suspended: 0 },
    ]),
  );
  for (const job of owned.active) {
    const entry = job.replicatedJob === undefined ? undefined : counts.get(job.replicatedJob);
    if (entry === undefined) continue;
    const pods = job.completions !== undefined && job.completions < job.parallelism ? job.completions : job.parallelism;
    if (job.succeeded + job.ready >= pods) entry.ready++;
    if (job.active > 0) entry.active++;
    if (job.suspend) entry.suspended++;
  }
  for (const job of owned.successful) {
    const entry = job.replicatedJob === undefined || job.gone === true ? undefined : counts.get(job.replicatedJob);
    if (entry !== undefined) entry.succeeded++;
  }
  for (const job of owned.failed) {
    const entry = job.replicatedJob === undefined || job.gone === true ? undefined : counts.get(job.replicatedJob);
    if (entry !== undefined) entry.failed++;
  }
  return [...counts.values()];
}

/** `allReplicasStarted` (startup_policy.go): every Job of the replicated job is ready or finished. */
export function allReplicasStarted(replicas: number, status: ReplicatedJobStatus | undefined): boolean {
  return replicas === (status?.ready ?? 0) + (status?.succeeded ?? 0) + (status?.failed ?? 0);
}

/** `allJobsReady`: the ready and succeeded Jobs of all replicated jobs add up to all replicas. */
export function allJobsReady(spec: DefaultedJobSetSpec, statuses: readonly ReplicatedJobStatus[]): boolean {
  const replicas = spec.replicatedJobs.reduce((sum, rjob) => sum + rjob.replicas, 0);
  const readyOrSucceeded = statuses.reduce((sum, status) => sum + status.ready + status.succeeded, 0);
  return readyOrSucceeded === replicas;
}

/** Names of the replicated jobs (spec order) that have started. */
export function startedReplicatedJobs(
  spec: DefaultedJobSetSpec,
  statuses: readonly ReplicatedJobStatus[],
): string[] {
  return spec.replicatedJobs
    .filter((rjob) => allReplicasStarted(rjob.replicas, statuses.find((s) => s.name === rjob.name)))
    .map((rjob) => rjob.name);
}
