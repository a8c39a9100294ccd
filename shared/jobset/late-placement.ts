import { CONDITION_TYPES, JOBFOLD_JOBSET_CONTROLLER_NAME } from './constants.ts';
import { placeOfWrittenSince } from './conditions.ts';
import type { JobSetConditionChanged, JobSetRestarted } from './decision-events.ts';
import { firstSuspensionSeenAt, firstSuspensionVersion, type JobSetState } from './state.ts';
import { placeOfCompletedWalk, suspensionAfterWalk, walkCompletedBySuspension } from './walk-evidence.ts';
import { compareVersions } from '../k8s/object-sequence.ts';
import { compareTimes } from '../k8s/time.ts';

// Where a condition or restart the cluster wrote before what the fold wrote goes among the
// conditions (the fold, holding a newer spec or deciding at a later pass, wrote those first):
// read from the suspension history (suspension-history.ts) and the walk's evidence.

/**
 * Where a restart's `RestartingJobSet`, written first, goes: before `Suspended` when the failure
 * it answers came before the JobSet was first seen suspended, on the cluster's clock (the
 * suspension reached the fold before the failure's evidence; upstream restarted first). Not for a
 * JobSet jobfold runs: the order it wrote them in is its cluster's.
 */
export function placeOfLateRestart(state: JobSetState, event: JobSetRestarted): number | undefined {
  const failedAt = event.failedJob.failedAt;
  const suspendedAt = firstSuspensionSeenAt(state);
  if (failedAt === undefined || suspendedAt === undefined || state.jobSet?.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return undefined;
  const order = compareTimes(failedAt, suspendedAt);
  if (order > 0 || (order === 0 && !failedBeforeSuspension(state, event))) return undefined;
  const suspended = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.suspended);
  return suspended === -1 ? undefined : suspended;
}

/**
 * In the same second, the resourceVersions tell (KEP-5504): the failed Job's snapshot older than
 * the first suspended JobSet observation means the cluster's controller read the failure first and
 * restarted before it wrote `Suspended` (its reconcile runs the failure policy before it suspends).
 */
function failedBeforeSuspension(state: JobSetState, event: JobSetRestarted): boolean {
  const failed = state.children[event.failedJob.name]?.version;
  const suspension = firstSuspensionVersion(state);
  return failed !== undefined && suspension !== undefined && compareVersions(failed, suspension) < 0;
}

/**
 * Where a condition the cluster wrote `since` a late suspended observation goes: before the
 * conditions the fold wrote once it held a spec newer than that observation (the cluster wrote
 * those after it), which the time alone cannot tell in the same second. Undefined when the
 * versions do not say (then the time does).
 */
export function placeOfLateCondition(state: JobSetState, event: JobSetConditionChanged): number | undefined {
  const place = placeBySpecsTaken(state, event);
  const { since } = event;
  const floor = since === undefined ? undefined : afterEarlierRestartOrWalk(state, since);
  const placed = since === undefined || floor === undefined ? place : Math.max(place ?? placeOfWrittenSince(state.conditions, since), floor);
  // On a finished JobSet, what the cluster wrote `since` an instant came before the finish
  // (decide.ts writes it only then), whatever time the fold's pass gave the finish.
  const finish = since === undefined ? -1 : state.conditions.findIndex((c) => c.type === state.terminalState && c.status === 'True');
  return finish === -1 ? placed : Math.min(placed ?? placeOfWrittenSince(state.conditions, since as string), finish);
}

/**
 * A restart whose failure came before `since` on the cluster's clock, or an InOrder walk that
 * completed by then (walk-evidence.ts `walkCompletedBySuspension`): the cluster appended its
 * `RestartingJobSet` or `StartupPolicyCompleted` then, before the condition it wrote `since` (the
 * fold, holding a newer spec or writing at a later pass, may have written it after). Just after
 * the later of those conditions, if any.
 */
function afterEarlierRestartOrWalk(state: JobSetState, since: string): number | undefined {
  const failedAt = state.restartEvidence?.failedAt;
  const order = failedAt === undefined ? 1 : compareTimes(failedAt, since);
  const restarted = order < 0 || (order === 0 && restartFailureOlderThanSuspension(state));
  const after = (type: string) => {
    const index = state.conditions.findIndex((c) => c.type === type);
    return index === -1 ? undefined : index + 1;
  };
  const floors = [
    restarted ? after(CONDITION_TYPES.restartingJobSet) : undefined,
    walkCompletedBySuspension(state, since, state.suspendedBeforeVersion) ? after(CONDITION_TYPES.startupPolicyCompleted) : undefined,
  ].filter((floor) => floor !== undefined);
  return floors.length === 0 ? undefined : Math.max(...floors);
}

/**
 * In the same second, the resourceVersions tell (KEP-5504): a failed Job the last restart was
 * decided on, seen at an older version than the late suspended observation, came first (the
 * cluster's reconcile restarted before it suspended), as `failedBeforeSuspension` reads it for a
 * restart decided after the suspension.
 */
function restartFailureOlderThanSuspension(state: JobSetState): boolean {
  const suspension = state.suspendedBeforeVersion;
  if (suspension === undefined) return false;
  return Object.values(state.restartEvidence?.failed ?? {}).some((job) => job.version !== undefined && compareVersions(job.version, suspension) < 0);
}

function placeBySpecsTaken(state: JobSetState, event: JobSetConditionChanged): number | undefined {
  const { type, status } = event.condition;
  if (type === CONDITION_TYPES.startupPolicyCompleted && status === 'True') return placeOfCompletedWalk(state);
  const walkBegan = type === CONDITION_TYPES.startupPolicyInProgress && status === 'True';
  const version = event.since !== undefined ? state.suspendedBeforeVersion : walkBegan ? state.walkBeganVersion : undefined;
  // A walk that completed by the first suspension began before it too.
  if (version === undefined) return walkBegan ? suspensionAfterWalk(state) : undefined;
  const place = state.specsTaken?.find((taken) => compareVersions(taken.version, version) > 0)?.conditions;
  // A suspension after the walk began goes after the walk's InProgress, wherever the fold wrote it.
  if (event.since === undefined || !walkBeganBefore(state, version)) return place;
  const inProgress = state.conditions.findIndex((c) => c.type === CONDITION_TYPES.startupPolicyInProgress);
  return inProgress === -1 ? place : Math.max(place ?? 0, inProgress + 1);
}

/**
 * Whether the cluster's InOrder walk had begun before the JobSet observation of `version`: a late
 * running observation older than it showed the walk (`walkBeganVersion`), or a child Job seen at an
 * older version (`firstChildVersion`) existed then, and only a walk creates an InOrder JobSet's Jobs, writing
 * `StartupPolicyInProgress` True in the same pass.
 */
function walkBeganBefore(state: JobSetState, version: string): boolean {
  const walk = state.walkBeganVersion;
  if (walk !== undefined && compareVersions(walk, version) < 0) return true;
  const child = state.firstChildVersion;
  return state.jobSet?.spec.startupPolicy.startupPolicyOrder === 'InOrder' && child !== undefined && compareVersions(child, version) < 0;
}
