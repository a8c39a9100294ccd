import { finishCount, holdsAheadOfHole, holdsJobSetAside, nextAside, noteChildCounts, setAside } from './child-counts.ts';
import { listedGoneSuccesses, observeChildJob, parseLabelInt } from './child-jobs.ts';
import { CONDITION_TYPES, JOBFOLD_JOBSET_CONTROLLER_NAME, LABELS } from './constants.ts';
import { compareTimes } from '../k8s/time.ts';
import { moveConditionBefore, updateCondition } from './conditions.ts';
import { defaultJobSet } from './defaulting.ts';
import type { JobSetOutcomeCorrected, JobSetRestarted } from './decision-events.ts';
import type { JobDeleted, JobObserved, JobSetEvent, JobSetObserved } from './events.ts';
import { comparableVersion, compareVersions, isStaleObservation, type ObjectSequence, type ObservationOrder } from '../k8s/object-sequence.ts';
import { restartEvidence, withLateFailure } from './late-failures.ts';
import { initialState, isDeletedChild, type ChildJobView, type JobSetState } from './state.ts';
import { noteWalkEvidence } from './walk-evidence.ts';
import { validateJobSet } from './validation.ts';
import { placeOfLateCondition, placeOfLateRestart } from './late-placement.ts';
import { earlierSuspension, noteJobSetTimeline, noteSuspendedChild, noteSuspendVersion, revealedResumption, revealedSuspension, revealedWalk, specTaken } from './suspension-history.ts';

/**
 * The JobSet fold: applies one event (observation or decision) to the state. Pure and total:
 * an event about an unknown child Job is applied as far as it makes sense and never throws.
 */
export function evolve(state: JobSetState, event: JobSetEvent): JobSetState {
  const position = state.position + 1;
  const next: JobSetState = { ...state, position };
  switch (event.type) {
    case 'JobSetObserved':
      // Arrived while child Job events wait aside: released among them by its time (child-counts.ts).
      if (holdsJobSetAside(state)) return { ...next, ...setAside(state, { position, event }) };
      return observeJobSet(next, event);
    case 'JobSetDeleted':
      return { ...next, deleted: true, ...(state.deleted ? {} : { deletedAt: event.at }), lastObservation: position };
    case 'Tick':
      return { ...next, lastObservation: position };
    case 'JobObserved':
    case 'JobDeleted': {
      const counted: JobSetState = { ...next, ...noteChildCounts(state, event.jobSetSeq, event.at) };
      // Sent after a child Job event the log lacks: kept aside, applied when released (child-counts.ts).
      if (holdsAheadOfHole(state, counted, event)) return { ...counted, ...setAside(state, { position, event }) };
      return observeChild(state, counted, event, position);
    }
    case 'ChildJobEventReleased': {
      const index = nextAside(state);
      const aside = state.aheadOfHole ?? [];
      const first = index === undefined ? undefined : aside[index];
      const rest = aside.filter((_, i) => i !== index);
      const released: JobSetState = { ...next, ...(rest.length > 0 ? { aheadOfHole: rest } : { aheadOfHole: undefined }) };
      if (first === undefined) return released;
      // Applied at the release's position, as the observation it was (tippedBy names it).
      const applied = first.event.type === 'JobSetObserved' ? observeJobSet(released, first.event) : observeChild(released, released, first.event, position);
      return { ...applied, lastObservation: first.position };
    }
    case 'JobSetConditionChanged': {
      if (event.movedBefore !== undefined) return { ...next, conditions: moveConditionBefore(state.conditions, event.condition.type, event.movedBefore) };
      if (event.retracted !== undefined) return { ...next, conditions: state.conditions.filter((c) => c.type !== event.condition.type) };
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
      const made = withoutUnmadeCreates(state, event);
      return {
        ...next,
        restartEvidence: restartEvidence(state, event, position),
        children: made.children,
        ...joinLaterAttempts(made, event.restarts),
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
      return { ...base, children: withoutCreatesOfListedSuccesses(base), terminalState: 'Completed', conditions: updateCondition(base.conditions, event.condition, event.at) };
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
        createdAt: event.at,
        ...(state.jobSetSeenAt === undefined ? {} : { createdOnSpecAt: state.jobSetSeenAt }),
        ...(state.jobSetOrder?.version === undefined ? {} : { createdOnSpecVersion: state.jobSetOrder.version }),
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

/**
 * At a restart of a JobSet jobfold does not run: the Jobs of the attempts it ends that the fold
 * created on a spec the cluster showed only after it showed the failure that restarted it (a
 * suspension folded before that failure: upstream creates every Job of a suspended JobSet) and
 * never saw made (in the failure's second, a spec at a newer resourceVersion than the failure's
 * snapshot: one etcd orders both, docs/ordering.md).
 * The cluster's controller restarted on the failure before that spec existed, so it never made
 * them, and their deletion, never answered, would hold a `BlockingRecreate` restart for good.
 */
function withoutUnmadeCreates(state: JobSetState, event: JobSetRestarted): JobSetState {
  // The failure as the cluster reported it, on the clock that reported the spec (the observations' `at`).
  const failed = state.children[event.failedJob.name];
  const failedAt = failed?.seenAt;
  if (failedAt === undefined || state.jobSet?.spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return state;
  const specAfterFailure = (job: ChildJobView) => {
    const order = job.createdOnSpecAt === undefined ? -1 : compareTimes(job.createdOnSpecAt, failedAt);
    return order > 0 || (order === 0 && job.createdOnSpecVersion !== undefined && failed?.version !== undefined && compareVersions(job.createdOnSpecVersion, failed.version) > 0);
  };
  const unmade = (job: ChildJobView) =>
    job.uid === undefined && job.seenAt === undefined && (job.restartAttempt ?? 0) < event.restarts && specAfterFailure(job);
  const children = Object.entries(state.children).filter(([, job]) => !unmade(job));
  return children.length === Object.keys(state.children).length ? state : { ...state, children: Object.fromEntries(children) };
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
 * A child Job's snapshot or deletion, folded onto `base` (the state with the position and the
 * counts it carries), read against `state` (the state before it).
 */
function observeChild(state: JobSetState, base: JobSetState, event: JobObserved | JobDeleted, position: number): JobSetState {
  return event.type === 'JobObserved' ? observeChildSnapshot(state, base, event, position) : observeChildDeletion(state, base, event, position);
}

function observeChildSnapshot(state: JobSetState, base: JobSetState, event: JobObserved, position: number): JobSetState {
  const name = event.job.metadata.name;
  const version = comparableVersion(event.job.metadata.resourceVersion);
  const first = state.firstChildVersion;
  const firstChildVersion = version !== undefined && (first === undefined || compareVersions(version, first) < 0) ? version : first;
  const noted: JobSetState = {
    ...base, ...withLateFailure(state, event, position), ...noteWalkEvidence(state, event), ...(firstChildVersion === undefined ? {} : { firstChildVersion }),
    ...noteSuspendedChild(state, event, version),
  };
  if (isLateChildSnapshot(state, event)) return { ...noted, lastObservation: position };
  const ahead = isOfLaterAttempt(state, event);
  const previous = knownChild(state, event);
  const observed = observeChildJob(previous, event.job, position);
  const child = {
    ...observed, ...finishCount(previous, observed.finished, event.jobSetSeq), ...stamp(event.sequence),
    ...(version === undefined ? {} : { version }), ...(event.eventId === undefined ? {} : { eventId: event.eventId }),
    seenAt: event.at,
    seenSuspended: event.job.spec?.suspend === true,
  };
  const uid = event.job.metadata.uid;
  const view = isDeletedChild(state, uid) ? goneJob(child) : child;
  if (ahead) return { ...noted, lastObservation: position, laterAttempts: { ...state.laterAttempts, [heldKey(view)]: view } };
  // A deleted Job's completion waits beside the name's create (isSuccessOfGoneJob); a Job seen under the name takes it.
  if (view.gone === true && view.finished === 'Complete') return { ...noted, lastObservation: position, goneSuccesses: { ...state.goneSuccesses, [name]: view } };
  return { ...noted, lastObservation: position, children: { ...state.children, [name]: view }, ...withoutGoneSuccess(state, name) };
}

function observeChildDeletion(state: JobSetState, base: JobSetState, event: JobDeleted, position: number): JobSetState {
  const held = Object.values(state.laterAttempts ?? {}).find((job) => job.name === event.name && job.uid !== undefined && job.uid === event.uid);
  if (held !== undefined && event.uid !== undefined) {
    // A held Job's failure still decides its attempt's restart, once the fold reaches it; its
    // completion still counts for its attempt's success policy (viewJoining: `goneSuccesses`).
    const { [heldKey(held)]: _gone, ...others } = state.laterAttempts ?? {};
    const laterAttempts = held.finished !== undefined ? { ...others, [heldKey(held)]: goneJob(held) } : others;
    return { ...base, lastObservation: position, laterAttempts, ...deletionNoted(state, event.uid, event.at) };
  }
  const { [event.name]: gone, ...others } = state.children;
  // The deletion of another object under this name (an earlier restart attempt's Job,
  // arriving after the later one's snapshot) leaves the view's Job where it is.
  const sameObject = gone === undefined || event.uid === undefined || gone.uid === undefined || gone.uid === event.uid;
  // A completed current-attempt Job stays as gone: the cluster's controller saw it complete
  // before the deletion, so the success policy still counts it (isSuccessOfGoneJob). So does a
  // failed one no restart has ended yet, for the failure policy (isFailureOfGoneJob): the
  // deletion came after the failure (the JobSet seen after both, or its pass on the failure not
  // folded yet).
  const current = sameObject && gone !== undefined && (gone.restartAttempt ?? 0) >= state.restarts;
  const keptComplete = current && gone.finished === 'Complete';
  const keptFailed = current && gone.finished === 'Failed';
  const children = keptFailed ? { ...others, [event.name]: goneJob(gone) } : sameObject ? others : state.children;
  const goneSuccesses = keptComplete ? { goneSuccesses: { ...state.goneSuccesses, [event.name]: goneJob(gone) } } : {};
  const uid = event.uid ?? gone?.uid;
  return { ...base, lastObservation: position, children, ...goneSuccesses, ...deletionNoted(state, uid, event.at) };
}

/**
 * A child Job snapshot that changes nothing: one of a Job already seen deleted (it would bring
 * the Job back into the JobSet); one older than the snapshot the view holds of the same Job
 * (by resourceVersion, else by the stamp: shared/k8s/object-sequence.ts); or one of an earlier
 * restart attempt than the Job the view holds under that name (a restart recreates the Job
 * under the same name, so the later attempt is the newer object), or of another object at an
 * older resourceVersion (`isOfOlderObject`).
 */
export function isLateChildSnapshot(state: JobSetState, event: JobObserved): boolean {
  const uid = event.job.metadata.uid;
  if (isDeletedChild(state, uid)) return !isFailureOfGoneJob(state, event) && !isSuccessOfGoneJob(state, event);
  // A completion kept for a deleted Job (`goneSuccesses`) is newer than any older object under its name.
  const goneSuccess = state.goneSuccesses?.[event.job.metadata.name];
  if (goneSuccess !== undefined && isOfOlderObject(goneSuccess, event)) return true;
  const known = knownChild(state, event);
  if (known === undefined) return false;
  const attempt = parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]);
  const sameJob = known.uid !== undefined && uid !== undefined ? known.uid === uid : known.restartAttempt === attempt;
  if (sameJob) return isStaleObservation(childOrder(known), observationOrder(event.job.metadata.resourceVersion, event.sequence));
  return (attempt !== undefined && known.restartAttempt !== undefined && attempt < known.restartAttempt) || isOfOlderObject(known, event);
}

/**
 * A snapshot of another object under the view's Job's name (a Job a user deleted, the view
 * holding the one created again) at an older resourceVersion (KEP-5504: one order per resource
 * type): a name holds one object at a time, so that object was gone before the view's was shown.
 * The stamp is no help here: it counts one object's observations.
 */
function isOfOlderObject(known: ChildJobView, event: JobObserved): boolean {
  return (otherObjectOrder(known, event) ?? 0) < 0;
}

/**
 * How the snapshot's object stands to the view's Job, another object under the same name: negative
 * when older (its resourceVersion below the view's), positive when newer; undefined when the same
 * object, or when either has no uid or no comparable version.
 */
function otherObjectOrder(known: ChildJobView, event: JobObserved): number | undefined {
  const version = comparableVersion(event.job.metadata.resourceVersion);
  const uid = event.job.metadata.uid;
  if (known.uid === undefined || uid === undefined || known.uid === uid || version === undefined || known.version === undefined) return undefined;
  return compareVersions(version, known.version);
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
function releaseReportedAttempts(state: JobSetState, reported: number | undefined): Partial<Pick<JobSetState, 'children' | 'laterAttempts' | 'goneSuccesses' | 'clusterRestarts'>> {
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
function joinLaterAttempts(state: JobSetState, restarts: number): Partial<Pick<JobSetState, 'children' | 'laterAttempts' | 'goneSuccesses'>> {
  const held = Object.values(state.laterAttempts ?? {});
  if (held.length === 0) {
    const present = presentChildren(state);
    return present.length < Object.keys(state.children).length ? { children: Object.fromEntries(present) } : {};
  }
  return viewJoining(state, held.filter((job) => job.restartAttempt === restarts), held.filter((job) => (job.restartAttempt ?? 0) > restarts));
}

/**
 * The view with `joining` placed under their names (a later one in the list wins) and the Jobs
 * kept for their failure (`gone`) left out; `stillHeld` stay held. A joining Job already deleted
 * after it completed takes its name out of the view and waits beside it (`goneSuccesses`, as a
 * user's deletion of a completed Job of the current attempt): the name was free on the cluster
 * when it was made (a restart recreates every Job under its name), and its completion counts for
 * the success policy for the instants before its deletion.
 */
function viewJoining(
  state: JobSetState, joining: readonly ChildJobView[], stillHeld: readonly ChildJobView[],
): Pick<JobSetState, 'children' | 'laterAttempts' | 'goneSuccesses'> {
  const byName = new Map(joining.map((job) => [job.name, job] as const));
  const goneComplete = [...byName.values()].filter((job) => job.gone === true && job.finished === 'Complete');
  const children = { ...Object.fromEntries(presentChildren(state)), ...Object.fromEntries(byName) };
  for (const job of goneComplete) delete children[job.name];
  return {
    children,
    laterAttempts: Object.fromEntries(stillHeld.map((job) => [heldKey(job), job])),
    ...(goneComplete.length === 0 ? {} : { goneSuccesses: { ...state.goneSuccesses, ...Object.fromEntries(goneComplete.map((job) => [job.name, job] as const)) } }),
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

/**
 * A snapshot showing Complete of a current-attempt Job a user deleted, arriving after the deletion:
 * a deleted object has no snapshot newer than its deletion, so the cluster showed the Job complete
 * before it was gone and the JobSet's controller may have counted it toward the success policy
 * then. It is kept as gone (`goneSuccesses`: counted by the success policy for the instants before
 * its deletion, in no replicatedJobsStatus count) while nothing observed took its name since: a
 * Job observed under that name (the one created again) is newer and stands; one at an older
 * resourceVersion is not (it was gone before this one was made); a Job of an earlier restart
 * attempt is older (a restart recreates every Job under its name, once the earlier one is gone).
 * A create issued for the name and not yet seen stays in the view, expected, as upstream's
 * expectations keep it.
 */
function isSuccessOfGoneJob(state: JobSetState, event: JobObserved): boolean {
  const complete = event.job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') === true;
  const attempt = parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]);
  if (!complete || attempt === undefined || attempt < state.restarts) return false;
  const known = state.children[event.job.metadata.name];
  if (known?.restartAttempt !== undefined && known.restartAttempt < attempt) return true;
  return known === undefined || (known.uid === undefined && known.restartAttempt === attempt && known.finished === undefined) || (otherObjectOrder(known, event) ?? 0) > 0;
}

/**
 * At the JobSet's completion: a create the fold issued for a completed Job a user deleted, and
 * never saw made, when that Job was still listed at the success (child-jobs.ts
 * `listedGoneSuccesses`: deleted after the last finish). The cluster's controller completed the
 * JobSet before the deletion, and a finished JobSet creates nothing: the create was the fold's,
 * on a view that lacked the completion. A snapshot of a Job made under the name brings it back.
 */
function withoutCreatesOfListedSuccesses(state: JobSetState): JobSetState['children'] {
  const listed = listedGoneSuccesses(state, Object.values(state.children).filter((job) => job.finished === 'Complete' && (job.restartAttempt ?? 0) >= state.restarts));
  const unmade = listed.map((job) => state.children[job.name]).filter((job) => job !== undefined && job.uid === undefined && job.seenAt === undefined);
  if (unmade.length === 0) return state.children;
  return Object.fromEntries(Object.entries(state.children).filter(([, job]) => !unmade.includes(job)));
}

/** A Job observed under `name` takes it: a completion kept for a deleted Job of that name no longer counts. */
function withoutGoneSuccess(state: JobSetState, name: string): Pick<JobSetState, 'goneSuccesses'> | undefined {
  if (state.goneSuccesses?.[name] === undefined) return undefined;
  const { [name]: _taken, ...others } = state.goneSuccesses;
  return { goneSuccesses: others };
}

/** A child deletion noted by uid, with when it was reported (the first report stands). */
const deletionNoted = (state: JobSetState, uid: string | undefined, at: string): Pick<JobSetState, 'deletedChildren'> | undefined =>
  uid === undefined || isDeletedChild(state, uid) ? undefined : { deletedChildren: { ...state.deletedChildren, [uid]: at } };

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
