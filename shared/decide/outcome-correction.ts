import * as z from 'zod';
import { optional, TimeSchema } from '../k8s/schema-helpers.ts';

// A correction in the log, one shape for every kind (issue 20). For an object jobfold does not
// run, its status is jobfold's model of what the cluster's controller did; when evidence that
// reached the log after a decision shows the controller decided otherwise (a criterion met first
// on its clock, failures it read together), jobfold logs the correction as an entry of its own:
// the conditions taken back, as they stood, and both instants. The decision that replaces them is
// an ordinary one, logged right after. A Job's is `JobOutcomeCorrected` (shared/job/outcome-
// correction.ts), a JobSet's `JobSetOutcomeCorrected` (shared/jobset/late-failures.ts, decide.ts
// `completedBeforeFailure`). The entry carries everything its explanation needs, so the read
// model (shared/read-model/explanation.ts `loggedCorrection`) never looks back for the decision
// it corrects: that one may be older than the decisions an explanation reads.

/** A condition taken back, as it stood (batch/v1 Job and JobSet conditions alike). */
export const RetractedConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  reason: z.string(),
  message: z.string(),
  lastTransitionTime: TimeSchema,
});

/** What every kind's correction evidence tells: the observation that tipped it and when the criterion met first was met. */
export const CorrectionEvidenceSchema = z.object({
  /** Log position of the observation that tipped the correction. */
  tippedBy: z.number().int(),
  /** When the cluster's controller met the criterion it decided on instead, on its clock (absent when not told). */
  metAt: optional(TimeSchema),
});
export type CorrectionEvidence = z.infer<typeof CorrectionEvidenceSchema>;

/** The fields of a correction entry, with the kind's evidence (a superset of CorrectionEvidenceSchema). */
export function outcomeCorrectionFields<Evidence extends z.ZodType<CorrectionEvidence>>(evidence: Evidence) {
  return {
    /** The conditions taken back, as they stood. */
    retracted: z.array(RetractedConditionSchema),
    /** When the criterion of the decision taken back was met on the cluster's clock (absent when not told). */
    retractedMetAt: optional(TimeSchema),
    /** Log position of the decision taken back, when the kind names it. */
    corrects: optional(z.number().int().positive()),
    /** The reason and message of what the cluster's controller decided instead. */
    reason: z.string(),
    message: z.string(),
    evidence,
  };
}

type RetractedCondition = z.infer<typeof RetractedConditionSchema>;

/** A correction's fields, as a kind's decider records them. */
export interface OutcomeCorrected<Condition extends RetractedCondition, Evidence extends CorrectionEvidence> {
  readonly retracted: Condition[];
  readonly retractedMetAt?: string;
  readonly corrects?: number;
  readonly reason: string;
  readonly message: string;
  readonly evidence: Evidence;
}

/**
 * Builds a correction: of the conditions standing, those of the `types` taken back; the instant
 * of the decision taken back and the position that logged it, when told.
 */
export function outcomeCorrected<Condition extends RetractedCondition, Evidence extends CorrectionEvidence>(
  standing: readonly Condition[],
  types: readonly string[],
  taken: { readonly retractedMetAt: string | undefined; readonly corrects?: number | undefined },
  instead: { readonly reason: string; readonly message: string; readonly evidence: Evidence },
): OutcomeCorrected<Condition, Evidence> {
  return {
    retracted: standing.filter((condition) => types.includes(condition.type)),
    ...(taken.retractedMetAt === undefined ? {} : { retractedMetAt: taken.retractedMetAt }),
    ...(taken.corrects === undefined ? {} : { corrects: taken.corrects }),
    reason: instead.reason,
    message: instead.message,
    evidence: instead.evidence,
  };
}
