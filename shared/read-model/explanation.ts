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

/** Why an object stands where it does: the part of every kind's explanation that is the same. */
export interface ExplanationOf<Kind extends 'Job' | 'JobSet', Outcome extends string, Evidence> {
  readonly kind: Kind;
  readonly outcome: Outcome;
  readonly summary: string;
  readonly conditions: readonly ExplainedCondition<Evidence>[];
  /** Validation errors of a rejected spec (upstream's messages). */
  readonly rejection: readonly string[];
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
