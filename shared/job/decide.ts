import { formatTime, parseTime } from '../k8s/time.ts';
import type { JobCommand } from './commands.ts';
import { findCondition, isFinished, suspendedCondition, type JobCondition } from './conditions.ts';
import { EXPECTATIONS_TIMEOUT_MS, JOB_CONTROLLER_NAME, JOBFOLD_CONTROLLER_NAME, Message, Reason } from '../k8s/job-controller.ts';
import type { Decision } from './decisions.ts';
import type { Evidence } from '../policies/evidence.ts';
import { chooseFinishTarget, type FinishTarget } from './finish-condition.ts';
import { removeCountedFinalizers } from './finalizer-removal.ts';
import { managePods } from './manage-pods.ts';
import { correctOutcome, decidedOutcome, reopenFinish } from './outcome-correction.ts';
import { waitForMissingPodEvents } from './pod-view-gap.ts';
import { waitForMissingJobEvents } from './job-view-gap.ts';
import { activePods, newSync, record, setCondition, terminate, wakeAt, wakeWhenExpectationExpires, type Sync } from './sync.ts';
import type { JobState } from './state.ts';
import { expectedCreations } from './expectations.ts';
import { jobStatus } from './status.ts';
import { activeDeadlineAt, LAST_TIME_MS } from '../policies/active-deadline.ts';
import { stableHash } from './stable-hash.ts';
import { settleSuspension } from './suspension-order.ts';
import { entryAt } from './cluster-clock.ts';
import { criterionReadsPods, rememberedCriterionMetAt } from './criterion-instants.ts';
import { criterionMetBefore } from './met-before.ts';
import { clusterFinishInstant, mayHoldUnseenPods } from './cluster-finish.ts';
import { interimEvidence } from './interim-instants.ts';
import { countAtSync } from './observe-pod.ts';
import { lapseUnseenTerminations } from './termination-lapse.ts';
import { startAtLastResumption } from './resumption-start.ts';

/** What one reconcile decided: decisions for the log, commands for the cluster. */
export interface Reconciliation {
  readonly decisions: readonly Decision[];
  readonly commands: readonly JobCommand[];
  /** When to reconcile again if nothing else happens (deadline, backoff, expectations). */
  readonly wakeAt: string | undefined;
}

const NOTHING: Reconciliation = { decisions: [], commands: [], wakeAt: undefined };

/**
 * The decision function: one upstream `syncJob` over the folded state, at time `now`
 * (RFC 3339). Steps, in upstream's order:
 *  1. set startTime on the first unsuspended sync (reset at a resumption read late);
 *  2. choose the outcome (see chooseFinishTarget for the order of the checks);
 *  3. outcome chosen: delete every active pod; otherwise manage pods (create or delete; not
 *     for a Job being deleted), then check completions, then the Suspended condition. While the
 *     view of a managed Job's pods lacks an event the forwarder sent before one it holds
 *     (pod-view-gap.ts), or its view of the Job lacks a Job event sent before one it holds
 *     (job-view-gap.ts), no pod is created or deleted and no new outcome is chosen;
 *  4. write the interim condition, and the terminal one once no pod is terminating.
 * Never throws on any state the fold can reach.
 */
export function decide(state: JobState, now: string): Reconciliation {
  // The sync counts the pods its run changed before it decides (upstream `syncJob` counts from
  // the informer's pods): the one change decide makes to the state, re-derived by every reader.
  countAtSync(state);
  const settings = state.settings;
  if (state.rejected) return rejection(state, now);
  if (!state.identity || !settings || state.deleted) return NOTHING;
  if (!reconciledByUs(settings.managedBy)) return NOTHING;
  const sync = newSync(state, now);
  recordRefusedUpdate(sync);
  // Deletions of a Job jobfold runs not seen by the time their expectation expired (the
  // forwarder's guard refused them, termination-lapse.ts): this sync reads those pods as active.
  lapseUnseenTerminations(sync);
  // Corrected only when the outcome met first can be written in the same sync (expectations met).
  const expectationsMet = expectationsSatisfied(state, sync.now);
  if (expectationsMet) correctOutcome(sync);
  reopenFinish(sync);
  // Evidence arriving after the outcome may show the suspension came before it or after.
  const standing = decidedOutcome(sync.conditions);
  const settled = standing !== undefined && settleSuspension(sync, { reason: standing.condition.reason, message: standing.condition.message, evidence: { tippedBy: state.position } });
  if (isFinished(sync.conditions)) {
    if (standing !== undefined) criterionMetEarlier(sync, standing.condition.reason);
    if (!waitForMissingPodEvents(sync, 'terminating')) terminateLingering(sync);
    removeCountedFinalizers(sync);
    // The one change a finished Job's status takes: its Suspended condition, settled late.
    if (settled) sendStatus(sync, 'final');
    return done(sync);
  }
  if (sync.startTime === undefined && !settings.suspend) startJob(sync);
  else if (sync.startTime === undefined) startBeforeSuspension(sync);
  // A resumption read late still resets the start its deadline runs from (resumption-start.ts).
  else startAtLastResumption(sync);
  // Requested creations not seen yet count as active until the expectation expires.
  if (!expectationsExpired(state, sync.now)) sync.active += expectedCreations(state);
  // A Job jobfold runs takes no decision on a view of its pods with a hole in it (pod-view-gap.ts),
  // and no Job terminates pods on one: a pod that looks active may have finished, and jobfold would
  // terminate it and write an outcome it cannot take back. Nor does a Job jobfold runs on a view
  // lacking one of its own observations sent before one the log holds (job-view-gap.ts): a
  // suspension, resumption or scale the cluster showed before its pods' events. Each asked once;
  // they wake the Job.
  let jobWaiting: boolean | undefined;
  const jobViewHasHole = () => (jobWaiting ??= waitForMissingJobEvents(sync));
  let waiting: boolean | undefined;
  const viewHasHole = () => (waiting ??= waitForMissingPodEvents(sync, 'managing') || jobViewHasHole());
  let holding: boolean | undefined;
  const terminationsWait = () => (holding ??= waitForMissingPodEvents(sync, 'terminating') || jobViewHasHole());
  let target = chooseFinishTarget(sync);
  // An outcome chosen on a view with a hole waits for it to close, and so does the rest of this
  // sync: upstream's syncJob, its finish condition chosen (checks 3-7), neither manages pods nor
  // checks completions (check 8), so the success by completions does not take the place of a
  // success policy (or a failure) met in the same sync (generated seed-8/history-59).
  const held = target?.isNew === true && terminationsWait();
  if (held) target = undefined;
  if (target) {
    if (!terminationsWait()) terminate(sync, activePods(state, sync.lapsed), 'JobFinishing', target.reason, target.message);
    // Upstream keeps the outcome only once every pod it created or deleted has been seen; the
    // terminal condition waits for the hole to close too (a pod still terminating may be in it).
    if (!expectationsMet || viewHasHole()) target = undefined;
  } else if (!held) {
    let managed = false;
    // A Job being deleted is not managed: no pod is created or deleted (suspension included),
    // and no Suspended condition is written (upstream `syncJob`: `job.DeletionTimestamp == nil`).
    if (expectationsMet && state.deletionTimestamp === undefined && !viewHasHole()) {
      managePods(sync);
      managed = true;
    }
    target = completionsReached(sync);
    if (target && viewHasHole()) target = undefined;
    if (!target && managed) writeSuspended(sync);
    // The flip of a suspension learnt late is the resumption's sync, which the cluster's
    // controller ran before anything jobfold since expects: those expectations hold it back no more.
    else if (!target && expectationsHeldBack(sync)) resumeLateSuspension(sync);
  }
  if (target) {
    if (target.isNew) settleSuspension(sync, target);
    writeConditions(sync, target);
  }
  scheduleWakeUp(sync, expectationsMet);
  removeCountedFinalizers(sync);
  sendStatus(sync);
  return done(sync);
}

/** `spec.managedBy` unset, the built-in controller, or jobfold: anything else is not ours. */
function reconciledByUs(managedBy: string | undefined): boolean {
  return managedBy === undefined || managedBy === JOB_CONTROLLER_NAME || managedBy === JOBFOLD_CONTROLLER_NAME;
}

function rejection(state: JobState, now: string): Reconciliation {
  if (state.rejectionRecorded || !state.rejected) return NOTHING;
  const sync = newSync(state, now);
  record(sync, {
    type: 'JobRejected',
    errors: state.rejected.map(({ field, type, detail, message }) => ({ field, type, detail, message })),
  });
  return done(sync);
}

/** A refused update is written to the log once; the Job goes on under its last valid spec. */
function recordRefusedUpdate(sync: Sync): void {
  const refused = sync.state.refusedUpdate;
  if (!refused || sync.state.refusedUpdateRecorded) return;
  record(sync, {
    type: 'JobUpdateRefused',
    refusedEventId: refused.eventId,
    errors: refused.errors.map(({ field, type, detail, message }) => ({ field, type, detail, message })),
  });
}

function expectationsSatisfied(state: JobState, now: number): boolean {
  const { deletions } = state.expectations;
  return ((expectedCreations(state) <= 0 && deletions.size === 0) || expectationsExpired(state, now)) && awaitedOutcomesDue(state, now) === undefined;
}

/** The earliest time a pod's awaited outcome (state.awaitingOutcome) stops holding pod management back, if one still does. */
function awaitedOutcomesDue(state: JobState, now: number): number | undefined {
  let due: number | undefined;
  for (const since of state.awaitingOutcome.values()) {
    const until = since + EXPECTATIONS_TIMEOUT_MS;
    if (until >= now && (due === undefined || until < due)) due = until;
  }
  return due;
}

function expectationsExpired(state: JobState, now: number): boolean {
  const setAt = state.expectations.setAt;
  return setAt === undefined || now - setAt > EXPECTATIONS_TIMEOUT_MS;
}

/** Check 8: completions reached once nothing is active (work queue: any success). */
function completionsReached(sync: Sync): FinishTarget | undefined {
  const { state } = sync;
  const settings = state.settings;
  if (!settings) return undefined;
  const succeeded = settings.indexed ? state.status.completedIndexes.size : state.status.succeeded;
  const reached =
    settings.completions === undefined
      ? succeeded > 0 && sync.active === 0
      : succeeded >= settings.completions && sync.active === 0;
  if (!reached) return undefined;
  return {
    outcome: 'success',
    reason: Reason.CompletionsReached,
    message: Message.CompletionsReached,
    isNew: true,
    evidence: {
      tippedBy: state.lastSucceeded?.seq ?? state.position,
      pods: state.lastSucceeded ? [state.lastSucceeded] : undefined,
      succeeded,
      limit: settings.completions,
      succeededIndexes: settings.indexed ? state.status.completedIndexes.toString() : undefined,
    },
  };
}

/** Upstream `ensureJobConditionStatus` for Suspended; resuming resets startTime. */
function writeSuspended(sync: Sync): void {
  const suspend = sync.state.settings?.suspend ?? false;
  const existing = findCondition(sync.conditions, 'Suspended');
  const wanted = suspendedCondition(suspend, sync.nowIso);
  if (!existing && !suspend) {
    resumeLateSuspension(sync);
    return;
  }
  if (existing?.status === wanted.status && existing.reason === wanted.reason && existing.message === wanted.message) {
    return;
  }
  setCondition(sync, wanted, { tippedBy: sync.state.position });
  if (!suspend) startJob(sync);
}

/**
 * A False condition is never added, only flipped: unless the Job was seen suspended before the
 * spec the fold holds, in an observation that arrived after it (state.suspendedBefore). Its
 * controller synced it suspended (Suspended=True) and flips that now; the Job started when the
 * fold first reconciled it resumed. jobfold's own syncs are a managed Job's.
 */
function resumeLateSuspension(sync: Sync): void {
  const { state } = sync;
  if (!state.suspendedBefore || state.settings?.suspend !== false || state.settings.managedBy === JOBFOLD_CONTROLLER_NAME) return;
  if (findCondition(sync.conditions, 'Suspended')) return;
  setCondition(sync, suspendedCondition(false, sync.nowIso), { tippedBy: state.position });
}

/** Pods went unmanaged in this sync only because of expectations (a Job being deleted is not managed at all). */
function expectationsHeldBack(sync: Sync): boolean {
  return sync.state.deletionTimestamp === undefined && !expectationsSatisfied(sync.state, sync.now);
}

/**
 * Upstream sets startTime to its clock at the first sync of the unsuspended Job. That is this
 * reconcile's time, unless the Job observation arrived after later events of the Job (the
 * clock had moved past it): the cluster's controller synced the Job when it was created or
 * resumed, so it started when observed, not when jobfold happened to read it.
 */
function startJob(sync: Sync): void {
  const observed = sync.state.specObservedAt;
  const startTime = observed !== undefined && observed < sync.now ? formatTime(observed) : sync.nowIso;
  sync.startTime = startTime;
  record(sync, { type: 'StartTimeSet', startTime });
}

/**
 * A Job jobfold does not run, finished: evidence from before the finish that arrived after it (a
 * late outcome) may have met the criterion earlier on the cluster's clock than the evidence it
 * finished on (state.outcomeMetAt). The cluster finished the Job then, so what it saw only after
 * that leaves the final status (late-outcome.ts finishMetEarlier; elastic generated history-27:
 * finished on a pod first seen at 6:43, the failure at 0:02 that had failed the Job arriving
 * after). Logged, so that the fold takes the instant as decided: decide reads the pods' instants
 * at most once per change of them (the criteria's memo), and not after outcomes seen at or after
 * `was` alone (met-before.ts); the fold never walks them per event.
 */
function criterionMetEarlier(sync: Sync, reason: string): void {
  const { state } = sync;
  const was = state.outcomeMetAt;
  if (was === undefined || state.finalStatus === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME || !criterionReadsPods(state, reason)) return;
  const metAt = criterionMetBefore(state, reason, was);
  if (metAt === undefined) return;
  record(sync, { type: 'CriterionMetEarlier', metAt: formatTime(metAt), was: formatTime(was) });
}

/**
 * A Job jobfold runs, suspended in the spec it holds and never started, that an older observation
 * (arriving after) shows running before it was first suspended: in the cluster's order jobfold's
 * first sync of the running Job started it then, and its deadline runs from that instant until a
 * resumption resets it (managed generated history, seed 8, history-42: first seen suspended, its
 * creation arriving after, so the deadline the resuming sync met was never met).
 */
function startBeforeSuspension(sync: Sync): void {
  const { state } = sync;
  if (state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME) return;
  const changes = state.suspendChanges;
  const first = changes[0];
  // Of the observations of that first instant, the newest is the spec its one sync read.
  if (first === undefined || first.at > sync.now || changes[entryAt(changes, first.at)]?.suspend !== false) return;
  sync.startTime = formatTime(first.at);
  record(sync, { type: 'StartTimeSet', startTime: sync.startTime });
}

/** The interim condition first; the terminal one only when no pod is left terminating. */
function writeConditions(sync: Sync, target: FinishTarget): void {
  const success = target.outcome === 'success';
  const interim = success ? 'SuccessCriteriaMet' : 'FailureTarget';
  const terminal = success ? 'Complete' : 'Failed';
  if (target.isNew && findCondition(sync.conditions, interim)?.status !== 'True') {
    setCondition(sync, condition(sync, interim, target), interimEvidence(sync.state, target));
  }
  if (!heldByTerminating(sync, target)) {
    const evidence: Evidence = { ...target.evidence, follows: interim };
    setCondition(sync, condition(sync, terminal, target), evidence);
  }
}

/**
 * Upstream's `enactJobFinished` waits while a pod is terminating: for a Job jobfold does not run,
 * a pod the cluster saw only after it finished the Job (its criterion's instant known,
 * cluster-finish.ts) held nothing back there, whatever arrived first here.
 */
function heldByTerminating(sync: Sync, target: FinishTarget): boolean {
  const { state } = sync;
  if (sync.terminating === 0) return false;
  if (state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return true;
  const metAt = state.outcomeMetAt ?? rememberedCriterionMetAt(state, target.reason);
  return metAt === undefined || !mayHoldUnseenPods(state, metAt) || clusterFinishInstant(state, metAt) === undefined;
}

function condition(sync: Sync, type: string, target: FinishTarget): JobCondition {
  return { type, status: 'True', reason: target.reason, message: target.message, lastTransitionTime: sync.nowIso };
}

/** A finished Job keeps no pods: any that shows up active later is terminated too. */
function terminateLingering(sync: Sync): void {
  const conditions = sync.state.status.conditions;
  const final = findCondition(conditions, 'Complete') ?? findCondition(conditions, 'Failed');
  terminate(sync, activePods(sync.state, sync.lapsed), 'JobFinished', final?.reason ?? '', final?.message ?? '');
}

function scheduleWakeUp(sync: Sync, expectationsMet: boolean): void {
  const { state } = sync;
  const settings = state.settings;
  const finishing = findCondition(sync.conditions, 'FailureTarget') ?? findCondition(sync.conditions, 'SuccessCriteriaMet');
  const setAt = state.expectations.setAt;
  // A finishing Job too waits for its expectations (its terminal condition, a correction of its
  // outcome): woken when they expire, or a deletion never seen holds it until something arrives.
  if (!expectationsMet && setAt !== undefined) wakeAt(sync, setAt + EXPECTATIONS_TIMEOUT_MS + 1);
  if (finishing || !settings) return;
  const start = sync.startTime === undefined ? undefined : parseTime(sync.startTime);
  const deadline = settings.suspend ? undefined : activeDeadlineAt(settings.activeDeadlineSeconds, start);
  if (deadline !== undefined && deadline > sync.now) wakeAt(sync, deadline);
  if (sync.decisions.some((d) => d.type === 'PodCreationsRequested' || d.type === 'PodsTerminationRequested')) wakeWhenExpectationExpires(sync);
  const awaited = awaitedOutcomesDue(state, sync.now);
  if (awaited !== undefined) wakeAt(sync, awaited + 1);
}

/**
 * Jobs managed by jobfold get the computed status written back when it changes: the counts of
 * this sync (`live`), or those frozen when the Job finished (`final`; upstream writes `active`,
 * `ready` and `terminating` 0 then, and the API server refuses a finished Job with active pods).
 */
function sendStatus(sync: Sync, counts: 'live' | 'final' = 'live'): void {
  const { state } = sync;
  // Observations alone change the status too (a pod succeeds, gets ready): compare every time,
  // as upstream's needsStatusUpdate / needsFlush do, not only when something was decided.
  if (state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME) return;
  const identity = state.identity;
  if (!identity) return;
  const status = { ...jobStatus(state), conditions: sync.conditions, startTime: sync.startTime ?? null };
  const active = sync.activeWrittenAsZero ? 0 : sync.active;
  const view = counts === 'final' ? status : { ...status, active, ready: sync.ready, terminating: sync.terminating };
  const hash = stableHash(view);
  if (hash === state.lastStatusSent) return;
  record(sync, { type: 'JobStatusSent', hash });
  sync.commands.push({
    type: 'UpdateJobStatus',
    // The log position makes a status that returns to an earlier value a new command: the
    // forwarder and the outbox recognise repeats by commandId, and this one must be written.
    commandId: `${identity.uid}/status/${state.position}/${hash}`,
    clusterId: identity.clusterId,
    namespace: identity.namespace,
    jobName: identity.name,
    jobUid: identity.uid,
    status: view,
  });
}

function done(sync: Sync): Reconciliation {
  return {
    decisions: sync.decisions,
    commands: sync.commands,
    // A wake-up past the last RFC 3339 instant is no wake-up (see activeDeadlineAt).
    wakeAt: sync.wakeAt === undefined || !(sync.wakeAt <= LAST_TIME_MS) ? undefined : formatTime(sync.wakeAt),
  };
}
