import * as z from 'zod';
import { apiSchemas } from './registry.ts';

// The what-if reports (shared/whatif/report.ts, shared/whatif/fleet.ts) as the routes serve them.

const OutcomeFields = {
  outcome: z.enum(['Succeeded', 'Failed', 'Running']),
  condition: z.string().nullable(), // each kind names its conditions
  reason: z.string().nullable(),
  atEvent: z.number().int().nullable().meta({ description: 'Log position (seq) of the event the deciding reconcile had read last.' }),
  at: z.string().nullable().meta({ description: 'When it was decided (RFC 3339).' }),
};

/**
 * A what-if report as every kind serves it (shared/whatif/report.ts): the recorded outcome and
 * the patched fold's, side by side, and the divergence with each side's decisions there in the
 * kind's words; then the kind's own fields.
 */
function whatIfReportSchema<Kind extends 'Job' | 'JobSet', By extends z.ZodType, Outcome extends z.ZodRawShape, Extra extends z.ZodRawShape>(
  kind: Kind,
  parts: { outcome: Outcome; decision: z.ZodType; by: By; fields: Extra },
) {
  const outcome = { ...OutcomeFields, ...parts.outcome };
  return z.strictObject({
    kind: z.literal(kind),
    recorded: z.strictObject(outcome),
    whatIf: z.strictObject({ ...outcome, exact: z.boolean().meta({ description: 'False: the outcome is unknown past the divergence.' }) }),
    divergesAtEvent: z.number().int().nullable(),
    divergence: z
      .strictObject({ atEvent: z.number().int(), at: z.string(), by: parts.by, recorded: z.array(parts.decision), whatIf: z.array(parts.decision) })
      .nullable(),
    ...parts.fields,
  });
}

const DecisionSummarySchema = z
  .object({ kind: z.enum(['condition', 'termination', 'creation', 'startTime', 'rejection', 'pod']) })
  .catchall(z.unknown())
  .register(apiSchemas, { id: 'WhatIfDecision', description: 'One thing a fold decided at the divergence: a condition, a termination, a creation, or how a pod was counted.' });

export const WhatIfReportSchema = whatIfReportSchema('Job', {
  outcome: {
    condition: z.string().nullable().meta({ description: 'The condition that settled the outcome (SuccessCriteriaMet, FailureTarget, …).' }),
    podsTerminated: z.number().int().meta({ description: 'Pods terminated because the Job finished.' }),
  },
  decision: DecisionSummarySchema,
  by: z.enum(['observation', 'reconcile']),
  fields: {
    podSecondsSaved: z.number().meta({ description: 'Recorded pod time the patched world does without: past an outcome it settles at the divergence, every pod\'s; else the pods it terminates there; and pods of indexes it failed (docs/whatif.md).' }),
    podsKeptUnknown: z.number().int().meta({ description: 'Pods the record terminated at the divergence and the what-if kept (their cost is unknown).' }),
    replayMismatch: z
      .strictObject({
        atEvent: z.number().int(),
        at: z.string(),
        recorded: z.array(DecisionSummarySchema),
        refold: z.array(DecisionSummarySchema),
      })
      .nullable()
      .meta({ description: 'Where the record, refolded under its own spec, decided other than the log holds (null: it replays exactly). Nothing the what-if says about such a Job is evidence.' }),
  },
}).register(apiSchemas, { id: 'WhatIfReport', description: 'A Job refolded under a patched spec, next to its record (docs/whatif.md).' });

const JobSetDecisionSummarySchema = z
  .object({ kind: z.enum(['failed', 'restarted', 'completed', 'condition', 'correction', 'rejected', 'createJob', 'deleteJob', 'suspendJob', 'resumeJob', 'deleteJobSet']) })
  .catchall(z.unknown())
  .register(apiSchemas, { id: 'JobSetWhatIfDecision', description: 'One thing the JobSet fold decided at the divergence, with the rule and the child Job it acted on.' });

export const JobSetWhatIfReportSchema = whatIfReportSchema('JobSet', {
  outcome: {
    condition: z.string().nullable().meta({ description: 'The condition that settled the outcome: Completed or Failed.' }),
    restarts: z.number().int().meta({ description: 'Global restarts decided before the outcome (or before the what-if stops).' }),
  },
  decision: JobSetDecisionSummarySchema,
  by: z.literal('reconcile'),
  fields: {},
}).register(apiSchemas, { id: 'JobSetWhatIfReport', description: 'A JobSet refolded under a patched spec, next to its record (docs/whatif.md).' });

export const FleetWhatIfPageSchema = z
  .strictObject({
    tally: z.strictObject({
      jobs: z.number().int(),
      outcomeChanged: z.number().int(),
      outcomeUnknown: z.number().int(),
      decidedEarlier: z.number().int(),
      decidedLater: z.number().int(),
      podSecondsSaved: z.number(),
      skipped: z.number().int(),
      notReplayable: z.number().int().meta({ description: 'Jobs whose record does not replay exactly under its own spec: counted here only, in no other figure.' }),
      changed: z.array(
        z.strictObject({
          cluster: z.string(),
          namespace: z.string(),
          name: z.string(),
          uid: z.string(),
          recorded: z.string(),
          whatIf: z.string(),
          divergesAtEvent: z.number().int(),
          at: z.string(),
          podSecondsSaved: z.number(),
        }),
      ),
    }),
    skippedBecause: z.string().optional(),
    nextCursor: z.string().optional(),
  })
  .register(apiSchemas, { id: 'FleetWhatIfPage', description: 'One page of the fleet what-if; sum the tallies and follow nextCursor.' });

export const AuditPageSchema = z
  .strictObject({
    format: z.literal('jobfold-audit/1'),
    job: z.strictObject({ kind: z.enum(['Job', 'JobSet']), clusterId: z.string(), namespace: z.string(), name: z.string(), uid: z.string() }),
    spec: z.unknown().meta({ description: 'The spec the Job was first observed with.' }),
    fold: z.strictObject({ version: z.string(), gates: z.record(z.string(), z.boolean()) }),
    entries: z.array(
      z.strictObject({
        seq: z.number().int(),
        eventId: z.string(),
        type: z.string(),
        observedAt: z.string(),
        recordedAt: z.string(),
        body: z.unknown(),
        hash: z.string().optional().meta({ description: 'hex SHA-256 over the previous entry\'s hash and this entry\'s canonical JSON.' }),
      }),
    ),
    head: z.number().int(),
    nextAfter: z.number().int().optional(),
  })
  .register(apiSchemas, { id: 'AuditPage', description: 'One page of a Job\'s audit export (docs/audit.md).' });
