import type { OwnedJobs } from './child-jobs.ts';
import { CONDITION_TYPES, JOBFOLD_JOBSET_CONTROLLER_NAME } from './constants.ts';
import { findCondition } from './conditions.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';
import { allReplicasStarted, type ReplicatedJobStatus } from './replicated-jobs-status.ts';
import type { JobSetState, StartedJob } from './state.ts';
import { everyReplicaStarted, startedJobs, walkCompletedAt, walkStartedSince } from './walk-evidence.ts';
import { compareVersions } from '../k8s/object-sequence.ts';
import { compareTimes } from '../k8s/time.ts';

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

/**
 * An InOrder walk the cluster began but the fold never saw begin: upstream creates the first
 * replicated job's Jobs (after a restart, recreates them) in a pass where they cannot be ready
 * yet, and writes `StartupPolicyInProgress` True in that pass. So when an unsuspended InOrder
 * JobSet already has Jobs of its current attempt and this attempt's walk wrote no InProgress
 * (their events reached the log before the JobSet's, or before the failure that restarted it),
 * the cluster's walk went through it. A JobSet snapshot stored before `startupWalk` was kept
 * counts any InProgress as this attempt's, as long as it never restarted.
 */
export function walkBegunUnseen(spec: DefaultedJobSetSpec, state: JobSetState, owned: OwnedJobs): boolean {
  if (spec.startupPolicy.startupPolicyOrder !== 'InOrder' || spec.suspend) return false;
  if (owned.active.length + owned.successful.length + owned.failed.length === 0) return false;
  if (state.startupWalk !== undefined) return state.startupWalk !== state.restarts;
  return state.restarts > 0 || findCondition(state.conditions, CONDITION_TYPES.startupPolicyInProgress) === undefined;
}

/**
 * The walk a late JobSet observation revealed (suspension-history.ts `revealedWalk`: the JobSet seen running
 * InOrder on a spec older than every one the fold took, a suspended one among them): upstream's
 * first pass on it wrote `StartupPolicyInProgress` True, and the suspension that followed left the
 * startup conditions alone. When the fold, holding only the later spec, never wrote it, it does
 * now (late-placement.ts places it before what the cluster wrote after), a restart the fold decided since
 * too, or a `StartupPolicyCompleted` it wrote since (every walk begins with InProgress; the caller
 * writes the completion back): the condition, once written, stands through restarts (each walk writes it True again), so
 * the cluster's restart after that walk left it. Not for a JobSet jobfold runs: the order it wrote is its cluster's.
 */
export function walkRevealedUnseen(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  if (spec.startupPolicy.startupPolicyOrder !== 'InOrder' || spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return false;
  if (state.walkBeganVersion === undefined) return false;
  return findCondition(state.conditions, CONDITION_TYPES.startupPolicyInProgress) === undefined;
}

/**
 * A suspended InOrder JobSet's last resumption (the newest resumed observation, late ones
 * included) came after a suspension, and a child Job was seen suspended between that suspension
 * and the next one (by resourceVersion): upstream's pass on the resumed JobSet found that Job not
 * started and began its walk again, writing `StartupPolicyInProgress` True (and
 * `StartupPolicyCompleted` False), unless every Job was seen started after that (the walk
 * completed again). The suspension that followed left the startup conditions alone. The fold,
 * holding a suspended spec when the resumption, or the Job's snapshot, arrived, never walked on
 * it. Not for a JobSet jobfold runs.
 */
export function walkBegunOnLastResumption(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  if (!spec.suspend || spec.startupPolicy.startupPolicyOrder !== 'InOrder' || spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return false;
  const resumed = state.lastResumedVersion;
  const suspensions = state.suspendedVersions ?? [];
  if (resumed === undefined) return false;
  const before = suspensions.findLast((v) => compareVersions(v, resumed) < 0);
  const next = suspensions.find((v) => compareVersions(v, resumed) > 0);
  if (before === undefined || next === undefined) return false;
  const suspendedJob = (state.suspendedChildVersions ?? []).findLast((v) => compareVersions(v, before) > 0 && compareVersions(v, next) < 0);
  return suspendedJob !== undefined && !walkStartedSince(spec, state, suspendedJob);
}

/**
 * A resumed InOrder JobSet whose walk looks incomplete on the Jobs the fold holds, while at the
 * resumption it held (by resourceVersion: the JobSet's and its Jobs' share one etcd, see
 * docs/ordering.md) every replica of the current attempt had been seen started and none seen
 * suspended since the suspension before it: the child views are newer than that spec (a Job the
 * earlier suspension reached, shown suspended only after the resumption). Upstream's pass on the
 * resumed JobSet read the Jobs as they were then, found the walk complete and turned `Suspended`
 * False / ResumeJobs; the walk that began again after it leaves that condition alone. Not for a
 * JobSet jobfold runs: it resumes on the view it holds.
 */
export function walkCompletedAtResumption(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  const resumption = heldResumption(spec, state);
  if (resumption === undefined || resumption.suspendedJob !== undefined) return false;
  const { resumed } = resumption;
  const started = startedJobs(state, state.restarts).filter((s) => s.deletedAt === undefined);
  return everyReplicaStarted(spec, started, (s) => s.firstVersion !== undefined && compareVersions(s.firstVersion, resumed) < 0);
}

/**
 * The other way round: a Job of the resumed InOrder JobSet was shown suspended between the
 * suspension before the resumption the fold holds and that resumption (by resourceVersion), and
 * not every Job was seen started since: upstream's pass on the resumed JobSet found the walk
 * incomplete and left `Suspended` True, where the fold, holding the Jobs' older ready snapshots
 * when the resumption arrived, had turned it False. Not for a JobSet jobfold runs.
 */
export function walkIncompleteAtResumption(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  const suspendedJob = heldResumption(spec, state)?.suspendedJob;
  return suspendedJob !== undefined && !walkStartedSince(spec, state, suspendedJob);
}

/**
 * The same by a deletion: at the resumption the fold holds, every replica of the current attempt
 * had been seen started, but a Job that completed the walk had been deleted before it (on the
 * cluster's clock; a user's deletion, or its TTL's), and none started again under its name before
 * the resumption: upstream's pass on the resumed JobSet found the walk incomplete (the Job created
 * again under that name not started) and left `Suspended` True, where the fold, given the deletion
 * after the resumption and the suspension revealed late, had turned it False on the walk that Job
 * completed. A deletion in the resumption's second leaves it (not ordered). Found by the generated
 * user-delete histories at seed 99 (history-45). Not for a JobSet jobfold runs.
 */
export function walkBrokenAtResumption(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  const resumption = heldResumption(spec, state);
  if (resumption === undefined) return false;
  const resumedAt = state.jobSetTimeline?.find((seen) => seen.version === resumption.resumed)?.at;
  if (resumedAt === undefined) return false;
  const started = startedJobs(state, state.restarts);
  const startedBefore = (s: StartedJob): boolean => s.firstVersion !== undefined && compareVersions(s.firstVersion, resumption.resumed) < 0;
  if (!everyReplicaStarted(spec, started, startedBefore)) return false;
  const there = started.filter((s) => s.deletedAt === undefined || compareTimes(s.deletedAt, resumedAt) >= 0);
  return !everyReplicaStarted(spec, there, startedBefore);
}

/**
 * The same once the evidence shows the current attempt's walk never completed (no instant at which
 * every replica had been seen started and not deleted, walk-evidence.ts `walkCompletedAt`), the
 * resumption the fold holds coming after the failure that began that attempt (strictly, on the
 * cluster's clock): upstream's pass on the resumed JobSet found the walk incomplete and left
 * `Suspended` True, and no pass since found it complete. The fold had turned it False on a walk
 * it saw complete on a view that lacked a deletion (a user's, arriving after: the walk's
 * `StartupPolicyCompleted` is taken back too, `walkNeverCompleted`), or of the attempt before the
 * restart. Found by the generated user-delete histories at seed 21 (history-55). Not for a JobSet
 * jobfold runs.
 */
export function walkNeverCompletedSinceResumption(spec: DefaultedJobSetSpec, state: JobSetState): boolean {
  const resumption = heldResumption(spec, state);
  if (resumption === undefined || state.walkEvidence === undefined) return false;
  const resumedAt = state.jobSetTimeline?.find((seen) => seen.version === resumption.resumed)?.at;
  if (resumedAt === undefined) return false;
  const failedAt = state.restarts === 0 ? undefined : state.restartEvidence?.failedAt;
  if (state.restarts > 0 && (failedAt === undefined || compareTimes(failedAt, resumedAt) >= 0)) return false;
  return walkCompletedAt(spec, state, state.restarts) === undefined;
}

/**
 * The resumption the fold holds (a resumed InOrder spec of a JobSet it does not run, with a
 * suspension before it), and the newest Job snapshot shown suspended between the two, if any.
 */
function heldResumption(spec: DefaultedJobSetSpec, state: JobSetState): { readonly resumed: string; readonly suspendedJob: string | undefined } | undefined {
  if (spec.suspend || spec.startupPolicy.startupPolicyOrder !== 'InOrder' || spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return undefined;
  const resumed = state.jobSetOrder?.version;
  if (resumed === undefined) return undefined;
  const suspension = (state.suspendedVersions ?? []).findLast((v) => compareVersions(v, resumed) < 0);
  if (suspension === undefined) return undefined;
  const suspendedJob = (state.suspendedChildVersions ?? []).findLast((v) => compareVersions(v, suspension) > 0 && compareVersions(v, resumed) < 0);
  return { resumed, suspendedJob };
}
