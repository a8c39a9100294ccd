import type { OwnedJobs } from './child-jobs.ts';
import { commandIdFor, deleteJobSetCommandId } from './commands.ts';
import { childJobName, constructJob } from './construct-job.ts';
import type { DefaultedJobSet, DefaultedReplicatedJob } from './defaulting.ts';
import { jobSetKey, record, type Pass } from './pass.ts';
import type { ChildJobView } from './state.ts';
import type { TtlAfterFinished } from './ttl-after-finished.ts';

// Each command goes out together with a decision event that applies its effect to the
// controller's own view (the execution model assumes commands succeed), so the next pass
// neither repeats it nor misses it.

/**
 * `constructJobsFromTemplate` + `createJobs`: creates the Jobs of `rjob` whose names are not
 * taken by any child Job (previous attempt included). With `BlockingRecreate` nothing is created
 * while a Job of an earlier attempt still exists.
 */
export function createMissingJobs(
  pass: Pass,
  jobSet: DefaultedJobSet,
  rjob: DefaultedReplicatedJob,
  owned: OwnedJobs,
): void {
  const blocking = jobSet.spec.failurePolicy?.restartStrategy === 'BlockingRecreate';
  if (blocking && owned.previous.length > 0) return;
  const restartAttempt = pass.state.restarts;
  for (let jobIndex = 0; jobIndex < rjob.replicas; jobIndex++) {
    const name = childJobName(jobSet.metadata.name, rjob.name, jobIndex);
    // The buckets are as listed at the start of the pass, like upstream's `shouldCreateJob`.
    if (pass.start.children[name] !== undefined) continue;
    const job = constructJob(jobSet, rjob, jobIndex, restartAttempt);
    const commandId = commandIdFor(jobSetKey(pass.start), restartAttempt, name, 'CreateJob', pass.start.position);
    const suspend = job.spec.suspend ?? false;
    pass.commands.push({
      type: 'CreateJob',
      commandId,
      namespace: jobSet.metadata.namespace,
      name,
      replicatedJob: rjob.name,
      jobIndex,
      restartAttempt,
      suspend,
      job,
    });
    record(pass, {
      type: 'CreateJobIssued',
      at: pass.now,
      commandId,
      name,
      replicatedJob: rjob.name,
      jobIndex,
      restartAttempt,
      suspend,
      parallelism: job.spec.parallelism ?? 1,
      completions: job.spec.completions,
    });
  }
}

/** `deleteJobs`: foreground deletion, skipping Jobs already being deleted. */
export function deleteJobs(pass: Pass, jobs: readonly ChildJobView[]): void {
  for (const job of jobs) {
    if (job.terminating) continue;
    const commandId = issueId(pass, job, 'DeleteJob');
    pass.commands.push({
      type: 'DeleteJob',
      commandId,
      namespace: pass.start.jobSet?.metadata.namespace,
      name: job.name,
      propagationPolicy: 'Foreground',
    });
    record(pass, { type: 'DeleteJobIssued', at: pass.now, commandId, name: job.name });
  }
}

/** Sets `spec.suspend` on a child Job (`suspendJobs` / `resumeJob`). */
export function setJobSuspend(pass: Pass, job: ChildJobView, suspend: boolean): void {
  const kind = suspend ? 'SuspendJob' : 'ResumeJob';
  const commandId = issueId(pass, job, kind);
  pass.commands.push({ type: kind, commandId, namespace: pass.start.jobSet?.metadata.namespace, name: job.name });
  record(pass, { type: suspend ? 'SuspendJobIssued' : 'ResumeJobIssued', at: pass.now, commandId, name: job.name });
}

function issueId(pass: Pass, job: ChildJobView, action: 'DeleteJob' | 'SuspendJob' | 'ResumeJob'): string {
  return commandIdFor(jobSetKey(pass.start), job.restartAttempt, job.name, action, pass.start.position);
}

/**
 * `executeTTLAfterFinishedPolicy`: an expired JobSet is deleted (foreground); one not expired
 * yet wakes the controller up when it will be.
 */
export function applyTtlAfterFinished(pass: Pass, ttl: TtlAfterFinished): void {
  if (ttl.kind === 'none') return;
  if (ttl.kind === 'pending') {
    pass.wakeAt = ttl.expireAt;
    return;
  }
  const jobSet = pass.start.jobSet;
  if (jobSet === undefined) return;
  const commandId = deleteJobSetCommandId(jobSetKey(pass.start), pass.start.position);
  const { namespace, name } = jobSet.metadata;
  pass.commands.push({ type: 'DeleteJobSet', commandId, namespace, name, propagationPolicy: 'Foreground' });
  record(pass, {
    type: 'JobSetDeletionRequested',
    at: pass.now,
    commandId,
    name,
    ttlSecondsAfterFinished: ttl.ttlSecondsAfterFinished,
    finishedAt: ttl.finishedAt,
    expiredAt: ttl.expireAt,
    tippedBy: pass.start.lastObservation,
  });
}
