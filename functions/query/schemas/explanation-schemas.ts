import * as z from 'zod';
import { EvidenceSchema, TerminationCauseSchema } from '../../../shared/job/index.ts';
import { ConditionViewSchema, ObjectIdentitySchema, TimeViewSchema } from './common-schemas.ts';
import { JobOutcomeSchema } from './job-schemas.ts';
import { apiSchemas } from './registry.ts';

// The explanations as the explain routes serve them: the shape every kind shares
// (`explanationSchema`), and a Job's (`explainJob`, shared/job/explain.ts).

const ConditionEvidenceSchema = EvidenceSchema.extend({
  tippedBy: z.number().int().optional().meta({ description: 'Log position of the event that tipped the decision; absent when rebuilt from the state.' }),
}).register(apiSchemas, { id: 'ConditionEvidence', description: 'Why a condition was set: the rule, the pods or indexes, the tipping event.' });

/** An outcome taken back (shared/read-model/explanation.ts `OutcomeCorrection`), the same for every kind. */
const OutcomeCorrectionSchema = z
  .strictObject({
    decidedBy: z.number().int().min(1).optional().meta({ description: 'Log position of the entry that records the correction (a Job\'s JobOutcomeCorrected, a JobSet\'s JobSetOutcomeCorrected; in JobSet logs written before it, the decision that `corrects` another).' }),
    corrects: z.number().int().min(1).optional().meta({ description: 'Log position of the decision taken back, when the log names it.' }),
    at: TimeViewSchema,
    retracted: z.array(z.string()).meta({ description: 'The condition types taken back.' }),
    retractedMetAt: TimeViewSchema.optional().meta({ description: 'When their criterion was met on the cluster\'s clock.' }),
    reason: z.string().meta({ description: 'The reason of what the cluster\'s controller decided instead.' }),
    metAt: TimeViewSchema.optional().meta({ description: 'When its criterion was met on the cluster\'s clock.' }),
  })
  .register(apiSchemas, {
    id: 'OutcomeCorrection',
    description: 'An outcome jobfold decided for an object it does not run and took back: evidence that reached the log later showed the cluster\'s controller decided otherwise.',
  });

/**
 * An explanation as every kind serves it (shared/read-model/explanation.ts): its `kind`, where the
 * object stands (`outcome`, `summary`), each condition with the decision that set it, that
 * decision's evidence and a plain sentence, the validation errors of a rejected spec and the
 * outcomes taken back; then the kind's own fields.
 */
export function explanationSchema<
  Kind extends 'Job' | 'JobSet',
  Outcome extends z.ZodType,
  Evidence extends z.ZodType,
  ConditionExtra extends z.ZodRawShape,
  Extra extends z.ZodRawShape,
>(
  kind: Kind,
  parts: { outcome: Outcome; evidence: Evidence; condition: ConditionExtra; fields: Extra; rejection: string },
) {
  return z.strictObject({
    kind: z.literal(kind),
    outcome: parts.outcome,
    summary: z.string(),
    conditions: z.array(
      z.strictObject({
        ...ConditionViewSchema.shape,
        evidence: parts.evidence.optional(),
        decidedBy: z.number().int().min(1).optional().meta({ description: 'Log position of the decision that set the condition.' }),
        sentence: z.string(),
        ...parts.condition,
      }),
    ),
    rejection: z.array(z.string()).meta({ description: parts.rejection }),
    corrections: z.array(OutcomeCorrectionSchema).optional().meta({ description: 'Outcomes taken back, oldest first; present only when there were some. Each also ends the summary with one sentence.' }),
    ...parts.fields,
  });
}

export const ExplanationSchema = explanationSchema('Job', {
  outcome: JobOutcomeSchema,
  evidence: ConditionEvidenceSchema,
  condition: {
    tippingEvent: z.strictObject({ seq: z.number().int(), type: z.string(), eventId: z.string(), at: TimeViewSchema }).optional(),
  },
  fields: {
    job: ObjectIdentitySchema.optional(),
    terminatedPods: z.array(
      z.strictObject({
        name: z.string(),
        uid: z.string(),
        index: z.number().int().optional(),
        cause: TerminationCauseSchema.optional(),
        reason: z.string().optional(),
        requestedAt: TimeViewSchema,
        decidedBy: z.number().int().optional(),
      }),
    ),
    terminatedPodsNextAfter: z.number().int().optional().meta({
      description: 'Present while the log goes on beyond this page of `terminatedPods`: pass it as `podsAfter`. A page reads a bounded part of the log, so it may hold fewer pods than asked for.',
    }),
    afterFinish: z
      .strictObject({ finishedAt: z.number().int(), observations: z.number().int() })
      .optional()
      .meta({ description: 'Observations that arrived after the Job finished (at log position `finishedAt`): logged, changing nothing reported.' }),
  },
  rejection: 'Validation errors of a rejected Job.',
}).register(apiSchemas, { id: 'Explanation', description: 'Why the Job is where it is, with the evidence jobfold logged.' });
