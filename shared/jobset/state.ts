import type { JobSetCondition } from './conditions.ts';
import type { DefaultedJobSet } from './defaulting.ts';
import type { JobSetValidationError } from './validation-error.ts';
import { compareVersions, type ObjectSequence, type ObservationOrder } from '../k8s/object-sequence.ts';
import { compareTimes } from '../k8s/time.ts';
import type { SentCounts } from '../k8s/sent-counts.ts';
import type { JobDeleted, JobObserved, JobSetObserved } from './events.ts';

/** The Failed condition of a failed child Job: what failure policy rules match on. */
export interface JobFailure {
  readonly reason: string;
  readonly message: string;
  /** RFC 3339; absent sorts first, as Go's zero time would. */
  readonly lastTransitionTime: string | undefined;
}

/**
 * The controller's view of one child Job: the last snapshot the cluster reported, with the
 * effects of jobfold's own commands applied on top (created, terminating, suspended, resumed).
 */
export interface ChildJobView {
  readonly name: string;
  readonly uid: string | undefined;
  /** `jobset.sigs.k8s.io/replicatedjob-name`; undefined when missing or empty. */
  readonly replicatedJob: string | undefined;
  readonly jobIndex: number | undefined;
  /** `jobset.sigs.k8s.io/restart-attempt`; undefined when missing or not an integer. */
  readonly restartAttempt: number | undefined;
  /** `spec.parallelism` (Kubernetes defaults it to 1). */
  readonly parallelism: number;
  readonly completions: number | undefined;
  readonly suspend: boolean;
  readonly active: number;
  readonly ready: number;
  readonly succeeded: number;
  readonly failed: number;
  /** The first `Complete` or `Failed` condition with status True (`JobFinished`). */
  readonly finished: 'Complete' | 'Failed' | undefined;
  readonly failure: JobFailure | undefined;
  /**
   * The `lastTransitionTime` of that finished condition (RFC 3339), when the snapshot gave one:
   * the cluster's clock for when the Job finished (shared/jobset/finish-order.ts).
   */
  readonly finishedAt?: string;
  /** Deletion requested (or a deletionTimestamp seen); the object lives on until `JobDeleted`. */
  readonly terminating: boolean;
  /** Log position of the event that last shaped this view. */
  readonly observedAt: number;
  /**
   * For a Job the fold created and has not seen: when the cluster showed the JobSet spec it was
   * created on (`jobSetSeenAt` then). The cluster made it at that instant or later, if at all.
   */
  readonly createdOnSpecAt?: string;
  /** For a Job the fold created and has not seen since: when it decided the create (its `CreateJobIssued`). */
  readonly createdAt?: string;
  /** ... and that spec's resourceVersion, which orders it against the Jobs' in its second (KEP-5504). */
  readonly createdOnSpecVersion?: string;
  /** The order stamp of the snapshot this view was built from, when it had one. */
  readonly sequence?: ObjectSequence;
  /** The eventId of that snapshot: the log writer drops it delivered again. */
  readonly eventId?: string;
  /** The snapshot's resourceVersion, when comparable (KEP-5504). */
  readonly version?: string;
  /** When the cluster reported that snapshot (its `at`): what it shows held then. */
  readonly seenAt?: string;
  /**
   * Whether that snapshot showed the Job suspended: `suspend` is the view's, which the fold's own
   * Suspend/Resume decisions change too. Absent in states folded before JOBSET_FOLD_VERSION .12.
   */
  readonly seenSuspended?: boolean;
  /**
   * A failed Job whose deletion arrived before its failure (evolve.ts `isFailureOfGoneJob`): it
   * decides the failure policy but is counted nowhere and leaves the view at the next restart.
   * Likewise a completed Job a user deleted (`goneSuccesses`).
   */
  readonly gone?: true;
  /** The forwarder's count (`jobSetSeq`) of the first status that showed `finished`, when one carried counts (child-counts.ts). */
  readonly finishedCount?: FinishCount;
}

/** A `jobSetSeq` and its epoch. */
export interface FinishCount {
  readonly epoch: number;
  readonly count: number;
}

export type TerminalState = '' | 'Completed' | 'Failed';

/** One entry of `JobSetState.specsTaken`. */
export interface SpecTaken {
  readonly version: string;
  readonly suspend: boolean;
  readonly conditions: number;
  /** When the observation that showed it was made (absent in states folded before JOBSET_FOLD_VERSION .13). */
  readonly at?: string;
}

/** One entry of `JobSetState.jobSetTimeline`. */
export interface SeenSpec {
  readonly version: string;
  readonly suspend: boolean;
  /** When the observation was made. */
  readonly at: string;
}

/** What `JobSetState.restartEvidence` keeps of the last restart. */
export interface RestartEvidence {
  readonly position: number;
  readonly at: string;
  readonly attempt: number;
  readonly countedTowardsMax: boolean;
  /** When the Job the restart was decided on failed, on the cluster's clock (a correction's `retractedMetAt`). */
  readonly failedAt?: string;
  /** By name. */
  readonly failed: Readonly<Record<string, ChildJobView>>;
}

/**
 * What `JobSetState.walkEvidence` keeps of the current attempt and the one before
 * (walk-evidence.ts): when the cluster first showed each Job started, the newest and the oldest
 * comparable resourceVersion of a snapshot showing it so, by `attempt/name/uid` (a Job a user
 * deleted and the one created again under its name are two objects), and when each
 * attempt first failed, with the oldest comparable resourceVersion of a snapshot showing that
 * failure, by attempt (the versions order a start and a failure of the same second).
 */
export interface WalkEvidence {
  readonly started: Readonly<Record<string, StartedJob>>;
  readonly failedAt: Readonly<Record<number, string>>;
  readonly failedVersion?: Readonly<Record<number, string>>;
}

/** A child Job the cluster showed started: when first, and at which resourceVersions. */
export interface StartedJob {
  readonly name: string;
  readonly uid?: string;
  readonly replicatedJob: string;
  readonly at: string;
  readonly version?: string;
  readonly firstVersion?: string;
}

/** Everything the JobSet fold knows after folding a log. */
export interface JobSetState {
  /** Number of events folded so far: the log position of the last one (1-based). */
  readonly position: number;
  /** Log position of the last observation (not decision) folded. */
  readonly lastObservation: number;
  /** The observed JobSet after admission defaulting; undefined until first observed. */
  readonly jobSet: DefaultedJobSet | undefined;
  /** eventId of the JobSet observation folded last: the log writer drops it re-sent. */
  readonly jobSetEventId?: string;
  /** Where the observation `jobSet` came from stands (its version, its stamp): an older one arriving late is dropped. */
  readonly jobSetOrder?: ObservationOrder;
  /** When the cluster reported the JobSet as `jobSet` holds it (that observation's `at`). */
  readonly jobSetSeenAt?: string;
  /** Admission violations of the observed spec; a JobSet with any is never reconciled. */
  readonly validationErrors: readonly JobSetValidationError[];
  readonly rejectionRecorded: boolean;
  /**
   * The forwarder's count of its events about the JobSet's Jobs (`jobSetSeq`), as far as the log
   * holds it (child-counts.ts). Absent in states folded before JOBSET_FOLD_VERSION .48: no counts.
   */
  readonly childCounts?: SentCounts;
  /**
   * Child Job events sent after one the log lacks (in their counts' order), and JobSet
   * observations that arrived meanwhile (child-counts.ts): not in the view until released one by
   * one (`ChildJobEventReleased`), a reconcile after each.
   */
  readonly aheadOfHole?: readonly { readonly position: number; readonly event: JobObserved | JobDeleted | JobSetObserved }[];
  readonly deleted: boolean;
  /** When the cluster reported the JobSet gone (its `JobSetDeleted`; absent in states folded before JOBSET_FOLD_VERSION .49). */
  readonly deletedAt?: string;
  /**
   * The JobSet is being deleted: jobfold asked for it (`ttlSecondsAfterFinished`) or the cluster
   * reported a `deletionTimestamp`. Upstream reconciles no JobSet marked for deletion.
   */
  readonly deleting?: boolean;
  readonly children: Readonly<Record<string, ChildJobView>>;
  /**
   * Child Jobs of a restart attempt above `restarts` (the cluster restarted on evidence not folded
   * yet), by name: outside the view until the fold's own restart reaches their attempt.
   */
  readonly laterAttempts?: Readonly<Record<string, ChildJobView>>;
  /**
   * Completed child Jobs a user deleted (`gone`), by name, beside the view's Job under that name (a
   * create jobfold issued and has not seen yet, or none): the success policy counts each for the
   * instants before its deletion (child-jobs.ts `classifyChildJobs`); no status count does, and
   * the name is missing for the Job creation. A Job observed under the name since takes the name:
   * the cluster's controller created it after the deletion, on a JobSet it had not completed.
   */
  readonly goneSuccesses?: Readonly<Record<string, ChildJobView>>;
  /**
   * The most restarts the cluster's own JobSet reported (`status.restarts`): Jobs of an attempt up
   * to it are not held, since their restart happened on evidence the fold may never see (a JobSet
   * jobfold first saw after it restarted).
   */
  readonly clusterRestarts?: number;
  /**
   * When the cluster showed the JobSet suspended in an observation older than the spec the fold
   * holds, which is not (the earliest such `at`): the observation arrived late, but says the
   * cluster's controller reconciled the JobSet suspended then and wrote `Suspended` True.
   */
  readonly suspendedBefore?: string;
  /**
   * The earliest time an observation showed the JobSet suspended, late ones included (suspension-history.ts
   * `earlierSuspension`): when the cluster had it suspended by. Absent before JOBSET_FOLD_VERSION .16.
   */
  readonly earliestSuspensionAt?: string;
  /** The resourceVersion of that late suspended observation, when comparable. */
  readonly suspendedBeforeVersion?: string;
  /**
   * The resourceVersion of a late JobSet observation showing it running InOrder while every spec
   * the fold took was newer and suspended (the earliest such): the cluster's walk began on it and
   * wrote `StartupPolicyInProgress` before the suspension.
   */
  readonly walkBeganVersion?: string;
  /**
   * The oldest comparable resourceVersion of any child Job observation, late ones included: the
   * JobSet had Jobs by then, so an InOrder walk had begun (late-placement.ts `walkBeganBefore`). Absent
   * before JOBSET_FOLD_VERSION .24.
   */
  readonly firstChildVersion?: string;
  /**
   * For an InOrder JobSet jobfold does not run: the comparable resourceVersions of child Job
   * snapshots that showed the Job suspended, late ones included, in order (startup-policy.ts
   * `walkBegunOnLastResumption` reads which suspended Jobs a resumption found). Only those
   * above the newest suspension below `lastResumedVersion` are kept: none older can answer again
   * (suspension-history.ts `suspensionFloor`). Absent before JOBSET_FOLD_VERSION .30.
   */
  readonly suspendedChildVersions?: readonly string[];
  /**
   * The comparable resourceVersions of every JobSet observation that showed it suspended, late
   * ones included, in order; and the newest of one that showed it resumed: where the last
   * resumption lies between suspensions, whatever order they arrived in (startup-policy.ts
   * `walkBegunOnLastResumption`). From the newest suspension below `lastResumedVersion` on only
   * (suspension-history.ts `suspensionFloor`): one round of suspensions, not the JobSet's life. States folded
   * before are read as they are and trimmed at the next JobSet observation that adds to them.
   * Absent before JOBSET_FOLD_VERSION .31.
   */
  readonly suspendedVersions?: readonly string[];
  readonly lastResumedVersion?: string;
  /**
   * The JobSet observations with a comparable resourceVersion, late ones included, in version
   * order: when `spec.suspend` changed (past 64 of them, only each run's first and last are kept:
   * suspension-history.ts `noteJobSetTimeline`). What the spec in
   * force at an instant was (`suspendInForceAt`), whatever order they arrived in. Absent before
   * JOBSET_FOLD_VERSION .32.
   */
  readonly jobSetTimeline?: readonly SeenSpec[];
  /**
   * The JobSet observations the fold took whose `spec.suspend` differs from the one before (the
   * first too), by comparable resourceVersion, with how many conditions stood when each was
   * taken: a condition the cluster wrote on an older spec, seen late, goes before those written
   * on a newer one (late-placement.ts `placeOfLateCondition`).
   */
  readonly specsTaken?: readonly SpecTaken[];
  /**
   * The `restarts` of the last startup walk that wrote `StartupPolicyInProgress` True (each walk,
   * the first and one after every restart, begins with it: startup-policy.ts `walkBegunUnseen`).
   */
  readonly startupWalk?: number;
  /**
   * The last restart decided (not corrected): where it is in the log, when, the attempt it ended,
   * whether it counted towards maxRestarts, and the failed Jobs of that attempt the cluster's
   * controller could have seen then: those the fold held, and those whose failure (before the
   * restart, on the cluster's clock) reached the log after it (shared/jobset/late-failures.ts).
   */
  readonly restartEvidence?: RestartEvidence;
  /** For InOrder: when the cluster showed the Jobs of an attempt started and the attempt failed (walk-evidence.ts). */
  readonly walkEvidence?: WalkEvidence;
  /** The log position of the `JobSetFailed` that failed the JobSet, while it stands. */
  readonly failedDecision?: number;
  /** When the Job that failed decision acted on failed, on the cluster's clock (a correction's `retractedMetAt`). */
  readonly failedDecisionMetAt?: string;
  /**
   * When each child Job seen deleted was (the deletion's `at`), by uid: a late snapshot of one does
   * not bring it back, and what it showed counts for no instant after (walk-evidence.ts).
   */
  readonly deletedChildren?: Readonly<Record<string, string>>;
  readonly conditions: readonly JobSetCondition[];
  readonly restarts: number;
  readonly restartsCountTowardsMax: number;
  readonly terminalState: TerminalState;
}

export function initialState(): JobSetState {
  return {
    position: 0,
    lastObservation: 0,
    jobSet: undefined,
    validationErrors: [],
    rejectionRecorded: false,
    deleted: false,
    children: {},
    conditions: [],
    restarts: 0,
    restartsCountTowardsMax: 0,
    terminalState: '',
  };
}

/**
 * The spec the fold took last (`specsTaken`) among those observed at or before `at`: which
 * `spec.suspend` was in force on the cluster then, as far as the taken specs tell.
 */
export function specTakenBy(state: JobSetState, at: string): SpecTaken | undefined {
  let last: SpecTaken | undefined;
  for (const taken of state.specsTaken ?? []) if (taken.at !== undefined && compareTimes(taken.at, at) <= 0) last = taken;
  return last;
}

/**
 * The times observations showed the JobSet suspended, as far as the specs it took and the late
 * suspended observations it noted tell: every suspended spec taken, `suspendedBefore` and
 * `earliestSuspensionAt` (either may be older than every taken one).
 */
export function suspensionTimesNoted(state: JobSetState): string[] {
  const seen = [...(state.specsTaken ?? []).filter((taken) => taken.suspend).map((taken) => taken.at), state.suspendedBefore, state.earliestSuspensionAt];
  return seen.filter((at): at is string => at !== undefined);
}

/**
 * When the cluster first showed the JobSet suspended, as far as the fold knows: the earliest
 * observation that showed it so, the first suspended spec it took, or a late observation older
 * than the spec it holds (`suspendedBefore`), whichever is earlier (the last two for states folded
 * before JOBSET_FOLD_VERSION .16). Undefined when none says.
 */
export function firstSuspensionSeenAt(state: JobSetState): string | undefined {
  const seen = [state.earliestSuspensionAt, state.specsTaken?.find((spec) => spec.suspend)?.at, state.suspendedBefore];
  return seen.reduce<string | undefined>((first, at) => (at !== undefined && (first === undefined || compareTimes(at, first) < 0) ? at : first), undefined);
}

/** The resourceVersion of the oldest JobSet observation seen suspended, when comparable. */
export function firstSuspensionVersion(state: JobSetState): string | undefined {
  const seen = [state.specsTaken?.find((spec) => spec.suspend)?.version, state.suspendedBeforeVersion];
  return seen.reduce<string | undefined>((first, version) => (version !== undefined && (first === undefined || compareVersions(version, first) < 0) ? version : first), undefined);
}

/**
 * Whether the spec in force on the cluster just before `at` was suspended, by the JobSet
 * observations seen (`jobSetTimeline`): the newest made strictly before it, or in its second at an
 * older resourceVersion than `version` (the snapshot of the finish, when the caller has it: a
 * resumption that let the finishing Job run came before it); else in its second the finish goes
 * first (one pass). Undefined when none was.
 */
export function suspendInForceAt(state: JobSetState, at: string, version?: string): boolean | undefined {
  let inForce: SeenSpec | undefined;
  for (const seen of state.jobSetTimeline ?? []) {
    const order = compareTimes(seen.at, at);
    if (order < 0 || (order === 0 && version !== undefined && compareVersions(seen.version, version) < 0)) inForce = seen;
  }
  return inForce?.suspend;
}

/**
 * Whether the spec in force just before `at` was suspended: by the JobSet observations
 * (`suspendInForceAt`), else by the specs the fold took. Every rule reading the spec at a
 * JobSet's finish reads it here, so no two of them disagree (one writing what the other takes back).
 */
export function suspendedAtInstant(state: JobSetState, at: string, version?: string): boolean | undefined {
  return suspendInForceAt(state, at, version) ?? specTakenBy(state, at)?.suspend;
}

/** Whether the child Job of `uid` was seen deleted. */
export const isDeletedChild = (state: Pick<JobSetState, 'deletedChildren'>, uid: string | undefined): boolean =>
  uid !== undefined && state.deletedChildren?.[uid] !== undefined;
