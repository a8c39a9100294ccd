import { classifyChildJobs, type OwnedJobs } from './child-jobs.ts';
import type { JobSetCommand } from './commands.ts';
import { isConditionTrue } from './conditions.ts';
import { CONDITION_TYPES, MESSAGES, REASONS } from './constants.ts';
import type { DefaultedJobSet } from './defaulting.ts';
import type { JobSetDecisionEvent } from './decision-events.ts';
import { matchFailurePolicy } from './failure-policy.ts';
import { createMissingJobs, deleteJobs, setJobSuspend } from './job-commands.ts';
import { record, startPass, writeCondition, type Pass } from './pass.ts';
import {
  allJobsReady,
  calculateReplicatedJobStatuses,
  type ReplicatedJobStatus,
} from './replicated-jobs-status.ts';
import type { JobSetState } from './state.ts';
import { matchStartupPolicy } from './startup-policy.ts';
import { matchSuccessPolicy } from './success-policy.ts';
import { applyFailure, applySuccess } from './terminal-decisions.ts';

export interface JobSetDecision {
  readonly events: JobSetDecisionEvent[];
  readonly commands: JobSetCommand[];
}

/**
 * One reconcile of the JobSet at `now` (RFC 3339): the decisions it takes and the commands it
 * sends. Nothing is decided before the JobSet is observed, after it is deleted, for a spec that
 * failed admission (beyond recording the rejection once), or while a child Job carries no
 * integer restart-attempt label (upstream's reconcile fails on it).
 */
export function decide(state: JobSetState, now: string): JobSetDecision {
  const jobSet = state.jobSet;
  const pass = startPass(state, now);
  const decision = (): JobSetDecision => ({ events: pass.events, commands: pass.commands });
  if (jobSet === undefined || state.deleted) return decision();
  if (state.validationErrors.length > 0) {
    if (!state.rejectionRecorded) {
      const errors = state.validationErrors.map(({ field, type, detail }) => ({ field, type, detail }));
      record(pass, { type: 'JobSetRejected', at: now, errors, tippedBy: state.lastObservation });
    }
    return decision();
  }
  // Upstream skips a JobSet another controller manages (MultiKueue and the like); jobfold
  // reconciles those the JobSet controller or jobfold itself manage.
  if (!RECONCILED_MANAGERS.has(jobSet.spec.managedBy ?? JOBSET_CONTROLLER_NAME)) return decision();
  const owned = classifyChildJobs(state);
  if (owned === undefined) return decision();
  reconcile(pass, jobSet, owned, calculateReplicatedJobStatuses(jobSet.spec, owned));
  return decision();
}

/** `spec.managedBy` of upstream's controller, and of jobfold (shared/contract/jobset-outbound.ts). */
const JOBSET_CONTROLLER_NAME = 'jobset.sigs.k8s.io/jobset-controller';
const RECONCILED_MANAGERS: ReadonlySet<string> = new Set([JOBSET_CONTROLLER_NAME, 'jobfold.io/jobset-controller']);

/**
 * The steps of `JobSetReconciler.reconcile` (pkg/controllers/jobset_controller.go), in its order.
 * Child Jobs were listed and bucketed, and `replicatedJobsStatus` computed from the buckets,
 * before this runs (steps 1 and 2).
 */
function reconcile(
  pass: Pass,
  jobSet: DefaultedJobSet,
  owned: OwnedJobs,
  statuses: readonly ReplicatedJobStatus[],
): void {
  const { spec } = jobSet;
  const tippedBy = pass.start.lastObservation;
  // 3. `jobSetFinished`: a Completed or Failed JobSet only deletes its still-active Jobs.
  const { completed, failed } = CONDITION_TYPES;
  if (isConditionTrue(pass.state.conditions, completed) || isConditionTrue(pass.state.conditions, failed)) {
    deleteJobs(pass, owned.active);
    return;
  }
  // 4. Jobs of an earlier restart attempt are deleted (foreground).
  deleteJobs(pass, owned.previous);
  // 5. `allJobsReady` ends a restart: RestartingJobSet goes False / JobsReady.
  if (!spec.suspend && allJobsReady(spec, statuses)) {
    writeCondition(pass, restarting(REASONS.restartingJobsReady, MESSAGES.jobsReady), tippedBy);
  }
  // 6. Any failed Job: `executeFailurePolicy`, and nothing else this pass.
  if (owned.failed.length > 0) {
    applyFailure(pass, matchFailurePolicy(spec.failurePolicy, owned.failed, pass.state.restartsCountTowardsMax));
    return;
  }
  // 7. Any succeeded Job: `executeSuccessPolicy`; a completed JobSet stops here.
  if (owned.successful.length > 0) {
    const success = matchSuccessPolicy(spec, owned.successful);
    if (success.met) {
      applySuccess(pass, spec, success);
      return;
    }
  }
  // 8. Headless Service, volume claims, elastic scaling: not represented.
  // 9. `reconcileReplicatedJobs`: create missing Jobs as the startup policy releases them.
  const plan = matchStartupPolicy(spec, statuses);
  for (const rjob of spec.replicatedJobs) {
    if (plan.release.includes(rjob.name)) createMissingJobs(pass, jobSet, rjob, owned);
  }
  if (plan.condition === 'InProgress') writeCondition(pass, startupInProgress, tippedBy);
  if (plan.condition === 'Completed') writeCondition(pass, startupCompleted, tippedBy);
  // 10. `suspendJobs` or `resumeJobsIfNecessary`.
  if (spec.suspend) {
    for (const job of owned.active) if (!job.suspend) setJobSuspend(pass, job, true);
    const message = MESSAGES.suspended;
    writeCondition(pass, { type: CONDITION_TYPES.suspended, status: 'True', reason: REASONS.suspendedJobs, message }, tippedBy);
    writeCondition(pass, restarting(REASONS.restartingJobSetSuspended, message), tippedBy);
    return;
  }
  for (const job of owned.active) {
    const released = job.replicatedJob !== undefined && plan.release.includes(job.replicatedJob);
    if (released && job.suspend) setJobSuspend(pass, job, false);
  }
  if (plan.walkComplete) {
    const resumed = { type: CONDITION_TYPES.suspended, status: 'False', reason: REASONS.resumeJobs, message: MESSAGES.resumed } as const;
    writeCondition(pass, resumed, tippedBy);
  }
}

const restarting = (reason: string, message: string) =>
  ({ type: CONDITION_TYPES.restartingJobSet, status: 'False', reason, message }) as const;

const startupInProgress = {
  type: CONDITION_TYPES.startupPolicyInProgress,
  status: 'True',
  reason: REASONS.inOrderStartupPolicyInProgress,
  message: MESSAGES.inOrderStartupPolicyInProgress,
} as const;

const startupCompleted = {
  type: CONDITION_TYPES.startupPolicyCompleted,
  status: 'True',
  reason: REASONS.inOrderStartupPolicyCompleted,
  message: MESSAGES.inOrderStartupPolicyCompleted,
} as const;
