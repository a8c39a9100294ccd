import type { CorrectionEvidence, OutcomeCorrected } from '../decide/outcome-correction.ts';

// The read model every kind shares. A Job's (shared/job/explain.ts) and a JobSet's
// (shared/jobset/explain.ts) explanation say the same things: where the object stands in one
// word (its outcome), one sentence, and per condition the decision that set it, the evidence that
// decision logged and a plain sentence. Each kind adds its own sections (terminated pods,
// restarts and decisions). The printers (shared/print) and the API's schemas
// (functions/query/schemas/explanation-schemas.ts) are written once over this shape.

/** A condition as the Kubernetes API writes it (batch/v1 Job and JobSet conditions alike). */
export interface ConditionFields {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
}

/** One condition with the decision that set it, that decision's evidence and a plain sentence. */
export interface ExplainedCondition<Evidence> extends ConditionFields {
  /** What the decision logged; rebuilt from the state as far as it goes when the log lacks it. */
  readonly evidence: Evidence | undefined;
  /** Log position of the decision that set the condition, when the log holds it. */
  readonly decidedBy: number | undefined;
  readonly sentence: string;
}

/**
 * An outcome jobfold decided and later took back, for a kind it does not run: evidence that
 * reached the log after the decision showed that the cluster's controller decided otherwise (a
 * criterion met first on the cluster's clock, or a failure it had read). Both kinds log it as an
 * entry of its own, one shape (shared/decide/outcome-correction.ts): a Job's `JobOutcomeCorrected`,
 * a JobSet's `JobSetOutcomeCorrected` (read by `loggedCorrection`). A JobSet log written before
 * JOBSET_FOLD_VERSION .10 has a decision that `corrects` an earlier one instead
 * (shared/jobset/explain.ts `jobSetCorrection`). All read the same here.
 */
export interface OutcomeCorrection {
  /** Log position of the entry that records the correction. */
  readonly decidedBy: number | undefined;
  /** Log position of the decision taken back, when the log names it. */
  readonly corrects?: number;
  readonly at: string;
  /** The condition types taken back, and when their criterion was met on the cluster's clock. */
  readonly retracted: readonly string[];
  readonly retractedMetAt: string | undefined;
  /** The reason of what the cluster's controller decided instead, and when its criterion was met. */
  readonly reason: string;
  readonly metAt: string | undefined;
}

/**
 * A logged correction entry, any kind's, as the correction every kind reports: everything is on
 * the entry, so the decision it corrects need not be among those read.
 */
export function loggedCorrection(decidedBy: number | undefined, at: string, entry: OutcomeCorrected<ConditionFields, CorrectionEvidence>): OutcomeCorrection {
  return {
    decidedBy,
    ...(entry.corrects === undefined ? {} : { corrects: entry.corrects }),
    at,
    retracted: entry.retracted.map((c) => c.type),
    retractedMetAt: entry.retractedMetAt,
    reason: entry.reason,
    metAt: entry.evidence.metAt,
  };
}

/** Why an object stands where it does: the part of every kind's explanation that is the same. */
export interface ExplanationOf<Kind extends 'Job' | 'JobSet', Outcome extends string, Evidence> {
  readonly kind: Kind;
  readonly outcome: Outcome;
  readonly summary: string;
  readonly conditions: readonly ExplainedCondition<Evidence>[];
  /** Validation errors of a rejected spec (upstream's messages). */
  readonly rejection: readonly string[];
  /** Outcomes taken back, oldest first; present only when there were some. */
  readonly corrections?: readonly OutcomeCorrection[];
}

/** The audit of a correction, in one sentence (appended to the summary): what was taken back, and the earlier evidence. */
export function correctionSentence(correction: OutcomeCorrection): string {
  const taken = correction.retracted.join(' and ');
  const decided = correction.retractedMetAt === undefined ? '' : ` (its criterion met at ${correction.retractedMetAt})`;
  const corrected = correction.corrects === undefined ? '' : `, decided at #${correction.corrects},`;
  const first =
    correction.metAt !== undefined && correction.metAt === correction.retractedMetAt
      ? `met at the same instant, which the controller's sync checks first`
      : `met first on the cluster's clock${correction.metAt === undefined ? '' : `, at ${correction.metAt}`}`;
  return ` jobfold took back ${taken}${corrected}${decided} at ${correction.at}: evidence that arrived later showed ${correction.reason} ${first}.`;
}

/** The explanation in brief, as an object's view carries it: outcome, summary, one sentence per condition. */
export interface ExplanationBrief<Outcome extends string> {
  outcome: Outcome;
  summary: string;
  conditions: { type: string; status: string; reason: string; sentence: string }[];
  rejection: string[];
}

export function briefOf<Outcome extends string>(explanation: ExplanationOf<'Job' | 'JobSet', Outcome, unknown>): ExplanationBrief<Outcome> {
  return {
    outcome: explanation.outcome,
    summary: explanation.summary,
    conditions: explanation.conditions.map(({ type, status, reason, sentence }) => ({ type, status, reason, sentence })),
    rejection: [...explanation.rejection],
  };
}

/** `1 pod`, `3 pods`. */
export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
