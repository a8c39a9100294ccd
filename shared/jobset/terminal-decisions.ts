import { outcomeCorrected } from '../decide/outcome-correction.ts';
import { compareTimes } from '../k8s/time.ts';
import { findCondition } from './conditions.ts';
import { CONDITION_TYPES, MESSAGES, REASONS } from './constants.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import type { FailedJobEvidence } from './decision-events.ts';
import type { FailurePolicyResult } from './failure-policy.ts';
import { record, writeCondition, type Pass } from './pass.ts';
import { firstSuspensionSeenAt, suspendedAtInstant, type ChildJobView, type JobSetState } from './state.ts';
import type { SuccessPolicyResult } from './success-policy.ts';

/**
 * Records what the failure policy concluded: `JobSetFailed` (with `RestartingJobSet` going
 * False / JobSetFailed, `setJobSetFailedCondition`) or `JobSetRestarted` (the restart counters
 * bumped, `failurePolicyRecreateAll`, and `RestartingJobSet` True). An unsupported action
 * records nothing, as upstream's reconcile errors out. A failure correcting the restart
 * (late-failures.ts) follows the correction that takes that restart back.
 */
export function applyFailure(pass: Pass, result: FailurePolicyResult, correcting?: Correcting): void {
  if (result.kind === 'Unsupported') return;
  const failedJob = evidenceOf(result.failedJob);
  const tippedBy = failedJob.observedAt;
  if (result.kind === 'Fail') {
    const condition = { type: CONDITION_TYPES.failed, status: 'True', reason: result.reason, message: result.message } as const;
    if (correcting !== undefined) recordCorrection(pass, correcting, { ...condition, metAt: failedJob.failedAt, tippedBy });
    record(pass, { type: 'JobSetFailed', at: pass.now, rule: result.rule, failedJob, condition, tippedBy });
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
 * Records `JobSetRestarted` with the counters it leaves and `RestartingJobSet` True. A restart
 * renaming the one it corrects (late-failures.ts) follows the correction and leaves the counters
 * as they are.
 */
export function recordRestart(
  pass: Pass,
  result: Extract<FailurePolicyResult, { kind: 'Restart' }>,
  counters: { readonly restarts: number; readonly restartsCountTowardsMax: number },
  correcting?: Correcting,
): void {
  const failedJob = evidenceOf(result.failedJob);
  const condition = { type: CONDITION_TYPES.restartingJobSet, status: 'True', reason: result.reason, message: result.message } as const;
  const tippedBy = failedJob.observedAt;
  if (correcting !== undefined) recordCorrection(pass, correcting, { ...condition, metAt: failedJob.failedAt, tippedBy });
  record(pass, { type: 'JobSetRestarted', at: pass.now, action: result.action, rule: result.rule, failedJob, ...counters, condition, tippedBy });
}

/**
 * Records `JobSetCompleted` (after the correction taking back the `JobSetFailed`, when
 * correcting one: decide.ts `completedBeforeFailure`) and turns an existing `RestartingJobSet`
 * False / JobSetCompleted.
 */
export function applySuccess(pass: Pass, spec: DefaultedJobSetSpec, success: SuccessPolicyResult, correcting?: Correcting): void {
  // A fold, not Math.max(...): a spread of many thousands of Jobs overflows the call stack.
  const tippedBy = success.counted.reduce((latest, job) => Math.max(latest, job.observedAt), 0);
  const message = MESSAGES.allJobsCompleted;
  if (correcting !== undefined) {
    recordCorrection(pass, correcting, { reason: REASONS.allJobsCompleted, message, metAt: lastFinish(success.counted), tippedBy });
  }
  record(pass, {
    type: 'JobSetCompleted',
    at: pass.now,
    operator: spec.successPolicy.operator,
    targetReplicatedJobs: spec.successPolicy.targetReplicatedJobs,
    succeededJobs: success.counted.map((job) => job.name),
    required: success.required,
    condition: { type: CONDITION_TYPES.completed, status: 'True', reason: REASONS.allJobsCompleted, message },
    tippedBy,
  });
  const restartingCompleted = {
    type: CONDITION_TYPES.restartingJobSet,
    status: 'False',
    reason: REASONS.restartingJobSetCompleted,
    message,
  } as const;
  writeCondition(pass, restartingCompleted, tippedBy);
}

/**
 * A decision the one recorded next takes back, for a JobSet jobfold does not run: its log
 * position, the condition types it wrote that are taken back, when its criterion was met on the
 * cluster's clock, and the restart counters the correction leaves.
 */
export interface Correcting {
  readonly corrects: number;
  readonly retracted: readonly string[];
  readonly retractedMetAt: string | undefined;
  readonly restarts: number;
  readonly restartsCountTowardsMax: number;
}

/**
 * Records `JobSetOutcomeCorrected` (built as a Job's correction is, shared/decide/
 * outcome-correction.ts) before the decision that replaces the one taken back: `instead` is what
 * the cluster's controller decided, when its criterion was met and the observation that tipped it.
 */
function recordCorrection(
  pass: Pass,
  correcting: Correcting,
  instead: { readonly reason: string; readonly message: string; readonly metAt: string | undefined; readonly tippedBy: number },
): void {
  const { corrects, retracted, retractedMetAt, restarts, restartsCountTowardsMax } = correcting;
  const evidence = { tippedBy: instead.tippedBy, ...(instead.metAt === undefined ? {} : { metAt: instead.metAt }) };
  const correction = outcomeCorrected(pass.state.conditions, retracted, { corrects, retractedMetAt }, { reason: instead.reason, message: instead.message, evidence });
  record(pass, { type: 'JobSetOutcomeCorrected', at: pass.now, ...correction, restarts, restartsCountTowardsMax });
}

/** When the last of the counted Jobs finished on the cluster's clock: undefined when one's time is not told. */
function lastFinish(jobs: readonly ChildJobView[]): string | undefined {
  let last: string | undefined;
  for (const job of jobs) {
    if (job.finishedAt === undefined) return undefined;
    if (last === undefined || compareTimes(job.finishedAt, last) > 0) last = job.finishedAt;
  }
  return last;
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

/**
 * A JobSet suspended on a view that lacked the finish that came first on the cluster's clock
 * (`finishedAt`: when the success policy was met, or the failure decided on): upstream's finished
 * JobSet ignores a later suspension, so its controller never wrote `Suspended` (nor a resumption's
 * flip of it). Taken back by a `JobSetOutcomeCorrected` entry, the finish's instant beside it, as a
 * Job's late suspension is (shared/job/suspension-order.ts). Only a suspension first seen after the
 * finish: one seen before it stands. Likewise the suspension standing now, made after the finish,
 * when the JobSet had been suspended and resumed before it (the spec in force at the finish ran)
 * and the resumption turned `Suspended` False (`resumable`: for InOrder, once the walk completed):
 * the cluster's condition at the finish was the resumption's, which decide.ts writes back. The
 * caller (decide.ts lateEvidenceOfFinish) leaves out a JobSet jobfold runs.
 */
export function retractLateSuspension(pass: Pass, finishedAt: string | undefined, resumable: boolean, finishVersion?: string): void {
  const { state } = pass;
  const finish = state.terminalState === '' ? undefined : findCondition(state.conditions, state.terminalState);
  const suspended = findCondition(state.conditions, CONDITION_TYPES.suspended);
  if (suspended === undefined || finish === undefined || finishedAt === undefined) return;
  const suspendedAt = suspensionAfterFinish(state, finishedAt, suspended.status === 'True' && resumable, finishVersion);
  if (suspendedAt === undefined) return;
  const evidence = { tippedBy: pass.start.lastObservation, metAt: finishedAt };
  const correction = outcomeCorrected(state.conditions, [CONDITION_TYPES.suspended], { retractedMetAt: suspendedAt }, { reason: finish.reason, message: finish.message, evidence });
  record(pass, { type: 'JobSetOutcomeCorrected', at: pass.now, ...correction, restarts: state.restarts, restartsCountTowardsMax: state.restartsCountTowardsMax });
}

/**
 * The instant of the suspension the cluster's finished JobSet ignored, made after `finishedAt`
 * or in its second (one second is one pass, and upstream's pass runs the failure and success
 * policies before it enacts a suspension): the first one seen, or the one whose `Suspended` True stands now when the spec in force at the
 * finish ran.
 */
function suspensionAfterFinish(state: JobSetState, finishedAt: string, suspendedNow: boolean, finishVersion: string | undefined): string | undefined {
  const first = firstSuspensionSeenAt(state);
  if (first === undefined) return undefined;
  if (compareTimes(finishedAt, first) <= 0) return first;
  const standing = state.specsTaken?.at(-1);
  if (!suspendedNow) return undefined;
  if (standing?.suspend !== true || standing.at === undefined || compareTimes(finishedAt, standing.at) >= 0) return undefined;
  return suspendedAtInstant(state, finishedAt, finishVersion) === false ? standing.at : undefined;
}
