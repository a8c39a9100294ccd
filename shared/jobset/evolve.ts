import { observeChildJob, parseLabelInt } from './child-jobs.ts';
import { LABELS } from './constants.ts';
import { updateCondition } from './conditions.ts';
import { defaultJobSet } from './defaulting.ts';
import type { JobObserved, JobSetEvent, JobSetObserved } from './events.ts';
import { comparableVersion, isStaleObservation, type ObjectSequence, type ObservationOrder } from '../k8s/object-sequence.ts';
import { initialState, type ChildJobView, type JobSetState } from './state.ts';
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
      if (isLateChildSnapshot(state, event)) return { ...next, lastObservation: position };
      const version = comparableVersion(event.job.metadata.resourceVersion);
      const child = {
        ...observeChildJob(state.children[name], event.job, position), ...stamp(event.sequence),
        ...(version === undefined ? {} : { version }), ...(event.eventId === undefined ? {} : { eventId: event.eventId }),
      };
      return { ...next, lastObservation: position, children: { ...state.children, [name]: child } };
    }
    case 'JobDeleted': {
      const { [event.name]: gone, ...others } = state.children;
      // The deletion of another object under this name (an earlier restart attempt's Job,
      // arriving after the later one's snapshot) leaves the view's Job where it is.
      const sameObject = gone === undefined || event.uid === undefined || gone.uid === undefined || gone.uid === event.uid;
      const children = sameObject ? others : state.children;
      const uid = event.uid ?? gone?.uid;
      const deletedChildUids = uid === undefined ? state.deletedChildUids : [...(state.deletedChildUids ?? []), uid];
      return { ...next, lastObservation: position, children, ...(deletedChildUids ? { deletedChildUids } : {}) };
    }
    case 'JobSetConditionChanged':
      return { ...next, conditions: updateCondition(state.conditions, event.condition, event.at) };
    case 'JobSetRestarted':
      return {
        ...next,
        restarts: event.restarts,
        restartsCountTowardsMax: event.restartsCountTowardsMax,
        conditions: updateCondition(state.conditions, event.condition, event.at),
      };
    case 'JobSetFailed':
      return {
        ...next,
        terminalState: 'Failed',
        conditions: updateCondition(state.conditions, event.condition, event.at),
      };
    case 'JobSetCompleted':
      return {
        ...next,
        terminalState: 'Completed',
        conditions: updateCondition(state.conditions, event.condition, event.at),
      };
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
  if (isLateJobSetObservation(state, event)) return { ...state, lastObservation: state.position };
  // A different uid is a new object under the same name: start over.
  const base = newObject ? { ...initialState(), position: state.position } : state;
  const validationErrors = validateJobSet(jobSet);
  const sameErrors = JSON.stringify(validationErrors) === JSON.stringify(base.validationErrors);
  // A deletionTimestamp is never taken back: once seen, the JobSet stays marked for deletion.
  const deleting = base.deleting === true || jobSet.metadata.deletionTimestamp !== undefined;
  return {
    ...base,
    ...(deleting ? { deleting } : {}),
    jobSet,
    ...(event.eventId === undefined ? {} : { jobSetEventId: event.eventId }),
    ...(order.version !== undefined || order.sequence !== undefined ? { jobSetOrder: order } : {}),
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
 * A child Job snapshot that changes nothing: one of a Job already seen deleted (it would bring
 * the Job back into the JobSet); one older than the snapshot the view holds of the same Job
 * (by resourceVersion, else by the stamp: shared/k8s/object-sequence.ts); or one of an earlier
 * restart attempt than the Job the view holds under that name (a restart recreates the Job
 * under the same name, so the later attempt is the newer object).
 */
export function isLateChildSnapshot(state: JobSetState, event: JobObserved): boolean {
  const uid = event.job.metadata.uid;
  if (uid !== undefined && state.deletedChildUids?.includes(uid)) return true;
  const known = state.children[event.job.metadata.name];
  if (known === undefined) return false;
  const attempt = parseLabelInt(event.job.metadata.labels?.[LABELS.restartAttempt]);
  const sameJob = known.uid !== undefined && uid !== undefined ? known.uid === uid : known.restartAttempt === attempt;
  if (sameJob) return isStaleObservation(childOrder(known), observationOrder(event.job.metadata.resourceVersion, event.sequence));
  return attempt !== undefined && known.restartAttempt !== undefined && attempt < known.restartAttempt;
}

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
