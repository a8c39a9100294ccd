import { z } from 'zod';
import { EvidenceSchema, TerminationCauseSchema } from '../../../shared/job/decisions.ts';
import { ObjectIdentitySchema, TimeViewSchema } from './common-schemas.ts';
import { JobOutcomeSchema } from './job-schemas.ts';
import { apiSchemas } from './registry.ts';

// `explainJob` (shared/job/explain.ts) as the explain route serves it.

const ConditionEvidenceSchema = EvidenceSchema.extend({
  tippedBy: z.number().int().optional().meta({ description: 'Log position of the event that tipped the decision; absent when rebuilt from the state.' }),
}).register(apiSchemas, { id: 'ConditionEvidence', description: 'Why a condition was set: the rule, the pods or indexes, the tipping event.' });

export const ExplanationSchema = z
  .strictObject({
    kind: z.literal('Job'),
    job: ObjectIdentitySchema.optional(),
    outcome: JobOutcomeSchema,
    summary: z.string(),
    conditions: z.array(
      z.strictObject({
        type: z.string(),
        status: z.string(),
        reason: z.string(),
        message: z.string(),
        lastTransitionTime: TimeViewSchema,
        lastProbeTime: TimeViewSchema.optional(),
        evidence: ConditionEvidenceSchema.optional(),
        decidedBy: z.number().int().optional().meta({ description: 'Log position of the decision that set the condition.' }),
        tippingEvent: z
          .strictObject({ seq: z.number().int(), type: z.string(), eventId: z.string(), at: TimeViewSchema })
          .optional(),
        sentence: z.string(),
      }),
    ),
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
    rejection: z.array(z.string()).meta({ description: 'Validation errors of a rejected Job.' }),
  })
  .register(apiSchemas, { id: 'Explanation', description: 'Why the Job is where it is, with the evidence jobfold logged.' });
