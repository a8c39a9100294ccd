import { classifyChildJobs } from './child-jobs.ts';
import { isConditionTrue } from './conditions.ts';
import { CONDITION_TYPES } from './constants.ts';
import { childJobName } from './construct-job.ts';
import { matchDependsOn, type DependencyWait } from './depends-on.ts';
import { isReconciled } from './managed-by.ts';
import { allReplicasStarted, calculateReplicatedJobStatuses } from './replicated-jobs-status.ts';
import type { JobSetState } from './state.ts';
import { matchStartupPolicy } from './startup-policy.ts';

/** Why some Jobs of a replicated job have not been created. */
export type WaitReason =
  /** `dependsOn`: the first dependency not reached yet. */
  | ({ readonly kind: 'dependency' } & DependencyWait)
  /** InOrder startup: the replicated job before it has not started (ready + succeeded + failed < replicas). */
  | { readonly kind: 'startupOrder'; readonly previous: string; readonly started: number; readonly replicas: number }
  /** BlockingRecreate: nothing is created while a Job of an earlier restart attempt exists. */
  | { readonly kind: 'blockingRecreate'; readonly previousJobs: number }
  /** Recreate: the Jobs' names are still held by Jobs of an earlier restart attempt, being deleted. */
  | { readonly kind: 'nameTaken'; readonly jobs: readonly string[] };

/** A replicated job some of whose Jobs (of the current restart attempt) do not exist yet. */
export interface WaitingReplicatedJob {
  readonly replicatedJob: string;
  readonly missing: number;
  readonly replicas: number;
  readonly reason: WaitReason;
}

/**
 * Why the JobSet has not created every Job of every replicated job, as the next reconcile sees
 * it: the same policies `decide` applies, read instead of acted on. Only for a JobSet the fold
 * reconciles and that is running (not finished, rejected, managed elsewhere or being deleted);
 * a replicated job whose missing Jobs the next reconcile creates is not waiting.
 */
export function waitingReplicatedJobs(state: JobSetState): WaitingReplicatedJob[] {
  const jobSet = state.jobSet;
  if (jobSet === undefined || state.deleted || state.deleting === true || state.validationErrors.length > 0) return [];
  const { spec } = jobSet;
  const finished = [CONDITION_TYPES.completed, CONDITION_TYPES.failed].some((type) => isConditionTrue(state.conditions, type));
  if (!isReconciled(spec) || finished) return [];
  const owned = classifyChildJobs(state);
  if (owned === undefined) return [];
  const statuses = calculateReplicatedJobStatuses(spec, owned);
  const plan = matchStartupPolicy(spec, statuses);
  const dependencies = matchDependsOn(spec, statuses);
  const blocking = spec.failurePolicy?.restartStrategy === 'BlockingRecreate' && owned.previous.length > 0;
  const waiting: WaitingReplicatedJob[] = [];
  spec.replicatedJobs.forEach((rjob, index) => {
    const names = Array.from({ length: rjob.replicas }, (_, i) => childJobName(jobSet.metadata.name, rjob.name, i));
    const current = names.filter((name) => {
      const job = state.children[name];
      return job !== undefined && (job.restartAttempt ?? 0) >= state.restarts;
    });
    const missing = rjob.replicas - current.length;
    if (missing === 0) return;
    const reason = whyWaiting();
    if (reason !== undefined) waiting.push({ replicatedJob: rjob.name, missing, replicas: rjob.replicas, reason });

    function whyWaiting(): WaitReason | undefined {
      const wait = dependencies.held.get(rjob.name);
      if (wait !== undefined) return { kind: 'dependency', ...wait };
      if (!plan.release.includes(rjob.name)) {
        const previous = spec.replicatedJobs.slice(0, index).find((r) => plan.release.includes(r.name) || !allReplicasStarted(r.replicas, statuses.find((s) => s.name === r.name)));
        if (previous !== undefined) {
          const row = statuses.find((s) => s.name === previous.name);
          const started = (row?.ready ?? 0) + (row?.succeeded ?? 0) + (row?.failed ?? 0);
          return { kind: 'startupOrder', previous: previous.name, started, replicas: previous.replicas };
        }
      }
      if (blocking) return { kind: 'blockingRecreate', previousJobs: owned!.previous.length };
      const taken = names.filter((name) => !current.includes(name) && state.children[name] !== undefined);
      if (taken.length > 0) return { kind: 'nameTaken', jobs: taken };
      return undefined;
    }
  });
  return waiting;
}

const MAX_NAMES = 3;

/** `workers: 2 of 2 Jobs not created — waiting for driver to be Ready: 1 of 2 ready`. */
export function waitingSentence(waiting: WaitingReplicatedJob): string {
  const head = `${waiting.replicatedJob}: ${waiting.missing} of ${waiting.replicas} Job${waiting.replicas === 1 ? '' : 's'} not created — `;
  const reason = waiting.reason;
  switch (reason.kind) {
    case 'dependency': {
      if (reason.status === 'Complete') return `${head}waiting for ${reason.dependency} to be Complete: ${reason.reached} of ${reason.needed} succeeded`;
      const finished = reason.finished === 0 ? '' : ` (${reason.finished} finished, counted as ready)`;
      return `${head}waiting for ${reason.dependency} to be ${reason.status}: ${reason.reached} of ${reason.needed} ready${finished}`;
    }
    case 'startupOrder':
      return `${head}waiting for ${reason.previous} to start (startupPolicyOrder InOrder): ${reason.started} of ${reason.replicas} ready or finished`;
    case 'blockingRecreate':
      return `${head}waiting for the ${reason.previousJobs} Job${reason.previousJobs === 1 ? '' : 's'} of the earlier restart attempt to be deleted (restartStrategy BlockingRecreate)`;
    case 'nameTaken': {
      const n = reason.jobs.length;
      const shown = reason.jobs.slice(0, MAX_NAMES).join(', ') + (n > MAX_NAMES ? `, … ${n - MAX_NAMES} more` : '');
      return `${head}waiting for ${n === 1 ? 'the Job' : `${n} Jobs`} of the earlier restart attempt to be deleted: ${shown}`;
    }
    default: {
      const _exhaustive: never = reason;
      return _exhaustive;
    }
  }
}
