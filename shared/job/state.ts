import type { JobEventCounts } from './job-view-gap.ts';
import { IndexSet } from '../indexes/index-set.ts';
import type { FieldError } from './validation/field-error.ts';
import type { JobCondition } from './conditions.ts';
import type { JobIdentity, JobSettings } from './job-settings.ts';
import type { PodRecord } from './pod-record.ts';
import type { ParallelismAt } from './excess-deletions.ts';
import type { SuspendAt } from './suspension-order.ts';
import type { PodFacts } from './pod-facts.ts';
import type { JobSpec } from '../k8s/job.ts';
import type { ObjectSequence } from '../k8s/object-sequence.ts';
import type { JobStatusView } from './status.ts';
import type { PolicyFailure } from '../policies/pod-failure-policy.ts';
import type { RuleProgress } from '../policies/success-policy.ts';
import { newRun, type Run, type RunChange } from './run.ts';
import { JOBFOLD_DEFAULT_GATES, type FeatureGates } from '../k8s/feature-gates.ts';
import { DEFAULT_CLOCK_SKEW_MS, newClock, type ClusterClock } from './cluster-clock.ts';
import type { PodCounts } from './pod-view-gap.ts';
import type { JobSetSeqRun } from './child-job-status.ts';
import type { ChildStatusInputs } from './child-status-version.ts';
import { newCriterionMemo, type CriterionMemo } from './criterion-instants.ts';
import type { MootCount } from './expectations.ts';

/** Per-deployment settings of the fold, fixed when the Job's log starts. */
export interface FoldConfig {
  readonly gates: FeatureGates;
  /**
   * Validate observed specs and reject invalid Jobs. Off only for the upstream unit-test
   * corpus, whose Jobs are fed to the controller without API validation.
   */
  readonly validateSpecs: boolean;
  /**
   * How far an observation's observedAt may lie after its platform arrival time and still be
   * taken as the cluster's time of the event (cluster-clock.ts); beyond, the arrival stands in.
   * Absent in configs stored before it existed: DEFAULT_CLOCK_SKEW_MS.
   */
  readonly clockSkewMs?: number;
}

export const DEFAULT_FOLD_CONFIG: FoldConfig = { gates: JOBFOLD_DEFAULT_GATES, validateSpecs: true, clockSkewMs: DEFAULT_CLOCK_SKEW_MS };

/** The allowed clock skew of a config (configs stored before the field existed have none). */
export const clockSkewOf = (config: FoldConfig): number => config.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS;

/** A pod the evidence of a decision names. */
export interface PodRef {
  readonly uid: string;
  readonly name: string;
  readonly index?: number;
  readonly seq: number;
}

/**
 * The Job as the fold knows it. Counters and index sets are kept up to date per event so that
 * deciding never rescans the pods. `evolve` updates the state in place and returns it: callers
 * hand over the state they pass in (see shared/job/evolve.ts).
 */
export interface JobState {
  readonly config: FoldConfig;
  identity: JobIdentity | undefined;
  spec: JobSpec | undefined;
  settings: JobSettings | undefined;
  /** Validation errors of the observed spec; a rejected Job is never reconciled. */
  rejected: readonly FieldError[] | undefined;
  /** The rejection was written to the log (decisions are recorded once). */
  rejectionRecorded: boolean;
  /**
   * The latest update the API server would refuse (an immutable field changed, ...). The Job
   * keeps folding under its last valid spec; re-sending that spec or a valid change clears it.
   */
  refusedUpdate: RefusedUpdate | undefined;
  /** The refused update was written to the log as JobUpdateRefused. */
  refusedUpdateRecorded: boolean;
  /** The Job object was deleted in the cluster; its history stays. */
  deleted: boolean;
  /**
   * The first `metadata.deletionTimestamp` observed: the Job is being deleted (foreground
   * deletion waits for its pods). The API server never takes it back, so neither does the fold.
   */
  deletionTimestamp: string | undefined;
  pods: Map<string, PodRecord>;
  nextPodSeq: number;
  /** Log position of the last folded event. */
  position: number;
  counts: {
    active: number;
    ready: number;
    terminating: number;
    /** Restarts of Running/Pending pods, for `restartPolicy: OnFailure`. */
    restartsOfRunningPods: number;
  };
  /** Indexed Jobs: active pods per valid index, and the active pods that must go. */
  activeByIndex: Map<number, number>;
  duplicatedIndexes: Set<number>;
  invalidActive: Set<string>;
  terminatingByIndex: Map<number, number>;
  status: {
    startTime: string | undefined;
    completionTime: string | undefined;
    conditions: JobCondition[];
    /** NonIndexed Jobs count succeeded pods; Indexed Jobs count `completedIndexes`. */
    succeeded: number;
    failed: number;
    completedIndexes: IndexSet;
    failedIndexes: IndexSet;
  };
  /** backoffLimitPerIndex: per index, the failed pod kept uncounted until its replacement. */
  held: Map<number, string>;
  /** Held pods whose failure will count, for the backoffLimit check (`jobCtx.failed`). */
  heldCountable: number;
  successRuleProgress: RuleProgress;
  /** Consecutive failures after the last success, by finish time (`backoffRecord`). */
  backoff: { lastSuccessAt: number | undefined; failureTimes: number[] };
  /** The first failed pod (in listing order) whose pod failure policy match fails the Job. */
  policyFailure: PolicyFailure | undefined;
  /**
   * Pods created or deleted but not observed yet (upstream `ControllerExpectations`), and the
   * indexes the creations were for (an Indexed Job's, one per creation; expectations.ts).
   */
  expectations: { creations: number; deletions: Set<string>; setAt: number | undefined; indexes?: number[] };
  /**
   * Jobs jobfold runs: pods seen deleted before anything said how they ended, and since when
   * (epoch ms). A pod's finalizer goes only once jobfold counted it, so such a deletion arrived
   * ahead of the pod's own events: like an expectation, it holds pod management back until
   * the pod's outcome is seen (or EXPECTATIONS_TIMEOUT_MS passes), so no pod is created for it.
   */
  awaitingOutcome: Map<string, number>;
  /** The forwarder's per-Job count of pod events, as far as the log holds it (pod-view-gap.ts). */
  podCounts: PodCounts | undefined;
  /** The forwarder's count of the Job's own events, held and named by pod events, as far as the log holds it (job-view-gap.ts). */
  jobCounts: JobEventCounts | undefined;
  /**
   * What the counting rules did for pods whose deletion was seen before they were seen
   * finished (counted as failed, as upstream counts a deleted pod that did not succeed): a
   * terminal observation arriving later takes it back and counts the pod by it (observe-pod.ts).
   */
  inferred: Map<string, RunChange[]>;
  /**
   * Pods seen before the Job's spec: the observation (with its observedAt instant) that shows
   * one finished or deleted while it still carried the tracking finalizer, when a newer one shows
   * the finalizer gone. Counted by once the spec is known (observe-pod.ts countByEvidence).
   */
  earlyEvidence: Map<string, { readonly facts: PodFacts; readonly observedAt: number }>;
  /**
   * Pods seen before the Job's spec: the earliest observation showing one being deleted, unfinished,
   * with the tracking finalizer. Whether that ended it as counted (its outcome's instant,
   * pod-record.ts finishedTrackedAt) depends on the spec: not where only Failed pods are replaced.
   * Taken as its instant, or dropped, once the spec is known (observe-pod.ts countKnownPod).
   */
  earlyDeletedTrackedAt: Map<string, number>;
  lastSucceeded: PodRef | undefined;
  /** Count of creation requests so far, for deterministic command ids. */
  creationRequests: number;
  /** For Jobs managed by jobfold: the last status sent to the cluster. */
  lastStatusSent: string | undefined;
  /** Pods whose facts changed since the last sync's count (observe-pod.ts countAtSync). */
  countDue: Set<string>;
  /**
   * The status reported once the Job finished (Complete or Failed): upstream never syncs a
   * finished Job again, so what it reports no longer changes, whatever arrives later.
   */
  finalStatus: JobStatusView | undefined;
  /** Log position where the Job finished; observations after it arrived after the end. */
  finishedAt: number | undefined;
  /**
   * The instant (epoch ms, on the cluster's clock) jobfold decided the Job finished; unset when
   * the cluster reported it finished. A pod outcome that happened before it but arrived after
   * still counts in the final status (evolve.ts).
   */
  finishedInstant?: number;
  /**
   * When the Job met its success criteria on the cluster's clock (observe-pod.ts
   * `forgetDeletionsAfterSuccess`), set with SuccessCriteriaMet (its evidence's `lastSuccessAt`); unset with it when no succeeded
   * pod tells the instant (every deletion is then taken as after).
   */
  successMetAt?: number;
  /**
   * The Job's parallelism over the cluster's clock, one entry per change, oldest first: a pod
   * deleted while a lowering was enacted is taken as its excess deletion (excess-deletions.ts).
   */
  parallelismChanges: ParallelismAt[];
  /**
   * A Job observation older than the spec the fold holds (arriving after it) showed the Job
   * suspended while the spec is not: its controller wrote Suspended=True then, and flipped it to
   * False when the Job was resumed (decide.ts writeSuspended).
   */
  suspendedBefore?: boolean;
  /**
   * The fold held a suspended spec as the Job's: its own syncs decided the Suspended condition
   * then (or, with expectations unsatisfied, rightly wrote none), so an older suspended
   * observation arriving later tells nothing more (no `suspendedBefore`).
   */
  suspendHeld?: boolean;
  /**
   * The earliest instant (ms) an observation showed the Job suspended (held as its spec or
   * stale): when its controller first enacted one. A criterion met before it means the cluster
   * never wrote Suspended=True, one met after it that it did (suspension-order.ts).
   */
  suspensionObservedAt?: number;
  /**
   * The observation that told suspensionObservedAt arrived after later events of the Job (stale,
   * or read when the clock had passed it), or, for a Job jobfold runs, its syncs on it waited for
   * a missing pod event until the resumption came: the controller synced the Job suspended then,
   * and jobfold did not (suspension-order.ts).
   */
  suspensionObservedLate?: true;
  /**
   * The Job's spec.suspend over the cluster's clock, one entry per change, oldest first, from
   * every Job observation (stale ones too): whether a suspension seen before an outcome's
   * criterion had been resumed by then (suspension-order.ts).
   */
  suspendChanges: SuspendAt[];
  /**
   * Jobs jobfold does not run: when the criterion of the interim condition jobfold decided
   * (FailureTarget, SuccessCriteriaMet) was met on the cluster's clock (epoch ms), as the
   * condition's evidence logs it (interim-instants.ts; older logs: as the pods told it when it was
   * folded), so pods archived since need not tell it. Unset for a condition the
   * cluster reported. Evidence of a criterion met earlier corrects the outcome (outcome-correction.ts).
   */
  outcomeMetAt?: number;
  /**
   * Jobs jobfold does not run, finished by jobfold: the pods an observation made at or before
   * the finish instant, arriving after the finish, showed unfinished (late-outcome.ts
   * settleAfterFinish). The cluster's Job was still waiting for them at `FailureTarget` or
   * `SuccessCriteriaMet`: the terminal condition is taken back (outcome-correction.ts
   * `reopenFinish`). Emptied when it is. A set in arrival order: a fold of many such
   * observations before one decide (one informer snapshot) adds each in O(1), where an array
   * copied on each addition was quadratic. The snapshot keeps only those still unfinished
   * (snapshot.ts), a subset of its live pods.
   */
  waitedFor?: Set<string>;
  /**
   * Log positions of the JobOutcomeCorrected entries that took back a terminal condition alone
   * (reopenFinish): no decision is logged right after them in the same reconcile, so a reader
   * citing only what an explanation needs finds them here (functions/query/job-explanation.ts).
   */
  reopenedBy?: number[];
  /** Observations folded after the Job finished (still logged, changing nothing reported). */
  observedAfterFinish: number;
  /** The forwarder's stamp of the newest Job observation folded (see observe-job.ts). */
  jobOrder: ObjectSequence | undefined;
  /**
   * When the spec the fold holds was observed (epoch ms, cluster-clock.ts), if that was before
   * the newest instant read when it arrived (it arrived late): a new or resumed Job started then.
   */
  specObservedAt?: number;
  /** The resourceVersion of the newest Job observation folded, when comparable (KEP-5504). */
  jobVersion?: string;
  /** eventId of the last Job observation folded (not stale): the log writer drops it re-sent. */
  jobEventId?: string;
  /** When the newest Job observation with a trusted stamp happened on the cluster's clock (cluster-clock.ts): the writer drops an unordered one observed before. */
  jobObservedAt?: string;
  /** The cluster's clock as the fold read it (cluster-clock.ts): when reconciles run. */
  clock: ClusterClock;
  /** observedAt of the newest Tick folded: the log writer drops a Tick at or before it. */
  lastTickAt?: string;
  /** observedAt of the newest observation folded (Ticks included): the log writer's dedupe. */
  newestObservedAt?: string;
  /**
   * What a JobSet reads of this Job's status (child-status-version.ts), and how many times it
   * changed: a status that comes back to an earlier value is news again for the JobSet.
   */
  /** The key as restored or last settled; a live Job's current one is built from childStatusInputs (childStatusKeyOf). */
  childStatusKey: string;
  childStatusVersion: number;
  /** The forwarder's `jobSetSeq` of the Job events folded at the newest instant that had any (child-job-status.ts). */
  jobSetSeq?: JobSetSeqRun;
  /** What a live Job's key is made of, kept up to date in place (child-status-version.ts); not persisted. */
  childStatusInputs: ChildStatusInputs | undefined;
  /** The criteria's instants decide asked for, while still true (criterion-instants.ts); not persisted. */
  criterionMemo: CriterionMemo;
  /** The count of moot creations expectedCreations made, while still true (expectations.ts); not persisted. */
  mootMemo: MootCount | undefined;
  /**
   * No pod record was first seen later than this (pod-record.ts firstSeenAt; -Infinity: none):
   * while it is not past the cluster's finish floor, no pod can be one the cluster never saw,
   * and a waiting Job need not walk its pods (cluster-finish.ts). Not persisted: a restore takes
   * it from the pods it puts back (notePodFirstSeen).
   */
  newestPodFirstSeen: number;
  /**
   * The latest instant any archived pod of the snapshot this state was restored from was seen at
   * (finish-walk.ts archivedPodInstant; -Infinity: none, or every archived pod is in the state;
   * undefined: unknown, a snapshot older than the field). A fold from that snapshot whose tail
   * crosses the finish of a Job jobfold does not run needs its archived pods only when one of them
   * was seen after the criterion's instant (finish-walk.ts). Persisted in the snapshot.
   */
  archivedPodsUntil: number | undefined;
  /**
   * Keys of pods the last walk of clusterFinishInstant found holding the Job (seen by the
   * cluster's finish floor, unfinished), newest last: while one still holds, the walk need not
   * run again. A hint, checked against the pod's current record at each use; not persisted.
   */
  finishHolders: string[];
  /**
   * The run of observations being folded (one observedAt, what one sync reads; see run.ts): its
   * time, and what its observations of each pod made the counting rules change.
   */
  run: Run;
}

/** An update refused as the API server refuses it, with upstream's field errors. */
export interface RefusedUpdate {
  readonly errors: readonly FieldError[];
  /** stableHash of the refused spec: the same refused spec sent again is not news. */
  readonly specHash: string;
  readonly eventId: string;
  readonly observedAt: string;
}

export function initialState(config: FoldConfig = DEFAULT_FOLD_CONFIG): JobState {
  return {
    config,
    identity: undefined,
    spec: undefined,
    settings: undefined,
    rejected: undefined,
    rejectionRecorded: false,
    refusedUpdate: undefined,
    refusedUpdateRecorded: false,
    deleted: false,
    deletionTimestamp: undefined,
    pods: new Map(),
    nextPodSeq: 0,
    position: 0,
    counts: { active: 0, ready: 0, terminating: 0, restartsOfRunningPods: 0 },
    activeByIndex: new Map(),
    duplicatedIndexes: new Set(),
    invalidActive: new Set(),
    terminatingByIndex: new Map(),
    status: {
      startTime: undefined,
      completionTime: undefined,
      conditions: [],
      succeeded: 0,
      failed: 0,
      completedIndexes: IndexSet.empty(),
      failedIndexes: IndexSet.empty(),
    },
    held: new Map(),
    heldCountable: 0,
    successRuleProgress: [],
    backoff: { lastSuccessAt: undefined, failureTimes: [] },
    policyFailure: undefined,
    expectations: { creations: 0, deletions: new Set(), setAt: undefined },
    awaitingOutcome: new Map(),
    podCounts: undefined,
    jobCounts: undefined,
    inferred: new Map(),
    earlyEvidence: new Map(),
    earlyDeletedTrackedAt: new Map(),
    lastSucceeded: undefined,
    creationRequests: 0,
    lastStatusSent: undefined,
    countDue: new Set(),
    finalStatus: undefined,
    finishedAt: undefined,
    parallelismChanges: [],
    suspendChanges: [],
    observedAfterFinish: 0,
    jobOrder: undefined,
    clock: newClock(),
    childStatusKey: '',
    childStatusVersion: 0,
    childStatusInputs: undefined,
    criterionMemo: newCriterionMemo(),
    mootMemo: undefined,
    newestPodFirstSeen: -Infinity,
    archivedPodsUntil: -Infinity,
    finishHolders: [],
    run: newRun(),
  };
}
