import type { LogEntry, StreamId, SummaryUpdate } from '../log/event-store.ts';
import {
  isDispatched,
  jobSetCommandEvent,
  jobSetConditionEvents,
  type JobSetIdentity,
} from '../contract/outbound.ts';
import type { Decider, DecisionOutbox } from '../decide/decider.ts';
import type { JobSetCommand } from './commands.ts';
import { isJobSetDecisionType, type JobSetDecisionEvent } from './decision-events.ts';
import { jobSetObservationEntry, JobSetObservationSchema, type JobSetEvent, type JobSetObservation } from './events.ts';
import { evolve, isLateChildSnapshot, isLateJobSetObservation } from './evolve.ts';
import { earlierSuspension, noteJobSetTimeline, noteSuspendedChild, noteSuspendVersion, revealedResumption, revealedSuspension, revealedWalk } from './suspension-history.ts';
import { withLateFailure } from './late-failures.ts';
import { childCountsUnlogged } from './child-counts.ts';
import { explainJobSet, type JobSetExplanation } from './explain.ts';
import { jobSetKey } from './pass.ts';
import { settle } from './settle.ts';
import { initialState, isDeletedChild, type JobSetState } from './state.ts';
import { noteWalkEvidence } from './walk-evidence.ts';
import { comparableVersion } from '../k8s/object-sequence.ts';
import { saidBy } from '../k8s/sent-counts.ts';

// The JobSet fold as the write loop's decider (shared/decide/decider.ts): the same loop as
// Jobs, so a JobSet is decided at every position of its log (at the time the log gives, never
// the clock) whatever the batches. One sync settles the JobSet (`settle`: decide until nothing
// changes, as the controller requeues itself); its decisions are logged with ids that name
// the position and their place there. Each decision's own command and condition event travel
// with it in the outbox, so a sync of any size is cut into commit steps at decision bounds.

/** A JobSet observation as the loop logs it: an eventId always (the log entry's). */
export type JobSetLogObservation = JobSetObservation & { readonly eventId: string; readonly seq?: number };
/** A JobSet decision as the loop logs it: the entry's eventId beside the decision. */
export type JobSetLogDecision = JobSetDecisionEvent & { readonly eventId: string; readonly seq?: number };
export type JobSetDecider = Decider<JobSetState, JobSetLogObservation, JobSetLogDecision, JobSetCommand, JobSetExplanation>;

/**
 * The version of the JobSet fold's decisions, recorded with each one (as FOLD_VERSION is with a
 * Job's): bump it when a change to shared/jobset makes it decide differently on some log.
 */
export const JOBSET_FOLD_VERSION = 'jobset-fold-2026-11-29.69';

/** Decision entries per commit step of the reconciler this loop replaced, for reading its cut-short syncs. */
const LEGACY_STEP_ENTRIES = 32;
const SNAPSHOT_EVERY = 50;

export function jobSetDecider(): JobSetDecider {
  return {
    kind: 'JobSet',
    initialState,
    evolve: (state, event) => evolve(state, event),
    decide: (state, at) => {
      const settled = settle(state, at);
      const key = jobSetKey(state);
      const decisions = settled.events.map((event, i): JobSetLogDecision => ({ ...event, eventId: `${key}/${state.position}/${i}` }));
      return { decisions, commands: settled.commands, wakeAt: settled.wakeAt };
    },
    explain: (state, log) => explainJobSet(state, log.flatMap((event) => (isJobSetDecisionType(event.type) ? [{ seq: event.seq ?? 0, event: event as JobSetDecisionEvent }] : []))),
    position: (state) => state.position,
    observedAt: (observation) => observation.at,
    known: knownJobSetObservation,
    content: jobSetObservationContent,
    refuses: (state, observation) => {
      const known = state.jobSet?.metadata;
      if (observation.type !== 'JobSetObserved' || known === undefined || observation.jobSet.metadata.name === known.name) return undefined;
      return `uid ${known.uid ?? ''} is JobSet ${known.namespace ?? ''}/${known.name} in this log; an observation names it ${observation.jobSet.metadata.name}: refused`;
    },
    log: {
      observation: jobSetObservationEntry,
      decision: (decision) => {
        const { seq: _seq, eventId, ...body } = decision;
        return { eventId, type: decision.type, observedAt: decision.at, body };
      },
      event: (entry) => ({ ...jobSetEntryEvent(entry), eventId: entry.eventId, seq: entry.seq }) as JobSetLogObservation | JobSetLogDecision,
      isDecision: (event): event is JobSetLogDecision => isJobSetDecisionType(event.type),
    },
    readRecord: (_state, head, chainHead) => ({ head, ...(chainHead === undefined ? {} : { chainHead }), foldVersion: JOBSET_FOLD_VERSION, gates: {} }),
    restOf: (again, logged) => {
      const loggedIds = new Set(logged.map((event) => event.eventId));
      return again.filter((decision) => !loggedIds.has(decision.eventId));
    },
    restCommands: (again, rest) => {
      const ids = new Set(rest.flatMap((d) => ('commandId' in d ? [d.commandId] : [])));
      return again.commands.filter((c) => ids.has(c.commandId));
    },
    legacyCut,
    // A settle runs to its fixed point: deciding again after one that decided nothing decides nothing.
    owedSync: (last) => (isJobSetDecisionType(last.type) ? undefined : { at: last.observedAt }),
    outbox: (state, { decisions, commands }, _resumed, stream) => {
      const identity = identityOf(state, stream);
      const finished = state.terminalState !== '';
      const managedBy = state.jobSet?.spec.managedBy;
      const byId = new Map(commands.map((command) => [command.commandId, command]));
      const outbox = decisions.map((decision): DecisionOutbox => {
        const command = 'commandId' in decision ? byId.get(decision.commandId) : undefined;
        const sent = command && isDispatched(command, managedBy, finished) ? [jobSetCommandEvent(identity, command)] : [];
        return { inline: [...sent, ...jobSetConditionEvents(identity, [{ eventId: decision.eventId, decision }])], terminations: undefined };
      });
      return { decisions: outbox, published: outbox.flatMap((o) => o.inline) };
    },
    outboxTarget: (state, stream) => ({ job: identityOf(state, stream), managedBy: state.jobSet?.spec.managedBy }),
    snapshot: {
      due: (_state, head, snapshotSeq, every = SNAPSHOT_EVERY) => head - snapshotSeq >= every,
      take: (state) => ({ snapshot: state, archived: [] }),
      // The state is plain JSON; fields added since are optional.
      restore: (stored) => restoredState(stored as StoredJobSetState),
    },
    summary: jobSetSummary,
    name: (state) => state.jobSet?.metadata.name,
    nameInEntry: (entry) => {
      if (entry.type !== 'JobSetObserved') return undefined;
      const name = (entry.body as { jobSet?: { metadata?: { name?: unknown } } } | null)?.jobSet?.metadata?.name;
      return typeof name === 'string' ? name : undefined;
    },
    size: (state) => Object.keys(state.children).length,
  };
}

/** A stored state, as folds before JOBSET_FOLD_VERSION .46 wrote it too. */
type StoredJobSetState = JobSetState & { readonly deletedChildUids?: readonly string[] };

/**
 * A snapshot stored before .46 lists the deleted child Jobs' uids without when: each is taken as
 * deleted after any instant its evidence is weighed at, as those folds weighed it.
 */
function restoredState(stored: StoredJobSetState): JobSetState {
  const { deletedChildUids, ...state } = stored;
  if (deletedChildUids === undefined) return state;
  return { ...state, deletedChildren: { ...Object.fromEntries(deletedChildUids.map((uid) => [uid, DELETED_AT_UNKNOWN])), ...state.deletedChildren } };
}

const DELETED_AT_UNKNOWN = '9999-12-31T23:59:59Z';

/**
 * Why the JobSet fold already holds an observation, or undefined when it is news: the same
 * eventId as the last one folded for its object, a snapshot the fold would pass over (an older
 * one of the JobSet or a child Job, by resourceVersion else the order stamp, or one of an earlier
 * restart attempt: evolve.ts), or the deletion of what is already gone. Judged at the position
 * the observation would take, like a Job's.
 */
export function knownJobSetObservation(state: JobSetState, observation: JobSetLogObservation): string | undefined {
  switch (observation.type) {
    case 'JobSetObserved':
      if (state.jobSetEventId === observation.eventId) return 'same-event';
      // A late observation that shows a suspension the fold never held, earlier than any it saw or not noted yet, the walk begun before one, or a resumption between two or newer than any seen, or one that tells when spec.suspend changed, is news (suspension-history.ts).
      return isLateJobSetObservation(state, observation) && revealedSuspension(state, observation) === undefined && revealedWalk(state, observation) === undefined
        && revealedResumption(state, observation) === undefined && !earlierSuspension(state, observation) && noteSuspendVersion(state, observation) === undefined && noteJobSetTimeline(state, observation) === undefined
        ? 'stale'
        : undefined;
    case 'JobSetDeleted':
      return state.deleted ? 'already-gone' : undefined;
    case 'JobObserved': {
      // Stale or not, its counts are what a JobSet jobfold runs waits for (child-counts.ts).
      if (childCountsUnlogged(state, observation.jobSetSeq)) return undefined;
      // A failure of the attempt the last restart ended, before that restart, is evidence for it (late-failures.ts).
      if (withLateFailure(state, observation, state.position + 1) !== undefined) return undefined;
      const uid = observation.job.metadata.uid;
      if (isDeletedChild(state, uid) && isLateChildSnapshot(state, observation)) return 'already-gone';
      const child = state.children[observation.job.metadata.name];
      if (child?.eventId !== undefined && child.eventId === observation.eventId) return 'same-event';
      // The status the view holds, reported again for counts it has (a Job log's last report, sent
      // again after a cold load, whose first sending rode on a later entry: fed-logs.ts).
      if (child?.eventId !== undefined && saidBy(child.eventId) === saidBy(observation.eventId)) return 'same-event';
      // A stale snapshot that shows an InOrder walk's Job started earlier is evidence for the walk (walk-evidence.ts).
      if (noteWalkEvidence(state, observation) !== undefined) return undefined;
      // ... and one that shows its Job suspended, for the walk a resumption after it began (startup-policy.ts).
      if (noteSuspendedChild(state, observation, comparableVersion(observation.job.metadata.resourceVersion)) !== undefined) return undefined;
      return isLateChildSnapshot(state, observation) ? 'stale' : undefined;
    }
    case 'JobDeleted': {
      if (childCountsUnlogged(state, observation.jobSetSeq)) return undefined;
      const uid = observation.uid;
      if (isDeletedChild(state, uid)) return 'already-gone';
      if (state.children[observation.name] !== undefined) return undefined;
      return uid === undefined ? 'already-gone' : undefined;
    }
    case 'Tick':
      // A timer firing twice is one eventId (`tick/<at>`): the eventId index drops the repeat.
      return undefined;
  }
}

/** What a JobSet observation says, without its eventId and stamps (its time, a child's order stamp). */
export function jobSetObservationContent(observation: JobSetLogObservation): unknown {
  switch (observation.type) {
    case 'JobSetObserved':
      return [observation.type, observation.jobSet];
    case 'JobSetDeleted':
      return [observation.type];
    case 'JobObserved':
      return [observation.type, observation.job];
    case 'JobDeleted':
      return [observation.type, observation.name, observation.uid ?? null];
    case 'Tick':
      return [observation.type];
  }
}

/**
 * Reads a stored JobSet entry back as the fold takes it: observations are parsed again (the
 * table is a boundary too), decisions are our own (what the writer recorded they read is the
 * log's, not the decision's, and is left out).
 */
export function jobSetEntryEvent(entry: LogEntry): JobSetEvent {
  if (isJobSetDecisionType(entry.type)) {
    const { read: _read, ...decision } = entry.body as JobSetDecisionEvent & { read?: unknown };
    return decision as JobSetDecisionEvent;
  }
  const parsed = JobSetObservationSchema.safeParse(entry.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`log entry ${entry.seq} (${entry.type}) is corrupt: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

/**
 * A settle the reconciler before this loop cut short: it logged decisions in steps of 32 with
 * ids `<uid>/<position>/<index>`, so a log that ends after a whole number of such steps, all
 * of one settle, may hold only its start. Decided again at that position, the rest keeps its ids.
 */
function legacyCut(last: LogEntry, head: number, stream: StreamId) {
  if (!isJobSetDecisionType(last.type)) return undefined;
  const match = last.eventId.startsWith(`${stream.uid}/`) ? /^(\d+)\/(\d+)$/.exec(last.eventId.slice(stream.uid.length + 1)) : null;
  if (!match) return undefined;
  const position = Number(match[1]);
  const logged = Number(match[2]) + 1;
  if (logged % LEGACY_STEP_ENTRIES !== 0 || head - position !== logged) return undefined;
  // `decisions` above what is logged: the loop decides the settle again and logs what it lacks.
  return { at: last.observedAt, read: { head: position, foldVersion: JOBSET_FOLD_VERSION, gates: {}, decisions: logged + 1 } };
}

function identityOf(state: JobSetState, stream: StreamId): JobSetIdentity {
  return { clusterId: stream.clusterId, namespace: stream.namespace, name: state.jobSet?.metadata.name ?? stream.uid, uid: stream.uid };
}

/** The row the fleet view shows for a JobSet: its latest condition and when it finished. */
export function jobSetSummary(state: JobSetState, now: string): SummaryUpdate | undefined {
  const jobSet = state.jobSet;
  if (!jobSet) return undefined;
  const latest = state.conditions.at(-1);
  const finished = state.conditions.find((c) => (c.type === 'Completed' || c.type === 'Failed') && c.status === 'True');
  return {
    name: jobSet.metadata.name,
    createdAt: jobSet.metadata.creationTimestamp ?? now,
    updatedAt: now,
    latestCondition: latest && {
      type: latest.type,
      status: latest.status,
      reason: latest.reason,
      message: latest.message,
      lastTransitionTime: latest.lastTransitionTime,
    },
    finishedAt: finished?.lastTransitionTime,
    ...(state.deleted ? { deleted: true } : {}),
  };
}
