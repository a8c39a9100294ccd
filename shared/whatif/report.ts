// What a what-if reports (`jobfold whatif --json`, POST …/{jobs,jobsets}/{name}/whatif), for
// every kind the same shape: the recorded outcome, the patched fold's outcome, and where the two
// folds first decided differently, each side's decisions there in the kind's words. A Job adds
// the pod time the patch saves and whether its record replays exactly; a JobSet's log holds no
// pods, so what changes is its outcome, when, and how many restarts it took.

export type Outcome = 'Succeeded' | 'Failed' | 'Running';

/** How the object ended (or not): the condition that decided it, and where in the log. */
export interface OutcomeOf {
  readonly outcome: Outcome;
  /** The condition that settled the outcome: SuccessCriteriaMet, FailureTarget (or Complete/Failed when set directly); a JobSet's Completed or Failed. */
  readonly condition: string | null;
  readonly reason: string | null;
  /** Position (seq) in the log of the event the deciding reconcile had read last. */
  readonly atEvent: number | null;
  /** When it was decided (RFC 3339). */
  readonly at: string | null;
}

/** A Job's outcome, with the pods terminated because it finished (causes JobFinishing, JobFinished). */
export interface OutcomeView extends OutcomeOf {
  readonly podsTerminated: number;
}

/** A JobSet's outcome, with its global restarts decided before it (or before the what-if stops). */
export interface JobSetOutcomeView extends OutcomeOf {
  readonly restarts: number;
}

/** One thing the Job fold decided, in the words the divergence is reported in. */
export type DecisionSummary =
  | { readonly kind: 'condition'; readonly type: string; readonly status: string; readonly reason: string; readonly message: string }
  | { readonly kind: 'termination'; readonly cause: string; readonly reason: string; readonly pods: readonly string[] }
  | { readonly kind: 'creation'; readonly count: number; readonly indexes?: readonly number[] }
  | { readonly kind: 'startTime'; readonly startTime: string }
  | { readonly kind: 'correction'; readonly retracted: readonly string[]; readonly reason: string }
  | { readonly kind: 'rejection'; readonly errors: readonly string[] }
  | { readonly kind: 'pod'; readonly pod: string; readonly counted: string; readonly failed: number; readonly succeeded: number; readonly failedIndexes: string; readonly completedIndexes: string };

/** One thing the JobSet fold decided, with its why: the rule and the child Job it acted on. */
export type JobSetDecisionSummary =
  | { readonly kind: 'failed'; readonly rule: string; readonly failedJob: string; readonly jobReason: string; readonly reason: string }
  | { readonly kind: 'restarted'; readonly rule: string; readonly action: string; readonly failedJob: string; readonly jobReason: string; readonly restarts: number }
  | { readonly kind: 'completed'; readonly operator: string; readonly succeededJobs: number; readonly required: number; readonly reason: string }
  | { readonly kind: 'condition'; readonly type: string; readonly status: string; readonly reason: string }
  | { readonly kind: 'correction'; readonly retracted: readonly string[]; readonly reason: string }
  | { readonly kind: 'rejected'; readonly errors: readonly string[] }
  | { readonly kind: 'createJob' | 'deleteJob' | 'suspendJob' | 'resumeJob'; readonly job: string }
  | { readonly kind: 'deleteJobSet'; readonly expiredAt: string }
  | { readonly kind: 'released'; readonly job: string; readonly count: number | undefined };

/** The first point where the patched fold decided something the recorded one did not. */
export interface DivergenceOf<Summary, By extends 'observation' | 'reconcile' = 'observation' | 'reconcile'> {
  readonly atEvent: number;
  readonly at: string;
  /** An observation counted differently (a Job's `pod`), or a reconcile decided differently. */
  readonly by: By;
  readonly recorded: readonly Summary[];
  readonly whatIf: readonly Summary[];
}

export type Divergence = DivergenceOf<DecisionSummary>;
export type JobSetDivergence = DivergenceOf<JobSetDecisionSummary, 'reconcile'>;

/** The report every kind gives: the two outcomes and the divergence. */
interface ReportOf<Kind extends 'Job' | 'JobSet', View extends OutcomeOf, D> {
  readonly kind: Kind;
  readonly recorded: View;
  readonly whatIf: View & { readonly exact: boolean };
  readonly divergesAtEvent: number | null;
  readonly divergence: D | null;
}

/**
 * Where the record's own spec, refolded, decided other than the record holds: the log cannot
 * be replayed exactly (recorded by another fold version, or under other settings), so nothing
 * the what-if says about this Job is evidence.
 */
export interface ReplayMismatch {
  readonly atEvent: number;
  readonly at: string;
  /** What the log holds at that reconcile (empty: the record decided nothing there). */
  readonly recorded: readonly DecisionSummary[];
  /** What the refold under the recorded spec decided there. */
  readonly refold: readonly DecisionSummary[];
}

export interface WhatIfReport extends ReportOf<'Job', OutcomeView, Divergence> {
  /**
   * Recorded pod time the patched world does without: after an outcome the what-if reaches at
   * the divergence, every recorded pod's time past it (the pods it terminates there, the pods
   * the record started later); else the pods it terminates at the divergence, from then to
   * their recorded end; and the whole time of pods of indexes it failed (never created there).
   */
  readonly podSecondsSaved: number;
  /** Pods the record terminated at the divergence and the what-if kept: their cost is unknown. */
  readonly podsKeptUnknown: number;
  /** Null when refolding the record under its own spec decides what the record holds (up to where the what-if read). */
  readonly replayMismatch: ReplayMismatch | null;
}

export type JobSetWhatIfReport = ReportOf<'JobSet', JobSetOutcomeView, JobSetDivergence>;

/** A what-if of either kind, told apart by `kind`. */
export type AnyWhatIfReport = WhatIfReport | JobSetWhatIfReport;
