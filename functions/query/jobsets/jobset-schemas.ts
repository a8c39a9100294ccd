import { z } from 'zod';
import { ConditionViewSchema, LogHeadSchema, ObjectIdentitySchema, TimeViewSchema } from '../schemas/common-schemas.ts';
import { apiSchemas } from '../schemas/registry.ts';

// The JobSet routes' responses: the same shape as the Job routes', with the JobSet fold's status.

const count = z.number().int().min(0);

export const JobSetOutcomeSchema = z
  .enum(['Unknown', 'Rejected', 'Suspended', 'Running', 'Restarting', 'Completed', 'Failed'])
  .register(apiSchemas, { id: 'JobSetOutcome' });

export const JobSetStatusViewSchema = z
  .strictObject({
    conditions: z.array(ConditionViewSchema),
    restarts: count,
    restartsCountTowardsMax: count,
    terminalState: z.enum(['', 'Completed', 'Failed']),
    replicatedJobsStatus: z.array(
      z.strictObject({ name: z.string(), ready: count, succeeded: count, failed: count, active: count, suspended: count }),
    ),
  })
  .register(apiSchemas, { id: 'JobSetStatus', description: 'jobset.x-k8s.io/v1alpha2 JobSetStatus as jobfold computes it.' });

export const JobSetSpecViewSchema = z
  .strictObject({
    replicatedJobs: z.array(
      z.strictObject({ name: z.string(), groupName: z.string(), replicas: count, parallelism: count, completions: count.nullable() }),
    ),
    successPolicy: z.strictObject({ operator: z.string(), targetReplicatedJobs: z.array(z.string()) }),
    startupPolicy: z.strictObject({ startupPolicyOrder: z.string() }),
    failurePolicy: z
      .strictObject({
        maxRestarts: count,
        restartStrategy: z.string(),
        rules: z.array(
          z.strictObject({
            name: z.string(),
            action: z.string(),
            onJobFailureReasons: z.array(z.string()),
            onJobFailureMessagePatterns: z.array(z.string()),
            targetReplicatedJobs: z.array(z.string()),
          }),
        ),
      })
      .nullable(),
    suspend: z.boolean(),
    managedBy: z.string().nullable(),
  })
  .register(apiSchemas, { id: 'JobSetSpecSummary', description: 'The JobSet spec after admission defaulting.' });

export const JobSetCommandSchema = z
  .strictObject({
    seq: z.number().int().min(1),
    at: TimeViewSchema,
    type: z.enum(['CreateJob', 'DeleteJob', 'SuspendJob', 'ResumeJob']),
    commandId: z.string(),
    name: z.string().meta({ description: 'The child Job.' }),
  })
  .register(apiSchemas, { id: 'JobSetCommand' });

/** A decision that explains the outcome, with the log entry that tipped it. */
export const JobSetReasonSchema = z
  .strictObject({
    seq: z.number().int().min(1),
    type: z.enum(['JobSetCompleted', 'JobSetFailed', 'JobSetRestarted', 'JobSetRejected']),
    at: TimeViewSchema,
    sentence: z.string(),
    decision: z.record(z.string(), z.unknown()).meta({ description: 'The decision as logged, with its evidence.' }),
    tippingEvent: z.strictObject({ seq: z.number().int(), type: z.string(), at: TimeViewSchema }).optional(),
  })
  .register(apiSchemas, { id: 'JobSetReason' });

export const JobSetExplanationSchema = z
  .strictObject({
    jobSet: ObjectIdentitySchema,
    outcome: JobSetOutcomeSchema,
    summary: z.string(),
    reasons: z.array(JobSetReasonSchema),
    rejection: z.array(z.string()),
  })
  .register(apiSchemas, { id: 'JobSetExplanation', description: 'Why the JobSet is where it is.' });

export const JobSetViewSchema = z
  .strictObject({
    jobSet: ObjectIdentitySchema,
    deleted: z.boolean(),
    spec: JobSetSpecViewSchema.nullable(),
    status: JobSetStatusViewSchema,
    childJobs: z.array(
      z.strictObject({
        name: z.string(),
        replicatedJob: z.string().optional(),
        jobIndex: z.number().int().optional(),
        restartAttempt: z.number().int().optional(),
        suspend: z.boolean(),
        terminating: z.boolean(),
      }),
    ),
    commands: z.array(JobSetCommandSchema),
    explanation: z.strictObject({ outcome: JobSetOutcomeSchema, summary: z.string() }),
    log: LogHeadSchema,
  })
  .register(apiSchemas, { id: 'JobSetView', description: 'A JobSet with its status, child Jobs and commands.' });
