import { compareTimes } from '../k8s/time.ts';
import { observeChildJob, parseLabelInt } from './child-jobs.ts';
import { findCondition } from './conditions.ts';
import { CONDITION_TYPES, JOBFOLD_JOBSET_CONTROLLER_NAME, LABELS } from './constants.ts';
import type { JobSetRestarted } from './decision-events.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import type { JobObserved } from './events.ts';
import { matchFailurePolicy } from './failure-policy.ts';
import type { Pass } from './pass.ts';
import type { ChildJobView, JobSetState, RestartEvidence } from './state.ts';
import { applyFailure, recordRestart } from './terminal-decisions.ts';

// Issue 21 for JobSets: failures of one attempt that the cluster's JobSet controller read in one
// pass can reach the log on either side of the JobSet's own observation, so the fold restarts the
// JobSet on the first failure it holds while an earlier one (on the cluster's clock) is still on
// its way. Upstream's `findFirstFailedPolicyRuleAndJob` named the Job that failed first among all
// it listed, and the first rule matching any of them. Once the fold holds those failures, the
// restart it logged is corrected to the one the cluster's controller made: same attempt, same
// counters, another rule or first failed Job: a `JobSetOutcomeCorrected` entry taking back the
// restart's `RestartingJobSet`, then the restart the cluster made, to the counters already held.
//
// When the late failures make the policy fail the JobSet instead (a FailJobSet rule ranked before
// the one that restarted it), the cluster never restarted it: the restart is corrected to that
// failure (a `JobSetOutcomeCorrected` taking the restart back, then the `JobSetFailed`), the
// counters and conditions back as they were
// before it, the Jobs the fold's restart created (computed, never sent: jobfold does not run the
// JobSet) out of the view and the late failures back in, as long as nothing says the cluster did
// restart (a Job of the next attempt it reported, or the JobSet reporting more restarts). A
// JobSet jobfold runs is never corrected: its controller is jobfold, which restarted it on what
// it held.

/** At a restart (not a correction): the failed Jobs of the attempt it ends, as the fold holds them. */
export function restartEvidence(state: JobSetState, event: JobSetRestarted, position: number): RestartEvidence {
  const attempt = state.restarts;
  const failed = Object.values(state.children).filter((job) => job.restartAttempt === attempt && job.finished === 'Failed');
  return {
    position,
    at: event.at,
    attempt,
    countedTowardsMax: event.restartsCountTowardsMax > state.restartsCountTowardsMax,
    ...(event.failedJob.failedAt === undefined ? {} : { failedAt: event.failedJob.failedAt }),
    failed: Object.fromEntries(failed.map((job) => [job.name, job])),
  };
}

/**
 * A Failed snapshot of a Job of the attempt the last restart ended, reaching the log after that
 * restart, whose failure happened no later than the restart on the cluster's clock (or has no
 * time, as Go's zero time sorts first): the cluster's controller could have read it when it
 * restarted. It joins the restart's evidence, whatever the view does with the snapshot (a Job of
 * an earlier attempt than the one holding its name is dropped from it).
 */
export function withLateFailure(state: JobSetState, event: JobObserved, position: number): Pick<JobSetState, 'restartEvidence'> | undefined {
  const evidence = state.restartEvidence;
  if (evidence === undefined || state.restarts !== evidence.attempt + 1) return undefined;
  if (parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]) !== evidence.attempt) return undefined;
  const job = observeChildJob(undefined, event.job, position);
  if (job.finished !== 'Failed' || evidence.failed[job.name] !== undefined) return undefined;
  const failedAt = job.failure?.lastTransitionTime;
  if (failedAt !== undefined && !(compareTimes(failedAt, evidence.at) <= 0)) return undefined;
  return { restartEvidence: { ...evidence, failed: { ...evidence.failed, [job.name]: job } } };
}

/**
 * The decision the cluster's controller made on every failure of the attempt it could have read
 * (`restartEvidence`), when it differs from the restart the fold logged and that one's
 * `RestartingJobSet` condition still stands: a correction, then another restart to the same
 * counters, or a failure. True when the JobSet was failed
 * (the pass stops: the attempt the fold began is not the cluster's).
 */
export function correctRestart(pass: Pass, spec: DefaultedJobSetSpec): boolean {
  const { state } = pass;
  const evidence = state.restartEvidence;
  if (evidence === undefined || spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME || state.terminalState !== '') return false;
  if (state.restarts !== evidence.attempt + 1) return false;
  const standing = findCondition(state.conditions, CONDITION_TYPES.restartingJobSet);
  if (standing?.status !== 'True') return false;
  const failed: ChildJobView[] = Object.values(evidence.failed).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (failed.length === 0) return false;
  const countedBefore = state.restartsCountTowardsMax - (evidence.countedTowardsMax ? 1 : 0);
  const result = matchFailurePolicy(spec.failurePolicy, failed, countedBefore);
  const taken = { corrects: evidence.position, retracted: [CONDITION_TYPES.restartingJobSet], retractedMetAt: evidence.failedAt };
  if (result.kind === 'Fail' && !clusterRestarted(state, evidence.attempt)) {
    applyFailure(pass, result, { ...taken, restarts: evidence.attempt, restartsCountTowardsMax: countedBefore });
    return true;
  }
  if (result.kind !== 'Restart' || result.countsTowardsMax !== evidence.countedTowardsMax) return false;
  if (result.reason === standing.reason && result.message === standing.message) return false;
  const counters = { restarts: state.restarts, restartsCountTowardsMax: state.restartsCountTowardsMax };
  recordRestart(pass, result, counters, { ...taken, ...counters });
  return false;
}

/**
 * Evidence that the cluster restarted after `attempt`: a Job of a later attempt it reported
 * (the fold's own creations for a JobSet it does not run are computed, not sent), or the JobSet
 * reporting more restarts.
 */
function clusterRestarted(state: JobSetState, attempt: number): boolean {
  if ((state.clusterRestarts ?? 0) > attempt) return true;
  const later = (job: ChildJobView) => (job.restartAttempt ?? 0) > attempt && job.seenAt !== undefined;
  return Object.values(state.children).some(later) || Object.values(state.laterAttempts ?? {}).length > 0;
}
