import { releaseNext, waitForChildJobEvents } from './child-counts.ts';
import { classifyChildJobs, type OwnedJobs } from './child-jobs.ts';
import type { JobSetCommand } from './commands.ts';
import { findCondition, isConditionTrue, type ConditionUpdate, type JobSetCondition } from './conditions.ts';
import { CONDITION_TYPES, JOBFOLD_JOBSET_CONTROLLER_NAME, MESSAGES, REASONS } from './constants.ts';
import type { DefaultedJobSet } from './defaulting.ts';
import type { JobSetDecisionEvent } from './decision-events.ts';
import { matchFailurePolicy } from './failure-policy.ts';
import { matchDependsOn } from './depends-on.ts';
import { correctRestart } from './late-failures.ts';
import { failureVersion, finishedBefore, successBeforeFailure, successJob } from './finish-order.ts';
import { applyTtlAfterFinished, createMissingJobs, deleteJobs, setJobSuspend } from './job-commands.ts';
import { isReconciled } from './managed-by.ts';
import { record, startPass, writeCondition, type Pass } from './pass.ts';
import {
  allJobsReady,
  calculateReplicatedJobStatuses,
  type ReplicatedJobStatus,
} from './replicated-jobs-status.ts';
import { firstSuspensionSeenAt, specTakenBy, suspendedAtInstant, suspendInForceAt, suspensionTimesNoted, type ChildJobView, type JobSetState } from './state.ts';
import { compareTimes } from '../k8s/time.ts';
import { comparableVersion, compareVersions } from '../k8s/object-sequence.ts';
import { matchStartupPolicy, walkBegunOnLastResumption, walkBegunUnseen, walkBrokenAtResumption, walkCompletedAtResumption, walkIncompleteAtResumption, walkNeverCompletedSinceResumption, walkRevealedUnseen } from './startup-policy.ts';
import { matchSuccessPolicy } from './success-policy.ts';
import { completedWalkOutOfPlace, endedWalkCompletedUnseen, walkCompletedBeforeFinish, completedWalkAfterSuspension, walkBeganAfterCompletion, walkCompletedBeforeSuspensionUnseen, walkBeganOutOfPlace, suspensionBeforeWalkOutOfPlace, walkCompletedUnseen, walkCompletedWhileResumed, nextWalkBegunBeforeSuspension, nextWalkCompletedBeforeSuspension, startedEvidenceOf, walkNeverCompleted } from './walk-evidence.ts';
import { applyFailure, applySuccess, retractLateSuspension } from './terminal-decisions.ts';
import { matchTtlAfterFinished } from './ttl-after-finished.ts';
import { awaitedTtlDeletions } from './ttl-deletion-pending.ts';

export interface JobSetDecision {
  readonly events: JobSetDecisionEvent[];
  readonly commands: JobSetCommand[];
  /** When to reconcile again if nothing else happens (the TTL of a finished JobSet). */
  readonly wakeAt: string | undefined;
}

/**
 * One reconcile of the JobSet at `now` (RFC 3339): the decisions it takes and the commands it
 * sends. Nothing is decided before the JobSet is observed, once it is gone, for a spec that
 * failed admission (beyond recording the rejection once), or while a child Job carries no
 * integer restart-attempt label (upstream's reconcile fails on it); once it is being deleted,
 * only what it decided before the mark (`decideBeforeDeletion`, `reconcileBeforeDeletion`).
 */
export function decide(state: JobSetState, now: string): JobSetDecision {
  const jobSet = state.jobSet;
  const pass = startPass(state, now);
  const decision = (): JobSetDecision => {
    // Nothing decided on the view as it stands: the next child Job event kept aside joins it (child-counts.ts).
    const released = pass.events.length === 0 && pass.commands.length === 0 ? releaseNext(state, now) : undefined;
    if (released !== undefined) record(pass, released);
    return { events: pass.events, commands: pass.commands, wakeAt: pass.wakeAt };
  };
  // A JobSet reported gone is decided as one marked for deletion (`decideBeforeDeletion`).
  if (jobSet === undefined || (state.deleted && state.deletedAt === undefined)) return decision();
  if (state.validationErrors.length > 0) {
    if (!state.rejectionRecorded && state.deleting !== true && !state.deleted) {
      const errors = state.validationErrors.map(({ field, type, detail }) => ({ field, type, detail }));
      record(pass, { type: 'JobSetRejected', at: now, errors, tippedBy: state.lastObservation });
    }
    return decision();
  }
  if (!isReconciled(jobSet.spec)) return decision();
  // A JobSet jobfold runs whose view of its Jobs lacks an event sent before one it holds waits for
  // it: nothing is decided (no command, no outcome, no condition) until it arrives or the wait
  // runs out (child-counts.ts). Conditions wait too: written on the view around the hole, they
  // would be a reconcile the cluster's order never had (measured: 449 of 600 managed deliveries
  // as in order with them written, 463 without).
  const waitUntil = waitForChildJobEvents(state, jobSet.spec.managedBy, now);
  if (waitUntil !== undefined) {
    pass.wakeAt = waitUntil;
    return decision();
  }
  const owned = classifyChildJobs(state);
  if (owned === undefined) return decision();
  if (state.deleting === true || state.deleted) {
    if (jobSet.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) decideBeforeDeletion(pass, jobSet, owned);
    else reconcileBeforeDeletion(pass, jobSet, owned);
  } else reconcile(pass, jobSet, owned, calculateReplicatedJobStatuses(jobSet.spec, owned));
  return decision();
}

/**
 * `jobSetMarkedForDeletion`: a JobSet being deleted is not reconciled. What jobfold decided
 * before the mark, for a JobSet it runs, still stands, though, and the Jobs that finished before
 * it (by their condition times) can reach the log after the mark: on those alone, an unfinished
 * JobSet is failed, restarted or completed as it would have been then (steps 6 and 7). Nothing is
 * created, deleted or suspended, and no TTL runs: the cluster is deleting the JobSet and its Jobs.
 * A JobSet reported gone before its mark arrived (its `ttlSecondsAfterFinished` ran out, and the
 * foreground deletion's last event came first) is decided the same way, on the Jobs that finished
 * before it was gone (a later bound than the mark: what finished between the two is counted).
 */
function decideBeforeDeletion(pass: Pass, jobSet: DefaultedJobSet, owned: OwnedJobs): void {
  const before = listedBeforeDeletion(pass, jobSet, owned);
  if (before === undefined || pass.state.terminalState !== '') return;
  decideOutcome(pass, jobSet.spec, before);
}

/**
 * The child Jobs as listed before the deletion mark (`finishedBefore`: the mark's time, and in
 * its second the marked JobSet's resourceVersion), else before the JobSet was reported gone;
 * undefined when neither is known.
 */
function listedBeforeDeletion(pass: Pass, jobSet: DefaultedJobSet, owned: OwnedJobs): OwnedJobs | undefined {
  const { deletionTimestamp, resourceVersion } = jobSet.metadata;
  if (deletionTimestamp !== undefined) return finishedBefore(owned, deletionTimestamp, comparableVersion(resourceVersion));
  return pass.state.deletedAt === undefined ? undefined : finishedBefore(owned, pass.state.deletedAt);
}

/**
 * A JobSet jobfold does not run, being deleted (its `ttlSecondsAfterFinished` ran out, or a
 * user's): upstream no longer reconciles it, but the evidence of what its controller wrote before
 * the mark can still arrive after it, in any order with the mark (a walk begun or completed, a
 * suspension or a resumption, a finish, a success before the failure decided). The fold places it
 * as a running reconcile would, on the Jobs that finished before the mark, up to the outcome
 * (`reconcile`'s `deleting`: the conditions only): no Job is created, deleted or suspended and no
 * TTL runs. A JobSet first seen after its deletion mark or its deletion still had its walk begun
 * by the cluster's first pass, which the Jobs it made show (`walkBegunUnseen`).
 */
function reconcileBeforeDeletion(pass: Pass, jobSet: DefaultedJobSet, owned: OwnedJobs): void {
  const before = listedBeforeDeletion(pass, jobSet, owned) ?? owned;
  reconcile(pass, jobSet, before, calculateReplicatedJobStatuses(jobSet.spec, before), { deleting: true });
}

/**
 * The steps of `JobSetReconciler.reconcile` (pkg/controllers/jobset_controller.go), in its order.
 * Child Jobs were listed and bucketed, and `replicatedJobsStatus` computed from the buckets,
 * before this runs (steps 1 and 2). `deleting` (`reconcileBeforeDeletion`): the conditions and the
 * outcome only, no command, and nothing past step 7.
 */
function reconcile(
  pass: Pass,
  jobSet: DefaultedJobSet,
  owned: OwnedJobs,
  statuses: readonly ReplicatedJobStatus[],
  { deleting = false }: { readonly deleting?: boolean } = {},
): void {
  const { spec } = jobSet;
  const tippedBy = pass.start.lastObservation;
  // 9 as the cluster went through it on the JobSet's first spec, seen only after a later one: its walk began.
  if (walkRevealedUnseen(spec, pass.state)) {
    // Writing InProgress True turns a completed walk's condition False: the walk completed after it began.
    const completed = isConditionTrue(pass.state.conditions, CONDITION_TYPES.startupPolicyCompleted);
    writeCondition(pass, startupInProgress, tippedBy);
    if (completed) writeCondition(pass, startupCompleted, tippedBy);
  }
  // A walk's StartupPolicyCompleted written on a view that lacked a user's deletion: the cluster never wrote it.
  retractWalkNeverCompleted(pass);
  // Conditions the fold wrote before the evidence of the cluster's order arrived, finished or not.
  moveBefore(pass, jobSet, suspensionBeforeWalkOutOfPlace(pass.state), CONDITION_TYPES.startupPolicyCompleted);
  walkBeforeSuspension(pass, jobSet);
  moveBefore(pass, jobSet, walkBeganAfterCompletion(pass.state), CONDITION_TYPES.startupPolicyCompleted);
  moveBefore(pass, jobSet, completedWalkAfterSuspension(pass.state), CONDITION_TYPES.suspended);
  // 3. `jobSetFinished`: a Completed or Failed JobSet only deletes its still-active Jobs, and
  // itself once ttlSecondsAfterFinished has passed.
  const { completed, failed } = CONDITION_TYPES;
  if (isConditionTrue(pass.state.conditions, completed) || isConditionTrue(pass.state.conditions, failed)) {
    completedBeforeFailure(pass, jobSet, owned);
    if (spec.managedBy !== JOBFOLD_JOBSET_CONTROLLER_NAME) lateEvidenceOfFinish(pass, jobSet, owned);
    // The ended attempt's walk, completed before its failure, whose evidence arrived after the JobSet finished.
    moveBefore(pass, jobSet, completedWalkOutOfPlace(pass.state), CONDITION_TYPES.restartingJobSet);
    if (deleting) return;
    deleteJobs(pass, owned.active);
    applyTtlAfterFinished(pass, matchTtlAfterFinished(spec, pass.state.conditions, pass.now));
    return;
  }
  // The restart the cluster's controller made, once the failures it read that reached the log late are here.
  if (correctRestart(pass, spec)) return;
  // 4. Jobs of an earlier restart attempt are deleted (foreground).
  if (!deleting) deleteJobs(pass, owned.previous);
  // 9 as the cluster went through it, before this pass: its walk began with InProgress True.
  if (walkBegunUnseen(spec, pass.state, owned)) writeCondition(pass, startupInProgress, tippedBy);
  // 5. `allJobsReady` ends a restart: RestartingJobSet goes False / JobsReady.
  if (!spec.suspend && allJobsReady(spec, statuses)) {
    writeCondition(pass, restarting(REASONS.restartingJobsReady, MESSAGES.jobsReady), tippedBy);
  }
  // 9 as the cluster went through it, before the failure that arrived first: its walk completed.
  if (owned.failed.length > 0 && walkCompletedUnseen(spec, pass.state)) writeCondition(pass, startupCompleted, tippedBy);
  // ... and the walk of the attempt the last restart ended, before its failure, seen only since.
  if (endedWalkCompletedUnseen(spec, pass.state)) {
    writeCondition(pass, startupCompleted, tippedBy);
    const failedAt = pass.state.restartEvidence?.failedAt;
    if (spec.suspend && failedAt !== undefined && suspendInForceAt(pass.state, failedAt) === false) writeCondition(pass, startupInProgress, tippedBy);
  }
  // 9 as the cluster went through it after the last restart, while the JobSet ran: the next walk began before the suspension the fold holds.
  if (nextWalkBegunBeforeSuspension(spec, pass.state)) writeCondition(pass, startupInProgress, tippedBy);
  // ... and completed before it, its ready snapshots seen since.
  if (nextWalkCompletedBeforeSuspension(spec, pass.state) && !walkBegunOnLastResumption(spec, pass.state)) writeCondition(pass, startupCompleted, tippedBy);
  // 6 and 7: the failure policy, else the success policy; a restarted or finished JobSet stops here.
  if (decideOutcome(pass, spec, owned) || deleting) return;
  // 8. Headless Service, volume claims, elastic scaling: not represented.
  // 9. `reconcileReplicatedJobs`: create missing Jobs as the startup policy releases them and
  // `dependsOn` allows (the two are never combined: admission refuses InOrder with dependsOn).
  const plan = matchStartupPolicy(spec, statuses);
  const dependencies = matchDependsOn(spec, statuses);
  const released = (name: string | undefined): boolean =>
    name !== undefined && plan.release.includes(name) && !dependencies.held.has(name);
  for (const rjob of spec.replicatedJobs) {
    if (released(rjob.name)) createMissingJobs(pass, jobSet, rjob, owned);
  }
  // 9 as the cluster went through it before the first suspension, which the fold saw before the
  // walk's evidence: the walk completed then (the walk in progress now turns it False again).
  if (walkCompletedBeforeSuspensionUnseen(spec, pass.state)) {
    writeCondition(pass, startupInProgress, tippedBy);
    writeCondition(pass, startupCompleted, tippedBy);
  }
  // A Job the cluster showed suspended after the resumed spec the fold holds: its JobSet was
  // suspended since, on a spec still on its way; the walk and the resumption wait for it.
  const suspendedSince = !spec.suspend && owned.active.some((job) => seenSuspendedSince(jobSet, pass.state, job));
  if (!suspendedSince && plan.condition === 'InProgress') writeCondition(pass, startupInProgress, tippedBy);
  if (!suspendedSince && plan.condition === 'Completed') writeCondition(pass, startupCompleted, tippedBy);
  moveBefore(pass, jobSet, suspensionOutOfPlace(pass.state), CONDITION_TYPES.restartingJobSet);
  moveBefore(pass, jobSet, walkBeganOutOfPlace(pass.state), CONDITION_TYPES.restartingJobSet);
  if (suspendedSince) return;
  // 10. `suspendJobs` or `resumeJobsIfNecessary`.
  if (spec.suspend) {
    // ... and on the last resumption, after which a Job was seen suspended: the walk began again.
    if (walkBegunOnLastResumption(spec, pass.state)) writeCondition(pass, startupInProgress, tippedBy);
    for (const job of owned.active) if (!job.suspend && !seenRunningSince(jobSet, pass.state, job)) setJobSuspend(pass, job, true);
    writeCondition(pass, suspendedJobs, tippedBy);
    if (!restartedRunningSince(pass.state)) writeCondition(pass, restarting(REASONS.restartingJobSetSuspended, MESSAGES.suspended), tippedBy);
    return;
  }
  for (const job of owned.active) {
    if (released(job.replicatedJob) && job.suspend) setJobSuspend(pass, job, false);
  }
  restartSuspendedSeenLate(pass, jobSet);
  if (plan.walkComplete || walkCompletedAtResumption(spec, pass.state) || walkCompletedWhileResumed(spec, pass.state)) {
    writeCondition(pass, resumed, tippedBy);
    resumeSeenLate(pass, jobSet, resumed);
  } else {
    // InOrder, mid-walk: upstream leaves Suspended True on a resumption until the walk completes.
    // ... and takes back a False the fold wrote on the Jobs' older view (resumeSeenLate places a first write).
    if (findCondition(pass.state.conditions, CONDITION_TYPES.suspended)?.status === 'False' && (walkIncompleteAtResumption(spec, pass.state) || walkBrokenAtResumption(spec, pass.state) || walkNeverCompletedSinceResumption(spec, pass.state))) writeCondition(pass, suspendedJobs, tippedBy);
    resumeSeenLate(pass, jobSet, suspendedJobs);
  }
  moveBefore(pass, jobSet, completedWalkOutOfPlace(pass.state), CONDITION_TYPES.restartingJobSet);
}

/**
 * An InOrder JobSet jobfold does not run whose `StartupPolicyCompleted` the evidence now shows the
 * cluster never wrote (walk-evidence.ts `walkNeverCompleted`): taken out, and the walk, never
 * completed, is in progress (`StartupPolicyInProgress` True again, where the condition's going
 * True had turned it False).
 */
function retractWalkNeverCompleted(pass: Pass): void {
  const never = walkNeverCompleted(pass.state);
  if (never === undefined) return;
  const { type, status, reason, message } = never.condition;
  const tippedBy = pass.start.lastObservation;
  record(pass, { type: 'JobSetConditionChanged', at: pass.now, condition: { type, status, reason, message }, retracted: { deletedJobs: never.deletedJobs }, tippedBy });
  if (findCondition(pass.state.conditions, CONDITION_TYPES.startupPolicyInProgress) !== undefined) writeCondition(pass, startupInProgress, tippedBy);
}

/**
 * `Suspended`, placed after the first restart's `RestartingJobSet` (late-placement.ts `placeOfLateRestart`
 * put that before the suspension the fold had seen), when an observation that arrived since shows
 * the JobSet suspended before the failure that restart answered: the cluster wrote `Suspended`
 * first. The condition to move before `RestartingJobSet`, if any.
 */
function suspensionOutOfPlace(state: JobSetState): JobSetCondition | undefined {
  const failedAt = state.restartEvidence?.attempt === 0 ? state.restartEvidence.failedAt : undefined;
  const suspendedAt = firstSuspensionSeenAt(state);
  if (failedAt === undefined || suspendedAt === undefined || compareTimes(suspendedAt, failedAt) >= 0) return undefined;
  const suspended = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.suspended);
  const restarting = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.restartingJobSet);
  return suspended > restarting && restarting !== -1 ? state.conditions[suspended] : undefined;
}

/**
 * A finished JobSet jobfold does not run, whose evidence of what came before or after its finish
 * on the cluster's clock arrived after the finish: the walk that completed before it (written
 * before the finish); a suspension after it (taken back: a finished JobSet ignores it); a
 * suspension before it (`Suspended` as the cluster left it at the finish: True, or False /
 * ResumeJobs when the spec the fold holds resumed it before, for InOrder once the walk
 * completed: upstream turns it False only then; written when the fold never wrote it,
 * `suspendedBeforeFinishUnwritten`). The finish's instant (a sort of the successful
 * Jobs) is read only when one of them can apply: this runs at every pass of a finished JobSet.
 */
function lateEvidenceOfFinish(pass: Pass, jobSet: DefaultedJobSet, owned: OwnedJobs): void {
  const { spec } = jobSet;
  const { conditions } = pass.state;
  const walkUnwritten = spec.startupPolicy.startupPolicyOrder === 'InOrder' && !isConditionTrue(conditions, CONDITION_TYPES.startupPolicyCompleted);
  const suspension = pass.state.suspendedBefore !== undefined || firstSuspensionSeenAt(pass.state) !== undefined;
  if (!walkUnwritten && !suspension) return;
  const completedBy = pass.state.terminalState === 'Completed' ? successJob(spec, owned) : undefined;
  const finishedAt = pass.state.terminalState === 'Completed' ? completedBy?.finishedAt : pass.state.failedDecisionMetAt;
  // The snapshot of the finish, which places it among the JobSet's observations of its second.
  const finishVersion = completedBy !== undefined ? completedBy.version : failureVersion(owned, finishedAt);
  if (walkCompletedBeforeFinish(spec, pass.state, finishedAt, finishVersion)) writeCondition(pass, startupCompleted, pass.start.lastObservation);
  // Upstream turns Suspended False on a resumption only once an InOrder walk completed.
  const walked = spec.startupPolicy.startupPolicyOrder !== 'InOrder' || isConditionTrue(pass.state.conditions, CONDITION_TYPES.startupPolicyCompleted);
  retractLateSuspension(pass, finishedAt, walked, finishVersion);
  suspendedBeforeFinishUnwritten(pass, finishedAt, walked, finishVersion);
  // Resumed before the finish, the resumed spec arriving after it (a suspension after the finish,
  // held now, is ignored by the finished JobSet): the cluster wrote ResumeJobs then.
  if (walked && resumedBeforeFinish(pass.state, finishedAt, finishVersion) && isConditionTrue(pass.state.conditions, CONDITION_TYPES.suspended)) {
    writeCondition(pass, resumed, pass.start.lastObservation);
  }
  const suspendedAt = pass.state.suspendedBefore;
  if (suspendedAt === undefined || finishedAt === undefined || compareTimes(suspendedAt, finishedAt) >= 0) return;
  // Resumed before the finish: by the spec held now, or by the one in force then (a later suspension was taken back).
  const inForce = specTakenBy(pass.state, finishedAt);
  const resumedAt = !spec.suspend ? pass.state.jobSetSeenAt : inForce?.suspend === false ? inForce.at : undefined;
  resumeSeenLate(pass, jobSet, resumedAt !== undefined && walked && compareTimes(resumedAt, finishedAt) < 0 ? resumed : suspendedJobs);
}

/**
 * A finished JobSet the cluster showed suspended before its finish (strictly: in its second the
 * finish goes first), with no `Suspended` condition: the fold decided the finish on its first look
 * at a suspended spec (the failure and success policies run before the suspension), or held only
 * specs from after the finish. Upstream wrote `Suspended` True on its first suspended pass, and
 * False / ResumeJobs on a resumption (for InOrder, once the walk completed); written as it stood at
 * the finish, in the place of the first suspension.
 */
function suspendedBeforeFinishUnwritten(pass: Pass, finishedAt: string | undefined, walked: boolean, finishVersion: string | undefined): void {
  const suspendedAt = firstSuspensionSeenAt(pass.state);
  if (finishedAt === undefined || suspendedAt === undefined || compareTimes(suspendedAt, finishedAt) >= 0) return;
  if (findCondition(pass.state.conditions, CONDITION_TYPES.suspended) !== undefined) return;
  const condition = walked && suspendedAtInstant(pass.state, finishedAt, finishVersion) === false ? resumed : suspendedJobs;
  record(pass, { type: 'JobSetConditionChanged', at: pass.now, condition, since: suspendedAt, tippedBy: pass.start.lastObservation });
}

/**
 * Whether the spec in force at the finish, as the taken specs tell, was a resumed one taken after
 * every suspension seen before the finish (late ones included): the JobSet ran when it finished.
 */
function resumedBeforeFinish(state: JobSetState, finishedAt: string | undefined, finishVersion: string | undefined): boolean {
  if (finishedAt === undefined) return false;
  const suspended = suspendInForceAt(state, finishedAt, finishVersion);
  if (suspended !== undefined) return !suspended;
  // (the taken specs below when no observation came before the finish: suspendedAtInstant's order)
  const inForce = specTakenBy(state, finishedAt);
  if (inForce?.suspend !== false || inForce.at === undefined) return false;
  const resumedAt = inForce.at;
  return suspensionTimesNoted(state).every((at) => compareTimes(at, finishedAt) > 0 || compareTimes(at, resumedAt) < 0);
}

/**
 * An InOrder walk that began on a JobSet observation older than the suspension (by
 * resourceVersion: one seen late, `walkBeganVersion`, or the first spec the fold took, running), seen only after the fold had placed the suspension's `Suspended` before the
 * walk's `StartupPolicyInProgress`: the cluster wrote InProgress first (its pass on the running
 * JobSet), so the condition moves before `Suspended`. Not for a JobSet jobfold runs: the order
 * it wrote them in is its cluster's.
 */
function walkBeforeSuspension(pass: Pass, jobSet: DefaultedJobSet): void {
  const { state } = pass;
  const first = state.specsTaken?.[0];
  const walk = state.walkBeganVersion ?? (first !== undefined && !first.suspend ? first.version : undefined);
  const suspension = state.suspendedBeforeVersion ?? state.specsTaken?.find((taken) => taken.suspend)?.version;
  if (walk === undefined || suspension === undefined || jobSet.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return;
  if (compareVersions(walk, suspension) >= 0) return;
  const inProgress = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.startupPolicyInProgress);
  const suspended = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.suspended);
  if (inProgress === -1 || suspended === -1 || inProgress < suspended) return;
  moveBefore(pass, jobSet, state.conditions[inProgress], CONDITION_TYPES.suspended);
}

/** Records `condition`, unchanged, moved to just before the condition of type `before` (the cluster wrote it first). Not for a JobSet jobfold runs. */
function moveBefore(pass: Pass, jobSet: DefaultedJobSet, standing: JobSetCondition | undefined, before: string): void {
  if (standing === undefined || jobSet.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return;
  const { type, status, reason, message } = standing;
  record(pass, { type: 'JobSetConditionChanged', at: pass.now, condition: { type, status, reason, message }, movedBefore: before, tippedBy: pass.start.lastObservation });
}

/**
 * The last restart's `RestartingJobSet` still True on a resumed JobSet that was suspended at or
 * after the restart's failure on the cluster's clock (a suspended spec in force then or taken
 * since, a late one included): the cluster's pass on the suspended JobSet turned it False /
 * JobSetSuspended (in the restart's own pass too: the failure policy runs first), and nothing
 * since changed it (all Jobs ready writes JobsReady at step 5 of this pass). The fold, given the
 * failure after the specs, wrote the restart on the resumed one. Not for a JobSet jobfold runs.
 */
function restartSuspendedSeenLate(pass: Pass, jobSet: DefaultedJobSet): void {
  const failedAt = pass.state.restartEvidence?.failedAt;
  if (failedAt === undefined || jobSet.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return;
  if (!isConditionTrue(pass.state.conditions, CONDITION_TYPES.restartingJobSet) || !suspendedSince(pass.state, failedAt)) return;
  writeCondition(pass, restarting(REASONS.restartingJobSetSuspended, MESSAGES.suspended), pass.start.lastObservation);
}

/**
 * The last restart answered a failure after the suspended spec the fold holds was observed, of
 * Jobs the cluster showed running (not suspended): the cluster had resumed the JobSet by then, on
 * a spec still on its way, and restarted it running, so RestartingJobSet stays True (a later
 * suspension, when it arrives, turns it False / JobSetSuspended).
 */
function restartedRunningSince(state: JobSetState): boolean {
  const evidence = state.restartEvidence;
  const seenAt = state.jobSetSeenAt;
  if (evidence?.failedAt === undefined || seenAt === undefined || compareTimes(evidence.failedAt, seenAt) <= 0) return false;
  const failed = Object.values(evidence.failed);
  return failed.length > 0 && failed.every((job) => job.seenSuspended === false);
}

/** Whether the cluster had the JobSet suspended at or after `at`, as far as its observations tell. */
function suspendedSince(state: JobSetState, at: string): boolean {
  if (specTakenBy(state, at)?.suspend === true) return true;
  const seen = [...suspensionTimesNoted(state), ...(state.jobSetTimeline ?? []).filter((observed) => observed.suspend).map((observed) => observed.at)];
  return seen.some((suspendedAt) => compareTimes(suspendedAt, at) >= 0);
}

/**
 * The JobSet was seen suspended only in an observation that arrived after the resumed one
 * (`suspendedBefore`): its controller wrote `Suspended` True then, and turns it False / ResumeJobs
 * now, in the place it took among the conditions. Not for a JobSet jobfold runs: it never held
 * the suspended spec, so it never suspended it.
 */
function resumeSeenLate(pass: Pass, jobSet: DefaultedJobSet, condition: ConditionUpdate): void {
  const since = pass.state.suspendedBefore;
  if (since === undefined || jobSet.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return;
  if (findCondition(pass.state.conditions, CONDITION_TYPES.suspended) !== undefined) return;
  record(pass, { type: 'JobSetConditionChanged', at: pass.now, condition, since, tippedBy: pass.start.lastObservation });
}

/**
 * A failed JobSet whose success policy was met before its first failure on the cluster's clock,
 * by successes that reached the log after the failure was decided: upstream completed it when
 * that success came, and a finished JobSet ignores later failures. The failure is corrected to
 * the completion: a `JobSetOutcomeCorrected` taking back its `Failed`, then the
 * `JobSetCompleted`. Nothing jobfold sent is taken back: its failure
 * deleted the Jobs that looked active, as the completion would (one whose success was still on
 * its way stays deleted). Not for a JobSet
 * jobfold runs: it failed it on what it held, and that is what its cluster did.
 */
function completedBeforeFailure(pass: Pass, jobSet: DefaultedJobSet, owned: OwnedJobs): void {
  const { failedDecision: corrects, failedDecisionMetAt: retractedMetAt, restarts, restartsCountTowardsMax } = pass.state;
  if (corrects === undefined || jobSet.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME || owned.failed.length === 0) return;
  const earlier = successBeforeFailure(jobSet.spec, owned);
  const correcting = { corrects, retracted: [CONDITION_TYPES.failed], retractedMetAt, restarts, restartsCountTowardsMax };
  if (earlier !== undefined) applySuccess(pass, jobSet.spec, earlier, correcting);
}

/**
 * A Job the cluster showed running after it showed the JobSet suspended (its snapshot's time is
 * later than the suspended observation's): the JobSet's controller had resumed it by then, on a
 * resumed spec still on its way, and the snapshot already shows what came of that. Running means
 * the snapshot showed it so: a Job seen suspended that the fold resumed on an older spec (its
 * computed ResumeJob) was never shown running. Not for a JobSet jobfold runs: its Jobs are
 * suspended by jobfold's own command, which nothing else does.
 */
function seenRunningSince(jobSet: DefaultedJobSet, state: JobSetState, job: ChildJobView): boolean {
  if (jobSet.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME || job.seenSuspended === true) return false;
  const { seenAt } = job;
  const suspendedAt = state.jobSetSeenAt;
  return seenAt !== undefined && suspendedAt !== undefined && compareTimes(seenAt, suspendedAt) > 0;
}

/**
 * An InOrder Job the cluster showed started after the resumed JobSet observation the fold holds,
 * then suspended (by resourceVersion; walkEvidence keeps its newest started one): only its
 * JobSet's controller suspends a running Job, on a suspended spec, so the JobSet was suspended
 * since and that spec is still on its way. Resuming it, or walking again because it no longer looks started, would act on a spec the
 * cluster had left (upstream's pass on the suspended JobSet does neither). A Job the fold suspended
 * itself is no evidence. Not for a JobSet jobfold runs: its Jobs are suspended by its own command.
 */
function seenSuspendedSince(jobSet: DefaultedJobSet, state: JobSetState, job: ChildJobView): boolean {
  if (jobSet.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME || job.seenSuspended !== true) return false;
  const held = state.jobSetOrder?.version;
  const started = startedEvidenceOf(state, job)?.version;
  if (job.version === undefined || held === undefined || started === undefined) return false;
  return compareVersions(held, started) < 0 && compareVersions(started, job.version) < 0;
}

/**
 * 6. Any failed Job: `executeFailurePolicy`, and nothing else this pass. 7. Any succeeded Job:
 * `executeSuccessPolicy`. True when either decided (the pass stops). A success policy met before
 * the first failure on the cluster's clock completes the JobSet, as upstream did when that
 * success came (finish-order.ts); failures and successes of one instant go as in one pass.
 */
function decideOutcome(pass: Pass, spec: DefaultedJobSet['spec'], owned: OwnedJobs): boolean {
  if (owned.failed.length > 0) {
    const earlier = successBeforeFailure(spec, owned);
    if (earlier !== undefined) applySuccess(pass, spec, earlier);
    else applyFailure(pass, matchFailurePolicy(spec.failurePolicy, owned.failed, pass.state.restartsCountTowardsMax));
    return true;
  }
  if (owned.successful.length === 0) return false;
  const success = matchSuccessPolicy(spec, owned.successful);
  // Met only by a Job whose TTL ran out before the last success, its deletion not folded yet: held (the pass stops).
  if (success.met && spec.managedBy !== JOBFOLD_JOBSET_CONTROLLER_NAME && awaitedTtlDeletions(spec, owned.successful).length > 0) return true;
  if (success.met) applySuccess(pass, spec, success);
  return success.met;
}

const restarting = (reason: string, message: string) =>
  ({ type: CONDITION_TYPES.restartingJobSet, status: 'False', reason, message }) as const;

const resumed = { type: CONDITION_TYPES.suspended, status: 'False', reason: REASONS.resumeJobs, message: MESSAGES.resumed } as const;
const suspendedJobs = { type: CONDITION_TYPES.suspended, status: 'True', reason: REASONS.suspendedJobs, message: MESSAGES.suspended } as const;

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
