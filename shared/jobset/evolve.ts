import { observeChildJob, parseLabelInt } from './child-jobs.ts';
import { CONDITION_TYPES, JOBFOLD_JOBSET_CONTROLLER_NAME, LABELS } from './constants.ts';
import { moveConditionBefore, placeOfWrittenSince, updateCondition } from './conditions.ts';
import { defaultJobSet } from './defaulting.ts';
import type { JobSetConditionChanged, JobSetOutcomeCorrected, JobSetRestarted } from './decision-events.ts';
import type { JobObserved, JobSetEvent, JobSetObserved } from './events.ts';
import { comparableVersion, compareVersions, isStaleObservation, type ObjectSequence, type ObservationOrder } from '../k8s/object-sequence.ts';
import { compareTimes } from '../k8s/time.ts';
import { restartEvidence, withLateFailure } from './late-failures.ts';
import { firstSuspensionSeenAt, firstSuspensionVersion, initialState, type ChildJobView, type JobSetState, type SpecTaken } from './state.ts';
import { noteWalkEvidence, placeOfCompletedWalk, suspensionAfterWalk, walkCompletedBySuspension } from './walk-evidence.ts';
import { validateJobSet } from './validation.ts';

/**
 * The JobSet fold: applies one event (observation or decision) to the state. Pure and total:
 * an event about an unknown child Job is applied as far as it makes sense and never throws.
 */
export function evolve(state: JobSetState, event: JobSetEvent): JobSetState {
  const position = state.position + 1;
  const next: JobSetState = { ...state, position };
  switch (event.type) {
    case 'JobSetObserved':
      return observeJobSet(next, event);
    case 'JobSetDeleted':
      return { ...next, deleted: true, lastObservation: position };
    case 'Tick':
      return { ...next, lastObservation: position };
    case 'JobObserved': {
      const name = event.job.metadata.name;
      const version = comparableVersion(event.job.metadata.resourceVersion);
      const first = state.firstChildVersion;
      const firstChildVersion = version !== undefined && (first === undefined || compareVersions(version, first) < 0) ? version : first;
      const noted: JobSetState = {
        ...next, ...withLateFailure(state, event, position), ...noteWalkEvidence(state, event), ...(firstChildVersion === undefined ? {} : { firstChildVersion }),
        ...noteSuspendedChild(state, event, version),
      };
      if (isLateChildSnapshot(state, event)) return { ...noted, lastObservation: position };
      const ahead = isOfLaterAttempt(state, event);
      const child = {
        ...observeChildJob(knownChild(state, event), event.job, position), ...stamp(event.sequence),
        ...(version === undefined ? {} : { version }), ...(event.eventId === undefined ? {} : { eventId: event.eventId }),
        seenAt: event.at,
        seenSuspended: event.job.spec?.suspend === true,
      };
      const uid = event.job.metadata.uid;
      const view = uid !== undefined && state.deletedChildUids?.includes(uid) ? goneJob(child) : child;
      if (ahead) return { ...noted, lastObservation: position, laterAttempts: { ...state.laterAttempts, [heldKey(view)]: view } };
      return { ...noted, lastObservation: position, children: { ...state.children, [name]: view } };
    }
    case 'JobDeleted': {
      const held = Object.values(state.laterAttempts ?? {}).find((job) => job.name === event.name && job.uid !== undefined && job.uid === event.uid);
      if (held !== undefined && event.uid !== undefined) {
        // A held Job's failure still decides its attempt's restart, once the fold reaches it.
        const { [heldKey(held)]: _gone, ...others } = state.laterAttempts ?? {};
        const laterAttempts = held.finished === 'Failed' ? { ...others, [heldKey(held)]: goneJob(held) } : others;
        const deletedChildUids = [...(state.deletedChildUids ?? []), event.uid];
        return { ...next, lastObservation: position, laterAttempts, deletedChildUids };
      }
      const { [event.name]: gone, ...others } = state.children;
      // The deletion of another object under this name (an earlier restart attempt's Job,
      // arriving after the later one's snapshot) leaves the view's Job where it is.
      const sameObject = gone === undefined || event.uid === undefined || gone.uid === undefined || gone.uid === event.uid;
      const children = sameObject ? others : state.children;
      const uid = event.uid ?? gone?.uid;
      const deletedChildUids = uid === undefined ? state.deletedChildUids : [...(state.deletedChildUids ?? []), uid];
      return { ...next, lastObservation: position, children, ...(deletedChildUids ? { deletedChildUids } : {}) };
    }
    case 'JobSetConditionChanged': {
      if (event.movedBefore !== undefined) return { ...next, conditions: moveConditionBefore(state.conditions, event.condition.type, event.movedBefore) };
      const conditions = updateCondition(state.conditions, event.condition, event.at, event.since, placeOfLateCondition(state, event));
      const { type, status } = event.condition;
      const walk = type === CONDITION_TYPES.startupPolicyInProgress && status === 'True' ? { startupWalk: state.restarts } : {};
      return { ...next, conditions, ...walk };
    }
    case 'JobSetRestarted':
      // A restart to the counters the JobSet holds already renames the restart that stands, after
      // the correction taking back its naming (late-failures.ts): the condition only, updated in
      // place. Logs written before fold .10 say so with `corrects` instead.
      if (event.corrects !== undefined || event.restarts === state.restarts) return { ...next, conditions: updateCondition(state.conditions, event.condition, event.at) };
      return {
        ...next,
        restartEvidence: restartEvidence(state, event, position),
        ...joinLaterAttempts(state, event.restarts),
        restarts: event.restarts,
        restartsCountTowardsMax: event.restartsCountTowardsMax,
        conditions: updateCondition(state.conditions, event.condition, event.at, undefined, placeOfLateRestart(state, event)),
      };
    case 'JobSetFailed': {
      // Logs written before fold .10: a failure that `corrects` a restart takes it back itself.
      const base = event.corrects === undefined ? next : restartTakenBack(next);
      return {
        ...base,
        failedDecision: position,
        ...(event.failedJob.failedAt === undefined ? {} : { failedDecisionMetAt: event.failedJob.failedAt }),
        terminalState: 'Failed',
        conditions: updateCondition(base.conditions, event.condition, event.at),
      };
    }
    case 'JobSetCompleted': {
      // Logs written before fold .10: a completion that `corrects` the failure takes it back itself.
      const base = event.corrects === undefined ? next : failureTakenBack(next);
      return { ...base, terminalState: 'Completed', conditions: updateCondition(base.conditions, event.condition, event.at) };
    }
    case 'JobSetOutcomeCorrected':
      return correctionTakenBack(next, event);
    case 'JobSetRejected':
      return { ...next, rejectionRecorded: true };
    case 'CreateJobIssued': {
      // What the API server holds right after the create: the new Job with an empty status.
      const child: ChildJobView = {
        name: event.name,
        uid: undefined,
        replicatedJob: event.replicatedJob,
        jobIndex: event.jobIndex,
        restartAttempt: event.restartAttempt,
        parallelism: event.parallelism,
        completions: event.completions,
        suspend: event.suspend,
        active: 0,
        ready: 0,
        succeeded: 0,
        failed: 0,
        finished: undefined,
        failure: undefined,
        terminating: false,
        observedAt: position,
      };
      return { ...next, children: { ...state.children, [event.name]: child } };
    }
    case 'DeleteJobIssued':
      return withChild(next, event.name, (child) => ({ ...child, terminating: true, observedAt: position }));
    case 'SuspendJobIssued':
      return withChild(next, event.name, (child) => ({ ...child, suspend: true, observedAt: position }));
    case 'ResumeJobIssued':
      return withChild(next, event.name, (child) => ({ ...child, suspend: false, observedAt: position }));
    case 'JobSetDeletionRequested':
      return { ...next, deleting: true };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * A correction (shared/decide/outcome-correction.ts) takes back what the decision it corrects
 * did, before the decision that replaces it: a restart whose counters it leaves lower, which the
 * cluster never made (`restartTakenBack`); a failure whose `Failed` it retracts
 * (`failureTakenBack`). A restart only renamed keeps its `RestartingJobSet` in place, for the
 * restart that follows to update.
 */
function correctionTakenBack(state: JobSetState, event: JobSetOutcomeCorrected): JobSetState {
  const restart = event.restarts < state.restarts ? restartTakenBack(state) : state;
  const failure = event.retracted.some((c) => c.type === CONDITION_TYPES.failed) ? failureTakenBack(restart) : restart;
  // A suspension the cluster's finished JobSet never took (terminal-decisions.ts
  // `retractLateSuspension`): its condition goes, and the Jobs the fold suspended for it (no
  // snapshot showed them suspended) are back as the cluster has them.
  if (!event.retracted.some((c) => c.type === CONDITION_TYPES.suspended)) return failure;
  const children = Object.fromEntries(Object.entries(failure.children).map(([name, job]) => [name, job.suspend && job.seenSuspended !== true ? { ...job, suspend: false } : job]));
  return { ...failure, children, conditions: failure.conditions.filter((c) => c.type !== CONDITION_TYPES.suspended) };
}

/** A failure the cluster never decided (decide.ts `completedBeforeFailure`): its `Failed` condition goes. */
function failureTakenBack(state: JobSetState): JobSetState {
  const { failedDecision: _taken, failedDecisionMetAt: _at, ...rest } = state;
  return { ...rest, conditions: state.conditions.filter((c) => c.type !== CONDITION_TYPES.failed) };
}

/**
 * A failure correcting the last restart (late-failures.ts): the cluster never made it. The
 * counters go back to what they were before it, and the `RestartingJobSet` it turned True goes
 * with it: removed when that restart wrote it first, else left for the failure to turn False.
 * The Jobs the restart created in the view (never reported by the cluster) leave it, and the
 * attempt's failed Jobs come back where a created one had taken their name.
 */
function restartTakenBack(state: JobSetState): JobSetState {
  const evidence = state.restartEvidence;
  if (evidence === undefined) return state;
  const { restartEvidence: _taken, ...rest } = state;
  const conditions = evidence.attempt === 0 ? state.conditions.filter((c) => c.type !== CONDITION_TYPES.restartingJobSet) : state.conditions;
  const kept = Object.entries(state.children).filter(([, job]) => !((job.restartAttempt ?? 0) > evidence.attempt && job.seenAt === undefined));
  const children = { ...Object.fromEntries(Object.entries(evidence.failed).filter(([name]) => !kept.some(([k]) => k === name))), ...Object.fromEntries(kept) };
  return {
    ...rest,
    children,
    restarts: evidence.attempt,
    restartsCountTowardsMax: state.restartsCountTowardsMax - (evidence.countedTowardsMax ? 1 : 0),
    conditions,
  };
}

/** Folds a list of events from the initial state. */
export function fold(events: Iterable<JobSetEvent>, from: JobSetState = initialState()): JobSetState {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
}

function observeJobSet(state: JobSetState, event: JobSetObserved): JobSetState {
  const jobSet = defaultJobSet(event.jobSet);
  const newObject = isNewJobSet(state, event);
  const order = observationOrder(jobSet.metadata.resourceVersion, event.sequence);
  const earliest = { ...(earlierSuspension(state, event) ? { earliestSuspensionAt: event.at } : {}), ...noteSuspendVersion(state, event), ...noteJobSetTimeline(state, event) };
  if (isLateJobSetObservation(state, event)) {
    const suspendedBefore = revealedSuspension(state, event);
    const walkBeganVersion = revealedWalk(state, event);
    if (walkBeganVersion !== undefined) return { ...state, ...earliest, walkBeganVersion, lastObservation: state.position };
    const resumption = revealedResumption(state, event);
    if (resumption !== undefined) return { ...state, ...earliest, specsTaken: resumption, lastObservation: state.position };
    if (suspendedBefore === undefined) return { ...state, ...earliest, lastObservation: state.position };
    const version = comparableVersion(event.jobSet.metadata.resourceVersion);
    return { ...state, ...earliest, suspendedBefore, ...(version === undefined ? {} : { suspendedBeforeVersion: version }), lastObservation: state.position };
  }
  // A different uid is a new object under the same name: start over.
  const base = newObject ? { ...initialState(), position: state.position } : state;
  const validationErrors = validateJobSet(jobSet);
  const sameErrors = JSON.stringify(validationErrors) === JSON.stringify(base.validationErrors);
  // A deletionTimestamp is never taken back: once seen, the JobSet stays marked for deletion.
  const deleting = base.deleting === true || jobSet.metadata.deletionTimestamp !== undefined;
  return {
    ...base,
    ...releaseReportedAttempts(base, event.jobSet.status?.restarts),
    ...(deleting ? { deleting } : {}),
    jobSet,
    ...(event.eventId === undefined ? {} : { jobSetEventId: event.eventId }),
    ...(order.version !== undefined || order.sequence !== undefined ? { jobSetOrder: order } : {}),
    jobSetSeenAt: event.at,
    ...(newObject ? { ...(jobSet.spec.suspend ? { earliestSuspensionAt: event.at } : {}), ...noteSuspendVersion(base, event), ...noteJobSetTimeline(base, event) } : earliest),
    ...specTaken(base, jobSet.spec.suspend, order.version, event.at),
    lastObservation: state.position,
    validationErrors,
    rejectionRecorded: sameErrors && base.rejectionRecorded,
  };
}

/**
 * A late JobSet observation showing it resumed between a suspended spec the fold took and the
 * next suspended one (or the one it holds), by resourceVersion: the cluster ran it then, which the
 * fold, holding the newer spec, never saw (a finish in between was reached running: decide.ts
 * `resumedBeforeFinish`). `specsTaken` with it in its place (the conditions that stood when the
 * next spec was taken, as the fold wrote none on it), else undefined.
 */
export function revealedResumption(state: JobSetState, event: JobSetObserved): readonly SpecTaken[] | undefined {
  const version = comparableVersion(event.jobSet.metadata.resourceVersion);
  const taken = state.specsTaken ?? [];
  if (version === undefined || event.jobSet.spec.suspend === true) return undefined;
  const next = taken.findIndex((spec) => compareVersions(spec.version, version) > 0);
  const at = next === -1 ? taken.length : next;
  if (at === 0 || taken[at - 1]?.suspend !== true || (next !== -1 && taken[next]?.suspend !== true)) return undefined;
  const conditions = next === -1 ? state.conditions.length : (taken[next] as SpecTaken).conditions;
  return [...taken.slice(0, at), { version, suspend: false, conditions, at: event.at }, ...taken.slice(at)];
}

/**
 * What a JobSet observation adds to `suspendedVersions` (a suspended one not noted yet) or
 * `lastResumedVersion` (a resumed one newer than it), late ones too, with what can no longer
 * answer dropped (`suspensionFloor`).
 */
export function noteSuspendVersion(
  state: JobSetState,
  event: JobSetObserved,
): Pick<JobSetState, 'suspendedVersions' | 'lastResumedVersion' | 'suspendedChildVersions'> | undefined {
  const version = comparableVersion(event.jobSet.metadata.resourceVersion);
  if (version === undefined) return undefined;
  const known = state.suspendedVersions ?? [];
  const last = state.lastResumedVersion;
  if (event.jobSet.spec.suspend !== true) {
    return last === undefined || compareVersions(version, last) > 0 ? withoutAnswered(known, version, state.suspendedChildVersions) : undefined;
  }
  const floor = suspensionFloor(known, last);
  if (known.includes(version) || (floor !== undefined && compareVersions(version, floor) < 0)) return undefined;
  return withoutAnswered([...known, version].sort(compareVersions), last, state.suspendedChildVersions);
}

/**
 * The newest suspended version below the last resumption. `walkBegunOnLastResumption` asks for
 * the suspensions either side of the last resumption and a child Job seen suspended between
 * them; the last resumption only moves up, so this floor only moves up: no suspension older than
 * it, nor any child version at or below it, can be one of those again (whatever arrives late),
 * and they go. What stays is the versions since the last resumption's suspension before it.
 */
function suspensionFloor(suspended: readonly string[], resumed: string | undefined): string | undefined {
  return resumed === undefined ? undefined : suspended.findLast((v) => compareVersions(v, resumed) < 0);
}

function withoutAnswered(
  suspended: readonly string[],
  resumed: string | undefined,
  children: readonly string[] | undefined,
): Pick<JobSetState, 'suspendedVersions' | 'lastResumedVersion' | 'suspendedChildVersions'> {
  const floor = suspensionFloor(suspended, resumed);
  const kept = floor === undefined ? suspended : suspended.filter((v) => compareVersions(v, floor) >= 0);
  return {
    ...(kept.length === 0 ? {} : { suspendedVersions: kept }),
    ...(resumed === undefined ? {} : { lastResumedVersion: resumed }),
    ...(children === undefined || floor === undefined ? {} : { suspendedChildVersions: children.filter((v) => compareVersions(v, floor) > 0) }),
  };
}

/**
 * `jobSetTimeline` with the observation in its place by resourceVersion; undefined when it holds
 * it already. Every observation is kept up to `TIMELINE_ENTRIES` (one inside a run of equal
 * `suspend` becomes a run's end when an older opposite one arrives late); past that, entries
 * between two of their own `suspend` go (the run's first and last tell when it began and ended),
 * so a long-lived JobSet's state stays small at the cost of that precision.
 */
export function noteJobSetTimeline(state: JobSetState, event: JobSetObserved): Pick<JobSetState, 'jobSetTimeline'> | undefined {
  const version = comparableVersion(event.jobSet.metadata.resourceVersion);
  const known = state.jobSetTimeline ?? [];
  if (version === undefined || known.some((seen) => seen.version === version)) return undefined;
  const merged = [...known, { version, suspend: event.jobSet.spec.suspend === true, at: event.at }].sort((a, b) => compareVersions(a.version, b.version));
  if (merged.length <= TIMELINE_ENTRIES) return { jobSetTimeline: merged };
  const inside = (i: number) => merged[i - 1]?.suspend === merged[i]?.suspend && merged[i + 1]?.suspend === merged[i]?.suspend;
  const kept = merged.filter((_, i) => i === 0 || i === merged.length - 1 || !inside(i));
  return kept.length === known.length && kept.every((seen, i) => seen === known[i]) ? undefined : { jobSetTimeline: kept };
}

/** How many JobSet observations `jobSetTimeline` keeps before it keeps only each run's ends. */
const TIMELINE_ENTRIES = 64;

/**
 * `suspendedChildVersions` with the version of a child Job snapshot showing it suspended, for an
 * InOrder JobSet jobfold does not run (or one not seen yet): a resumption after it found the Job
 * not started, and its walk began again.
 */
export function noteSuspendedChild(state: JobSetState, event: JobObserved, version: string | undefined): Pick<JobSetState, 'suspendedChildVersions'> | undefined {
  const spec = state.jobSet?.spec;
  if (version === undefined || event.job.spec?.suspend !== true) return undefined;
  if (spec !== undefined && (spec.startupPolicy.startupPolicyOrder !== 'InOrder' || spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME)) return undefined;
  const known = state.suspendedChildVersions ?? [];
  const floor = suspensionFloor(state.suspendedVersions ?? [], state.lastResumedVersion);
  if (known.includes(version) || (floor !== undefined && compareVersions(version, floor) <= 0)) return undefined;
  return { suspendedChildVersions: [...known, version].sort(compareVersions) };
}

/** `specsTaken` with the spec now taken, when its `suspend` differs from the last one's. */
function specTaken(state: JobSetState, suspend: boolean, version: string | undefined, at: string): Pick<JobSetState, 'specsTaken'> | undefined {
  const taken = state.specsTaken ?? [];
  if (version === undefined || taken.at(-1)?.suspend === suspend) return undefined;
  return { specsTaken: [...taken, { version, suspend, conditions: state.conditions.length, at }] };
}

/**
 * Where a restart's `RestartingJobSet`, written first, goes: before `Suspended` when the failure
 * it answers came before the JobSet was first seen suspended, on the cluster's clock (the
 * suspension reached the fold before the failure's evidence; upstream restarted first). Not for a
 * JobSet jobfold runs: the order it wrote them in is its cluster's.
 */
function placeOfLateRestart(state: JobSetState, event: JobSetRestarted): number | undefined {
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
function placeOfLateCondition(state: JobSetState, event: JobSetConditionChanged): number | undefined {
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
    walkCompletedBySuspension(state, since) ? after(CONDITION_TYPES.startupPolicyCompleted) : undefined,
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

/**
 * A late JobSet observation showing it unsuspended InOrder, older than every spec the fold took:
 * its version, when older than any such the fold noted. Noted whether or not a suspension is known
 * yet: the suspended observation may arrive after it. Upstream's first pass on
 * it created the first replicated job's Jobs and wrote `StartupPolicyInProgress` True, before the
 * suspension (which leaves the startup conditions alone), so that condition goes first.
 */
export function revealedWalk(state: JobSetState, event: JobSetObserved): string | undefined {
  const version = comparableVersion(event.jobSet.metadata.resourceVersion);
  const { spec } = event.jobSet;
  if (version === undefined || spec.suspend === true || spec.startupPolicy?.startupPolicyOrder !== 'InOrder') return undefined;
  const first = state.specsTaken?.[0];
  if (first === undefined || compareVersions(version, first.version) >= 0) return undefined;
  const known = state.walkBeganVersion;
  return known === undefined || compareVersions(version, known) < 0 ? version : undefined;
}

/** A JobSet observation under the name's uid before another: a new object under the same name. */
function isNewJobSet(state: JobSetState, event: JobSetObserved): boolean {
  const previousUid = state.jobSet?.metadata.uid;
  const uid = event.jobSet.metadata.uid;
  return previousUid !== undefined && uid !== undefined && previousUid !== uid;
}

/**
 * An older observation of the JobSet arriving after a newer one (a spec change, a suspend taken
 * back; by resourceVersion, else by the stamp): it says nothing the view does not already hold.
 */
export function isLateJobSetObservation(state: JobSetState, event: JobSetObserved): boolean {
  return !isNewJobSet(state, event) && isStaleObservation(state.jobSetOrder, observationOrder(event.jobSet.metadata.resourceVersion, event.sequence));
}

/**
 * A late JobSet observation showing `spec.suspend` while the spec the fold holds is not
 * suspended, earlier than any such the fold took: its time, which `suspendedBefore` becomes.
 * The cluster reconciled the JobSet suspended then (its controller writes `Suspended` True on
 * every pass of a suspended JobSet), though the fold only ever held the resumed spec.
 */
export function revealedSuspension(state: JobSetState, event: JobSetObserved): string | undefined {
  if (event.jobSet.spec.suspend !== true || state.jobSet?.spec.suspend === true) return undefined;
  const known = state.suspendedBefore;
  return known === undefined || compareTimes(event.at, known) < 0 ? event.at : undefined;
}

/**
 * An observation showing the JobSet suspended earlier than any the fold has seen: the cluster had
 * it suspended by then (terminal-decisions.ts and placeOfLateRestart read when, state.ts
 * `firstSuspensionSeenAt`). The writer logs such a stale observation.
 */
export function earlierSuspension(state: JobSetState, event: JobSetObserved): boolean {
  if (event.jobSet.spec.suspend !== true) return false;
  const known = state.earliestSuspensionAt;
  return known === undefined || compareTimes(event.at, known) < 0;
}

/**
 * A child Job snapshot that changes nothing: one of a Job already seen deleted (it would bring
 * the Job back into the JobSet); one older than the snapshot the view holds of the same Job
 * (by resourceVersion, else by the stamp: shared/k8s/object-sequence.ts); or one of an earlier
 * restart attempt than the Job the view holds under that name (a restart recreates the Job
 * under the same name, so the later attempt is the newer object).
 */
export function isLateChildSnapshot(state: JobSetState, event: JobObserved): boolean {
  const uid = event.job.metadata.uid;
  if (uid !== undefined && state.deletedChildUids?.includes(uid)) return !isFailureOfGoneJob(state, event);
  const known = knownChild(state, event);
  if (known === undefined) return false;
  const attempt = parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]);
  const sameJob = known.uid !== undefined && uid !== undefined ? known.uid === uid : known.restartAttempt === attempt;
  if (sameJob) return isStaleObservation(childOrder(known), observationOrder(event.job.metadata.resourceVersion, event.sequence));
  return attempt !== undefined && known.restartAttempt !== undefined && attempt < known.restartAttempt;
}

/**
 * A snapshot of a child Job created for a restart the fold has not taken yet: its restart-attempt
 * label is above `status.restarts` (upstream stamps a Job with `status.restarts` as of its
 * creation, so the cluster's controller had restarted the JobSet on evidence not yet folded, a
 * failed Job of the attempt before). Upstream never lists such a Job beside a JobSet that has not
 * restarted: its JobSet is read at least as new as the Jobs it creates. The fold holds the
 * snapshot apart (`laterAttempts`) until its own restart reaches the attempt, so the earlier
 * attempt's evidence, arriving after, still decides that restart.
 */
function isOfLaterAttempt(state: JobSetState, event: JobObserved): boolean {
  const attempt = parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]);
  return attempt !== undefined && attempt > Math.max(state.restarts, state.clusterRestarts ?? 0);
}

/**
 * The cluster's JobSet reports `restarts`: the held Jobs of attempts up to it join the view (the
 * newest attempt under each name), as a restart the fold takes later would have joined them. The
 * fold's own `restarts` stays what its evidence decided: without the earlier attempt's failure it
 * decides no restart, but it no longer waits for that failure to count and finish the Jobs the
 * cluster runs now (a JobSet jobfold first saw after it restarted would otherwise stay held for
 * good). Reported when the earlier failure is merely late, this joins the Jobs before that
 * failure arrives, as before the hold existed.
 */
function releaseReportedAttempts(state: JobSetState, reported: number | undefined): Partial<Pick<JobSetState, 'children' | 'laterAttempts' | 'clusterRestarts'>> {
  if (reported === undefined || reported <= (state.clusterRestarts ?? 0)) return {};
  const held = Object.values(state.laterAttempts ?? {});
  const releasing = held
    .filter((job) => (job.restartAttempt ?? 0) <= reported)
    .sort((a, b) => (a.restartAttempt ?? 0) - (b.restartAttempt ?? 0));
  if (releasing.length === 0) return { clusterRestarts: reported };
  return { ...viewJoining(state, releasing, held.filter((job) => (job.restartAttempt ?? 0) > reported)), clusterRestarts: reported };
}

/**
 * At a restart: the Jobs held for the attempt `restarts` reaches join the view, each in place of
 * the earlier attempt's Job under its name (a restart recreates every Job under the same name, so
 * the earlier one is gone from the cluster), and the Jobs kept only for their failure (`gone`)
 * leave it. A held Job whose earlier attempt's failure never arrives stays held: the fold shows
 * the JobSet as of the restarts it has evidence for.
 */
function joinLaterAttempts(state: JobSetState, restarts: number): Partial<Pick<JobSetState, 'children' | 'laterAttempts'>> {
  const held = Object.values(state.laterAttempts ?? {});
  if (held.length === 0) {
    const present = presentChildren(state);
    return present.length < Object.keys(state.children).length ? { children: Object.fromEntries(present) } : {};
  }
  return viewJoining(state, held.filter((job) => job.restartAttempt === restarts), held.filter((job) => (job.restartAttempt ?? 0) > restarts));
}

/** The view with `joining` placed under their names (a later one in the list wins) and the Jobs kept for their failure (`gone`) left out; `stillHeld` stay held. */
function viewJoining(
  state: JobSetState, joining: readonly ChildJobView[], stillHeld: readonly ChildJobView[],
): Pick<JobSetState, 'children' | 'laterAttempts'> {
  return {
    children: { ...Object.fromEntries(presentChildren(state)), ...Object.fromEntries(joining.map((job) => [job.name, job] as const)) },
    laterAttempts: Object.fromEntries(stillHeld.map((job) => [heldKey(job), job])),
  };
}

const presentChildren = (state: JobSetState): [string, ChildJobView][] => Object.entries(state.children).filter(([, job]) => job.gone !== true);

/** Where `laterAttempts` holds a Job: one per name and restart attempt. */
const heldKey = (job: Pick<ChildJobView, 'name' | 'restartAttempt'>): string => `${job.restartAttempt ?? ''}/${job.name}`;

/** The view's Job the snapshot would replace: under its name, or held under its name and attempt. */
function knownChild(state: JobSetState, event: JobObserved): ChildJobView | undefined {
  const name = event.job.metadata.name;
  if (!isOfLaterAttempt(state, event)) return state.children[name];
  return state.laterAttempts?.[heldKey({ name, restartAttempt: parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]) })];
}

/**
 * The Failed snapshot of a current-attempt Job already seen deleted, the view not holding that
 * failure yet: upstream's Job informer delivers a Job's updates in resourceVersion order, so its
 * controller saw the failure before the deletion (which, for a JobSet's own Job, its restart
 * sent). The failure still decides; the Job is not brought back (`gone`: counted nowhere, left
 * out at the next restart).
 */
function isFailureOfGoneJob(state: JobSetState, event: JobObserved): boolean {
  const failed = event.job.status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True') === true;
  const attempt = parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]);
  if (!failed || attempt === undefined || attempt < state.restarts) return false;
  const known = knownChild(state, event);
  return known === undefined || known.restartAttempt === undefined || known.restartAttempt < attempt || known.finished !== 'Failed';
}

const goneJob = (job: ChildJobView): ChildJobView => ({ ...job, terminating: true, gone: true });

/** What orders an observation: its resourceVersion when comparable, and the forwarder's stamp. */
const observationOrder = (resourceVersion: string | undefined, sequence: ObjectSequence | undefined): ObservationOrder => ({
  version: comparableVersion(resourceVersion),
  sequence,
});

const childOrder = (child: ChildJobView): ObservationOrder | undefined =>
  child.version === undefined && child.sequence === undefined ? undefined : { version: child.version, sequence: child.sequence };

const stamp = (sequence: ObjectSequence | undefined) => (sequence === undefined ? {} : { sequence });

function withChild(
  state: JobSetState,
  name: string,
  change: (child: ChildJobView) => ChildJobView,
): JobSetState {
  const child = state.children[name];
  if (child === undefined) return state;
  return { ...state, children: { ...state.children, [name]: change(child) } };
}
