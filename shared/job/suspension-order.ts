import { formatTime, parseTime } from '../k8s/time.ts';
import { compareVersions } from '../k8s/object-sequence.ts';
import { outcomeCorrected } from '../decide/outcome-correction.ts';
import { findCondition, suspendedCondition } from './conditions.ts';
import { JOBFOLD_CONTROLLER_NAME, Reason } from '../k8s/job-controller.ts';
import { completionsMetAt, rememberedCriterionMetAt, type InstantBound } from './criterion-instants.ts';
import type { Evidence } from '../policies/evidence.ts';
import { outcomeSeenAt } from './pod-record.ts';
import type { Observation } from './events.ts';
import type { JobState } from './state.ts';
import { record, setCondition, type Sync } from './sync.ts';
import { entryAt } from './cluster-clock.ts';
import { activeDeadlineAt } from '../policies/active-deadline.ts';
import { missingPodEvents } from './pod-view-gap.ts';
import { decidedInterimReason } from './interim-instants.ts';

// Issue 21: a suspension against an outcome, whichever arrived first. Upstream's syncJob (v1.35)
// writes the Suspended condition only in a sync that chose no finish condition ("Job can be in
// the suspended state only if it is NOT completed"): on the cluster's clock, a Job suspended
// before its finish criterion was met got Suspended=True then (flipped to False by a resumption
// before the criterion), and kept it beside the outcome; one whose criterion was met first never
// got it. jobfold reads which came first from instants: the earliest the Job was seen suspended
// (state.suspensionObservedAt) against the instant the pods tell for the criterion. Evidence
// arriving late moves either, so the condition is settled again whenever an outcome stands:
// taken back by a JobOutcomeCorrected entry, or written in the place it had, before the outcome's.
//
// For every Job, those jobfold runs included: the condition is jobfold's to write for a Job it
// runs, and the API server lets a status update add or drop Suspended, even on a finished Job
// (ValidateJobStatusUpdate only refuses to drop Failed, Complete, FailureTarget and
// SuccessCriteriaMet); the UpdateJobStatus merge patch replaces the condition list. No pod
// command follows from it: the pods terminated for a suspension taken back stay terminated (a
// finished Job keeps no pods either), and a suspension written late terminates none.

/**
 * The Job's spec.suspend from an instant on, on the cluster's clock (excess-deletions.ts keeps
 * parallelism so); `version`, the observation's resourceVersion where comparable, orders the
 * observations of one instant (the newest is the spec in force).
 */
export interface SuspendAt {
  readonly at: number;
  readonly suspend: boolean;
  readonly version?: string;
}

/**
 * Entries kept, the newest: the first and the last observation of each stretch of one value, for
 * 16 changes (a Job is suspended and resumed a few times in its life). Keeping the last one
 * bounds the stretch: a stale observation of the other value that lands inside it (a suspension
 * arriving after a later resumption, a resumption seen before an older suspension) changes the
 * value from its instant up to the next observation only, not for good.
 */
const MAX_ENTRIES = 32;

/** Where a Job observation stands among the others: its resourceVersion, and whether it is older than the one the fold took. */
export interface SuspendOrder {
  readonly version?: string | undefined;
  readonly stale: boolean;
}

/** Whether `suspend` at `at` is news to the Job's history (noteSuspend would record it): the writer logs such a stale observation. */
export function tellsSuspend(state: JobState, at: number, suspend: boolean, version: string | undefined): boolean {
  return changesSuspend(state.suspendChanges, placeOf(state.suspendChanges, at, { version, stale: true }), at, suspend) || (suspend && earlierSuspension(state, at));
}

/**
 * Where an observation goes among the entries: after those of earlier instants; among those of
 * its own instant, by resourceVersion, else before them when stale and after them when not.
 */
function placeOf(entries: readonly SuspendAt[], at: number, order: SuspendOrder): number {
  let i = entries.length;
  while (i > 0 && isAfter(entries[i - 1] as SuspendAt, at, order)) i--;
  return i;
}

function isAfter(entry: SuspendAt, at: number, { version, stale }: SuspendOrder): boolean {
  if (entry.at !== at) return entry.at > at;
  return entry.version !== undefined && version !== undefined ? compareVersions(entry.version, version) > 0 : stale;
}

/**
 * Whether the value placed at `i`, at `at`, changes the history: it differs from the one before,
 * and no newer observation of its instant comes after it there (that one stands).
 */
function changesSuspend(entries: readonly SuspendAt[], i: number, at: number, suspend: boolean): boolean {
  const before = entries[i - 1];
  return (before === undefined || before.suspend !== suspend) && entries[i]?.at !== at;
}

const earlierSuspension = (state: JobState, at: number): boolean => state.suspensionObservedAt === undefined || at < state.suspensionObservedAt;

/**
 * Notes a Job observation's spec.suspend at its instant, stale ones too (the history is ordered
 * by the cluster's clock, not by arrival), and the earliest instant the Job was seen suspended,
 * with whether that observation arrived after later events of the Job (`late`). A stale one is
 * kept only when it changes the history (what the writer logs of it); the newest is kept always,
 * as the bound of its stretch.
 */
export function noteSuspend(state: JobState, at: number, suspend: boolean, late: boolean, order: SuspendOrder): void {
  if (suspend && earlierSuspension(state, at)) {
    state.suspensionObservedAt = at;
    if (late) state.suspensionObservedLate = true;
    else delete state.suspensionObservedLate;
  }
  const entries = state.suspendChanges;
  const i = placeOf(entries, at, order);
  if (order.stale ? !changesSuspend(entries, i, at, suspend) : repeats(entries[i - 1], at, suspend, order.version)) return;
  entries.splice(i, 0, { at, suspend, ...(order.version === undefined ? {} : { version: order.version }) });
  // Of a stretch of one value, the first and the last observation are kept.
  for (let j = Math.min(i + 1, entries.length - 2); j >= Math.max(1, i - 1); j--) {
    if (entries[j - 1]?.suspend === entries[j]?.suspend && entries[j + 1]?.suspend === entries[j]?.suspend) entries.splice(j, 1);
  }
  if (entries.length > MAX_ENTRIES) entries.splice(0, entries.length - MAX_ENTRIES);
}

/** The same observation again (a replay): nothing to note. */
const repeats = (entry: SuspendAt | undefined, at: number, suspend: boolean, version: string | undefined): boolean =>
  entry !== undefined && entry.at === at && entry.suspend === suspend && entry.version === version;

/**
 * A Job jobfold runs resumed before any sync of jobfold's enacted the suspended spec it held:
 * those syncs waited on a view with a hole in it (pod-view-gap.ts; the hole still open when the
 * resumption arrives), which the cluster's order, read without the hole, never had, and there
 * jobfold's sync wrote Suspended=True. Noted as a suspension jobfold did not sync on time, so that
 * it is written in its place once an outcome stands (writeEarlierSuspension), as for one read late.
 */
export function noteSuspensionHeldBack(state: JobState): void {
  if (state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME || state.suspensionObservedAt === undefined) return;
  if (findCondition(state.status.conditions, 'Suspended') !== undefined || missingPodEvents(state) === undefined) return;
  state.suspensionObservedLate = true;
}

/**
 * Decide side, when an outcome stands or is decided in this sync (`reason`, its interim
 * condition's): takes Suspended back, or writes it before the outcome, as the cluster's order had
 * it. Returns whether it did either.
 */
export function settleSuspension(sync: Sync, outcome: DecidedOutcome): boolean {
  const before = sync.decisions.length;
  if (findCondition(sync.conditions, 'Suspended')) {
    retractLateSuspension(sync, outcome);
    resumeBeforeOutcome(sync, outcome.reason);
  } else writeEarlierSuspension(sync, outcome.reason);
  return sync.decisions.length > before;
}

/**
 * Suspended=True stands with the outcome, but the Job was running again when the outcome's
 * criterion was met on the cluster's clock: a resumption jobfold saw only after it decided the
 * outcome (an older resumed observation arriving after a newer one, or after the finish). The
 * controller's sync on the resumption turned the condition False (JobResumed) then, before any
 * outcome: written so, in its place.
 */
function resumeBeforeOutcome(sync: Sync, reason: string): void {
  const { state } = sync;
  if (findCondition(sync.conditions, 'Suspended')?.status !== 'True') return;
  const metAt = criterionInstant(state, reason, 'seen');
  if (metAt === undefined) return;
  const entries = state.suspendChanges;
  const inForce = entryAt(entries, metAt);
  if (entries[inForce]?.suspend !== false) return;
  const resumedAt = stretchStart(entries, inForce);
  if (reason === Reason.DeadlineExceeded) {
    // A deadline runs from the start time jobfold holds: one it set at this very resumption says
    // nothing of the cluster's (whose resuming sync may have found its deadline passed already).
    const start = state.status.startTime;
    if (start === undefined || parseTime(start) >= resumedAt) return;
    // A deadline passed on that start by the resumption: the resuming sync checked it before the
    // resumption resets the start (upstream syncJob: pastActiveDeadline before manageJob), chose
    // the finish, and wrote no JobResumed; Suspended stays True beside the outcome.
    const due = activeDeadlineAt(state.settings?.activeDeadlineSeconds, parseTime(start));
    if (due !== undefined && due <= resumedAt) return;
  }
  setCondition(sync, suspendedCondition(false, formatTime(resumedAt)), { tippedBy: state.position });
}

/** The instant the stretch of one value holding entry `i` began: its first observation's. */
function stretchStart(entries: readonly SuspendAt[], i: number): number {
  let first = i;
  while (first > 0 && entries[first - 1]?.suspend === entries[i]?.suspend) first -= 1;
  return (entries[first] as SuspendAt).at;
}

/** The outcome a suspension is weighed against: its interim condition's reason and message, and the evidence that decided it. */
export interface DecidedOutcome {
  readonly reason: string;
  readonly message: string;
  readonly evidence: Evidence;
}

/**
 * When the criterion of `reason` was met on the cluster's clock, as far as a suspension is
 * weighed against it: at the latest (`seen`) or at the earliest (criterion-instants.ts InstantBound).
 */
function criterionInstant(state: JobState, reason: string, bound: InstantBound): number | undefined {
  // At the latest: the instant the decided outcome's condition logged (interim-instants.ts), read
  // then from every pod. A writer loaded from a snapshot holds only the archived pods its tail
  // names: walked again, a failure archived before was missing, and it wrote JobResumed where a
  // writer kept warm did not (snapshot property, named-only restore, seeds 75, 187).
  if (bound === 'seen' && state.outcomeMetAt !== undefined && decidedInterimReason(state) === reason) return state.outcomeMetAt;
  // The sync that suspends deletes every active pod, so completions are reached there if the
  // successes were: the instant of the last success they needed is the criterion's.
  return reason === Reason.CompletionsReached ? completionsMetAt(state, bound) : rememberedCriterionMetAt(state, reason, bound);
}

/**
 * A Job suspended on a view that lacked the evidence of a criterion met before the suspension was
 * observed: the cluster never wrote Suspended (nor its JobResumed flip). A JobOutcomeCorrected
 * entry takes it back, the criterion's instant beside it.
 */
function retractLateSuspension(sync: Sync, outcome: DecidedOutcome): void {
  const { state } = sync;
  const suspendedAt = state.suspensionObservedAt;
  if (suspendedAt === undefined) return;
  const metAt = criterionInstant(state, outcome.reason, 'seen');
  if (metAt === undefined || metAt >= suspendedAt) return;
  const correction = outcomeCorrected(sync.conditions, ['Suspended'], { retractedMetAt: formatTime(suspendedAt) }, {
    reason: outcome.reason,
    message: outcome.message,
    evidence: { ...outcome.evidence, metAt: formatTime(metAt) },
  });
  sync.conditions = sync.conditions.filter((c) => c.type !== 'Suspended');
  record(sync, { type: 'JobOutcomeCorrected', ...correction });
}

/**
 * The Job was suspended before the outcome's criterion was met on the cluster's clock, but
 * jobfold decided the outcome before that suspension was seen (or arrived): the controller wrote
 * Suspended=True then, and False at a resumption before the criterion. Written in the place it
 * had, before the outcome's conditions (conditions.ts putCondition).
 */
function writeEarlierSuspension(sync: Sync, reason: string): void {
  const { state } = sync;
  const suspendedAt = state.suspensionObservedAt;
  if (suspendedAt === undefined || state.deletionTimestamp !== undefined) return;
  // Read on time, the suspension had jobfold's own sync, which wrote what it found (a Job read
  // in one sync with its pods is one sync of the controller's: corpus
  // completions__suspended-job-completes-when-all-succeeded writes no Suspended).
  if (state.suspensionObservedLate !== true) return;
  // A resumption of the suspension's own instant, newer by resourceVersion: the sync that read
  // the suspension read the resumption too, and wrote no Suspended.
  if (state.suspendChanges[entryAt(state.suspendChanges, suspendedAt)]?.suspend === false) return;
  const metAt = criterionInstant(state, reason, 'earliest');
  if (metAt === undefined) {
    writeSuspensionBeforePods(sync);
    return;
  }
  // At the suspension's very instant counts as after it: getFinishedTime falls back to a pod's
  // creation, often the Job's own instant (corpus completions__suspended-job-completes-*).
  if (suspendedAt > metAt) return;
  // The spec in force when the criterion was met: the last observation at or before it.
  const inForce = entryAt(state.suspendChanges, metAt);
  const resumedAt = state.suspendChanges[inForce]?.suspend === false
    ? stretchStart(state.suspendChanges, inForce)
    : reason === Reason.DeadlineExceeded ? resumptionBeforeDeadline(sync, inForce) : undefined;
  const condition = resumedAt !== undefined && resumedAt > suspendedAt
    ? suspendedCondition(false, formatTime(resumedAt))
    : suspendedCondition(true, formatTime(suspendedAt));
  setCondition(sync, condition, { tippedBy: state.position });
}

/**
 * Whether deciding after `observations` may weigh a suspension read late against the outcome's
 * earliest instant (writeEarlierSuspension), which walks every pod: no Suspended condition yet,
 * and the suspension already noted late, or one arriving now while an outcome stands. A writer
 * loaded from a snapshot holds only the archived pods its tail and batch name: the walk missed
 * archived pods, and it wrote no Suspended where a writer kept warm did (stored-orders property,
 * seed 99: free history 30, managed history 13). It puts back the whole archive before such a
 * batch (decider.ts restoreForBatch); rare: a suspension read after the outcome's evidence.
 */
export function batchWeighsSuspension(state: JobState, observations: readonly Observation[]): boolean {
  if (findCondition(state.status.conditions, 'Suspended') !== undefined || state.deletionTimestamp !== undefined) return false;
  if (state.suspensionObservedLate === true) return true;
  return decidedInterimReason(state) !== undefined && observations.some((o) => o.type === 'JobObserved' && o.job.spec.suspend === true);
}

/**
 * A deadline jobfold met while the history shows the Job suspended, the Job suspended from its
 * first instant on (the newest observation of that instant suspended, none unsuspended after it
 * up to `inForce`): jobfold started it on its creation read alone (the suspension of its very
 * second arriving last), while on the cluster it had no start time until its resumption set one
 * (upstream syncJob sets it on the first unsuspended sync and resets it at each resumption), so
 * the cluster's deadline ran from the next resumption (entry after `inForce`), one before jobfold
 * decided the outcome: that sync wrote JobResumed before the outcome. A Job that ran before its
 * suspension is not one: its resuming sync can find the deadline passed on the start time it had
 * (checked before the resumption resets it), and keeps Suspended=True (generated history-1).
 */
function resumptionBeforeDeadline(sync: Sync, inForce: number): number | undefined {
  const entries = sync.state.suspendChanges;
  const first = entries[0];
  if (first === undefined || entries[entryAt(entries, first.at)]?.suspend !== true) return undefined;
  for (let i = 0; i <= inForce; i++) if (entries[i]?.suspend === false && entries[i]?.at !== first.at) return undefined;
  const decidedAt = findCondition(sync.conditions, 'FailureTarget')?.lastTransitionTime;
  const until = decidedAt === undefined ? sync.now : parseTime(decidedAt);
  for (let i = inForce + 1; i < entries.length; i++) {
    const entry = entries[i] as SuspendAt;
    if (entry.at > until) return undefined;
    if (!entry.suspend) return entry.at;
  }
  return undefined;
}

/**
 * Without the criterion's instant, a Job jobfold does not run, seen suspended only after later
 * events of it arrived (the spec the fold holds arrived late, state.specObservedAt): its
 * controller wrote Suspended=True when it observed it, before any pod the fold counts now had
 * finished. Corpus scenario completions__suspended-job-completes-when-all-succeeded, its
 * successes arriving first.
 */
function writeSuspensionBeforePods(sync: Sync): void {
  const { state } = sync;
  const observedAt = state.specObservedAt;
  if (observedAt === undefined || state.settings?.suspend !== true || state.settings.managedBy === JOBFOLD_CONTROLLER_NAME) return;
  // Every pod counted was seen finished after the suspension was observed, and did not finish
  // before it: upstream's getFinishedTime (its fallback, the pod's creation, is the earliest it
  // can have finished). A pod seen finished later may have finished earlier.
  for (const pod of state.pods.values()) {
    if (pod.counted === 'none') continue;
    if (pod.finishedAt < observedAt || !((outcomeSeenAt(pod) ?? observedAt) > observedAt)) return;
  }
  setCondition(sync, suspendedCondition(true, formatTime(observedAt)), { tippedBy: state.position });
}
