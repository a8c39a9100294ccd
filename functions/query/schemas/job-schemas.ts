import * as z from 'zod';
import { FinalizerRemovalCauseSchema, TerminationCauseSchema } from '../../../shared/job/index.ts';
import { PodFailurePolicySchema, SuccessPolicySchema } from '../../../shared/k8s/job.ts';
import { ConditionViewSchema, ExplanationBriefSchema, LogHeadSchema, ObjectIdentitySchema, TimeViewSchema } from './common-schemas.ts';
import { apiSchemas } from './registry.ts';

// The Job routes' responses: the fleet list, the Job view, and the status at a point in time.

const count = z.number().int().min(0);

export const JobSummarySchema = z
  .strictObject({
    kind: z.enum(['Job', 'JobSet']),
    clusterId: z.string(),
    namespace: z.string(),
    name: z.string(),
    uid: z.string(),
    latestCondition: z
      .strictObject({
        type: z.string(),
        status: z.string(),
        reason: z.string().optional(),
        message: z.string().optional(),
        lastTransitionTime: TimeViewSchema.optional(),
      })
      .optional()
      .meta({ description: 'The last condition set (`Rejected` for a Job whose spec failed validation).' }),
    finishedAt: TimeViewSchema.optional().meta({ description: 'When Complete or Failed became True.' }),
    createdAt: TimeViewSchema.meta({ description: 'metadata.creationTimestamp: the list is ordered by it, newest first.' }),
    updatedAt: TimeViewSchema,
    stalled: z
      .strictObject({ error: z.string(), since: TimeViewSchema })
      .optional()
      .meta({ description: 'Set while the Job cannot be decided: every reconcile fails with this error (alarm: stalled Jobs).' }),
    refusedUpdate: z
      .strictObject({ eventId: z.string(), errors: z.array(z.string()) })
      .optional()
      .meta({ description: 'The latest update the API server would refuse; the Job folds under its last valid spec.' }),
    deleted: z
      .boolean()
      .optional()
      .meta({ description: 'True once the object was deleted in its cluster (its history stays). A name shows an object not deleted first, then the newest creationTimestamp, then the latest arrival.' }),
  })
  .register(apiSchemas, { id: 'JobSummary', description: 'One row of the fleet view: a Job, or a JobSet in `GET /v1/jobsets`.' });

export const JobListSchema = z
  .strictObject({
    items: z.array(JobSummarySchema),
    nextCursor: z.string().optional().meta({ description: 'Present when there may be more: pass it as `cursor`.' }),
  })
  .register(apiSchemas, { id: 'JobList', description: 'One page of the fleet list (of Jobs, or of JobSets).' });

export const JobStatusViewSchema = z
  .strictObject({
    conditions: z.array(ConditionViewSchema),
    startTime: TimeViewSchema.nullable(),
    completionTime: TimeViewSchema.nullable(),
    active: count,
    ready: count,
    terminating: count,
    succeeded: count,
    failed: count,
    completedIndexes: z.string(),
    failedIndexes: z.string().nullable().meta({ description: 'null unless backoffLimitPerIndex is set.' }),
  })
  .register(apiSchemas, { id: 'JobStatus', description: 'batch/v1 JobStatus as jobfold computes it.' });

export const JobSpecViewSchema = z
  .strictObject({
    completionMode: z.enum(['NonIndexed', 'Indexed']),
    parallelism: count,
    completions: count.nullable().meta({ description: 'null for a work-queue Job.' }),
    backoffLimit: count,
    backoffLimitPerIndex: count.nullable(),
    maxFailedIndexes: count.nullable(),
    activeDeadlineSeconds: z.number().int().nullable(),
    suspend: z.boolean(),
    managedBy: z.string().nullable(),
    podReplacementPolicy: z.string().nullable(),
    successPolicy: SuccessPolicySchema.nullable(),
    podFailurePolicy: PodFailurePolicySchema.nullable(),
  })
  .register(apiSchemas, { id: 'JobSpecSummary', description: 'The spec fields the fold works with, batch/v1 defaults applied.' });

const issued = {
  seq: z.number().int().min(1),
  at: TimeViewSchema,
  dispatched: z.boolean().meta({
    description:
      "Put in the outbox with the decision, to be published to the cluster's command queue; false when only computed and logged (a Job jobfold does not manage). Not a sign of delivery: see `observed`.",
  }),
};
const observedCount = z.number().int().min(0);
const observed = (what: string) =>
  z
    .strictObject({
      count: observedCount.meta({ description: `Pods ${what}.` }),
      of: observedCount.meta({ description: 'Pods the decision named.' }),
      lastSeq: z.number().int().min(1).optional().meta({ description: 'The latest such observation.' }),
      lastAt: TimeViewSchema.optional(),
    })
    .meta({
      description:
        `What the cluster reported after the decision: pods ${what}. jobfold records no acknowledgement from the forwarder; this is the only sign of the command's effect in the log, and a sign only.`,
    });

export const IssuedCommandSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('TerminatePod'),
      ...issued,
      cause: TerminationCauseSchema,
      reason: z.string(),
      message: z.string(),
      pods: z.array(z.strictObject({ name: z.string(), uid: z.string(), index: z.number().int().optional() })),
      observed: observed('later observed with a deletionTimestamp or deleted (by this command or by anyone else)'),
    }),
    z.strictObject({
      type: z.literal('CreatePod'),
      ...issued,
      count: z.number().int().min(1),
      indexes: z.array(z.number().int().min(0)).optional(),
      observed: observed("later observed carrying one of the decision's command ids in the `jobfold.io/command-id` annotation, which the forwarder sets on the pods it creates"),
    }),
    z.strictObject({ type: z.literal('UpdateJobStatus'), ...issued, hash: z.string() }),
    z.strictObject({
      type: z.literal('RemovePodFinalizer'),
      ...issued,
      pods: z.array(
        z.strictObject({
          name: z.string(),
          uid: z.string(),
          index: z.number().int().optional(),
          cause: FinalizerRemovalCauseSchema.optional().meta({
            description: 'Why its finalizer goes, which the forwarder checks on the live pod (docs/forwarder.md); absent in logs written before FOLD .67.',
          }),
        }),
      ),
      observed: observed('later observed without the `batch.kubernetes.io/job-tracking` finalizer, or deleted'),
    }),
  ])
  .register(apiSchemas, { id: 'IssuedCommand', description: 'Commands one logged decision issued (seq: the decision\'s log position).' });

export const JobOutcomeSchema = z
  .enum(['Unknown', 'Rejected', 'Pending', 'Running', 'Suspended', 'Succeeding', 'Failing', 'Succeeded', 'Failed'])
  .register(apiSchemas, { id: 'JobOutcome', description: 'Where the Job stands, in one word.' });

export const JobViewSchema = z
  .strictObject({
    job: ObjectIdentitySchema.extend({ creationTimestamp: TimeViewSchema.optional() }),
    deleted: z.boolean().meta({ description: 'The Job was deleted in its cluster; its history stays.' }),
    spec: JobSpecViewSchema.nullable(),
    status: JobStatusViewSchema,
    commands: z.array(IssuedCommandSchema).meta({
      description: 'The commands decided at log positions from `commandsFrom` on, in log order.',
    }),
    commandsFrom: z.number().int().min(1).meta({
      description:
        'The first log position `commands` covers: 1 (every command) unless the log is longer than 5,000 entries '
        + 'or its commands name more than 5,000 pods; then the last 5,000 entries, ending (at a whole decision) '
        + 'where the commands would name more than 5,000 pods, and the earlier commands are in `…/history` '
        + '(category `command`) and the terminated pods in `…/explain` (paged).',
    }),
    explanation: ExplanationBriefSchema(JobOutcomeSchema),
    log: LogHeadSchema,
    refusedUpdate: z
      .strictObject({
        eventId: z.string(),
        observedAt: TimeViewSchema,
        errors: z.array(z.strictObject({ field: z.string(), type: z.string(), message: z.string() })),
      })
      .nullable()
      .meta({ description: 'The latest update the API server would refuse; the Job folds under its last valid spec (shown in spec).' }),
    stalled: z
      .strictObject({ error: z.string(), since: TimeViewSchema })
      .nullable()
      .meta({ description: 'Set while the Job cannot be decided: every reconcile fails with this error.' }),
  })
  .register(apiSchemas, { id: 'JobView', description: 'A Job with its full status: what `jobfold replay` shows.' });

export const StatusAtSchema = z
  .strictObject({
    job: ObjectIdentitySchema,
    at: z.strictObject({
      seq: z.number().int().min(0).meta({ description: 'The last entry folded (0: none).' }),
      recordedAt: TimeViewSchema.optional(),
    }),
    head: z.number().int().min(0),
    outcome: JobOutcomeSchema,
    status: JobStatusViewSchema,
  })
  .register(apiSchemas, { id: 'JobStatusAt', description: 'The status after folding the log up to `at`.' });
