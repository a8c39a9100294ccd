import { CONDITION_TYPES, MESSAGES, REASONS } from './constants.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import type { FailedJobEvidence } from './decision-events.ts';
import type { FailurePolicyResult } from './failure-policy.ts';
import { record, writeCondition, type Pass } from './pass.ts';
import type { ChildJobView } from './state.ts';
import type { SuccessPolicyResult } from './success-policy.ts';

/**
 * Records what the failure policy concluded: `JobSetFailed` (with `RestartingJobSet` going
 * False / JobSetFailed, `setJobSetFailedCondition`) or `JobSetRestarted` (the restart counters
 * bumped, `failurePolicyRecreateAll`, and `RestartingJobSet` True). An unsupported action
 * records nothing, as upstream's reconcile errors out. A failure correcting the restart at
 * `corrects` (late-failures.ts) takes that restart back.
 */
export function applyFailure(pass: Pass, result: FailurePolicyResult, corrects?: number): void {
  if (result.kind === 'Unsupported') return;
  const failedJob = evidenceOf(result.failedJob);
  const tippedBy = failedJob.observedAt;
  if (result.kind === 'Fail') {
    const condition = { type: CONDITION_TYPES.failed, status: 'True', reason: result.reason, message: result.message } as const;
    record(pass, { type: 'JobSetFailed', at: pass.now, rule: result.rule, failedJob, condition, tippedBy, ...(corrects === undefined ? {} : { corrects }) });
    const restartingFailed = {
      type: CONDITION_TYPES.restartingJobSet,
      status: 'False',
      reason: REASONS.restartingJobSetFailed,
      message: MESSAGES.jobSetFailed,
    } as const;
    writeCondition(pass, restartingFailed, tippedBy);
    return;
  }
  const { restarts, restartsCountTowardsMax } = pass.state;
  recordRestart(pass, result, { restarts: restarts + 1, restartsCountTowardsMax: restartsCountTowardsMax + (result.countsTowardsMax ? 1 : 0) });
}

/**
 * Records `JobSetRestarted` with the counters it leaves (a correction, at `corrects`, leaves them
 * as they are) and `RestartingJobSet` True.
 */
export function recordRestart(
  pass: Pass,
  result: Extract<FailurePolicyResult, { kind: 'Restart' }>,
  counters: { readonly restarts: number; readonly restartsCountTowardsMax: number },
  corrects?: number,
): void {
  const failedJob = evidenceOf(result.failedJob);
  record(pass, {
    type: 'JobSetRestarted',
    at: pass.now,
    action: result.action,
    rule: result.rule,
    failedJob,
    ...counters,
    condition: { type: CONDITION_TYPES.restartingJobSet, status: 'True', reason: result.reason, message: result.message },
    tippedBy: failedJob.observedAt,
    ...(corrects === undefined ? {} : { corrects }),
  });
}

/**
 * Records `JobSetCompleted` (correcting the `JobSetFailed` at `corrects`, when given) and turns an
 * existing `RestartingJobSet` False / JobSetCompleted.
 */
export function applySuccess(pass: Pass, spec: DefaultedJobSetSpec, success: SuccessPolicyResult, corrects?: number): void {
  // A fold, not Math.max(...): a spread of many thousands of Jobs overflows the call stack.
  const tippedBy = success.counted.reduce((latest, job) => Math.max(latest, job.observedAt), 0);
  const message = MESSAGES.allJobsCompleted;
  record(pass, {
    type: 'JobSetCompleted',
    at: pass.now,
    operator: spec.successPolicy.operator,
    targetReplicatedJobs: spec.successPolicy.targetReplicatedJobs,
    succeededJobs: success.counted.map((job) => job.name),
    required: success.required,
    condition: { type: CONDITION_TYPES.completed, status: 'True', reason: REASONS.allJobsCompleted, message },
    tippedBy,
    ...(corrects === undefined ? {} : { corrects }),
  });
  const restartingCompleted = {
    type: CONDITION_TYPES.restartingJobSet,
    status: 'False',
    reason: REASONS.restartingJobSetCompleted,
    message,
  } as const;
  writeCondition(pass, restartingCompleted, tippedBy);
}

function evidenceOf(job: ChildJobView): FailedJobEvidence {
  return {
    name: job.name,
    replicatedJob: job.replicatedJob,
    reason: job.failure?.reason ?? '',
    message: job.failure?.message ?? '',
    failedAt: job.failure?.lastTransitionTime,
    observedAt: job.observedAt,
  };
}
