// What a what-if reports (`jobfold whatif --json`, POST …/whatif): the recorded outcome, the
// patched fold's outcome, and where the two folds first decided differently.

export type Outcome = 'Succeeded' | 'Failed' | 'Running';

/** How a Job ended (or not): the condition that decided it, and where in the log. */
export interface OutcomeView {
  readonly outcome: Outcome;
  /** The condition that settled the outcome: SuccessCriteriaMet, FailureTarget (or Complete/Failed when set directly). */
  readonly condition: string | null;
  readonly reason: string | null;
  /** Position (seq) in the Job's log of the event the deciding reconcile had read last. */
  readonly atEvent: number | null;
  /** When it was decided (RFC 3339). */
  readonly at: string | null;
  /** Pods terminated because the Job finished (causes JobFinishing, JobFinished). */
  readonly podsTerminated: number;
}

/** One thing a fold decided, in the words the divergence is reported in. */
export type DecisionSummary =
  | { readonly kind: 'condition'; readonly type: string; readonly status: string; readonly reason: string; readonly message: string }
  | { readonly kind: 'termination'; readonly cause: string; readonly pods: readonly string[] }
  | { readonly kind: 'creation'; readonly count: number; readonly indexes?: readonly number[] }
  | { readonly kind: 'startTime'; readonly startTime: string }
  | { readonly kind: 'rejection'; readonly errors: readonly string[] }
  | { readonly kind: 'pod'; readonly pod: string; readonly counted: string; readonly failed: number; readonly succeeded: number; readonly failedIndexes: string; readonly completedIndexes: string };

/** The first point where the patched fold decided something the recorded one did not. */
export interface Divergence {
  readonly atEvent: number;
  readonly at: string;
  /** An observation counted differently (`pod`), or a reconcile decided differently. */
  readonly by: 'observation' | 'reconcile';
  readonly recorded: readonly DecisionSummary[];
  readonly whatIf: readonly DecisionSummary[];
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

export interface WhatIfReport {
  readonly recorded: OutcomeView;
  readonly whatIf: OutcomeView & { readonly exact: boolean };
  readonly divergesAtEvent: number | null;
  readonly divergence: Divergence | null;
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

export const RUNNING: OutcomeView = { outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, podsTerminated: 0 };
