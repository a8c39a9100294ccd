import * as z from 'zod';
import { PodFailurePolicySchema } from '../../../shared/k8s/job.ts';
import { ConditionViewSchema, ExplanationBriefSchema, LogHeadSchema, ObjectIdentitySchema, TimeViewSchema } from '../schemas/common-schemas.ts';
import { apiSchemas } from '../schemas/registry.ts';
import { JobSetOutcomeSchema } from './jobset-explanation-schemas.ts';

// The JobSet routes' responses: the same shape as the Job routes', with the JobSet fold's status
// (the explanation's schemas are in jobset-explanation-schemas.ts).

const count = z.number().int().min(0);

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
      z.strictObject({
        name: z.string(),
        groupName: z.string(),
        replicas: count,
        parallelism: count,
        completions: count.nullable(),
        completionMode: z.string().meta({ description: "The Job template's completionMode (NonIndexed when unset)." }),
        backoffLimit: count.meta({ description: "The Job template's backoffLimit (6 when unset)." }),
        podFailurePolicy: PodFailurePolicySchema.nullable().meta({
          description: "The Job template's pod failure policy: its rule names make the child Jobs' failure reasons.",
        }),
        dependsOn: z.array(z.strictObject({ name: z.string(), status: z.string() })).meta({
          description: 'The replicated jobs whose status (Ready or Complete) this one waits for before its Jobs are created or resumed; empty when none.',
        }),
      }),
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
    coordinator: z
      .strictObject({ replicatedJob: z.string(), jobIndex: count, podIndex: count })
      .nullable()
      .meta({ description: "The pod whose stable endpoint every child Job and pod template carry (label and annotation `jobset.sigs.k8s.io/coordinator`)." }),
    ttlSecondsAfterFinished: count.nullable().meta({ description: 'Seconds after the JobSet finished when it is deleted (foreground); null: kept.' }),
  })
  .register(apiSchemas, { id: 'JobSetSpecSummary', description: 'The JobSet spec after admission defaulting.' });

export const JobSetCommandSchema = z
  .strictObject({
    seq: z.number().int().min(1),
    at: TimeViewSchema,
    type: z.enum(['CreateJob', 'DeleteJob', 'SuspendJob', 'ResumeJob', 'DeleteJobSet']),
    commandId: z.string(),
    name: z.string().meta({ description: 'The child Job (the JobSet itself for DeleteJobSet).' }),
  })
  .register(apiSchemas, { id: 'JobSetCommand' });

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
    commands: z.array(JobSetCommandSchema).meta({
      description: 'The commands decided at log positions from `commandsFrom` on, in log order.',
    }),
    commandsFrom: z.number().int().min(1).meta({
      description:
        'The first log position `commands` covers: 1 (every command) unless the log is longer than 5,000 entries; '
        + 'then the last 5,000 entries, and the earlier commands are in `…/history` (category `command`).',
    }),
    explanation: ExplanationBriefSchema(JobSetOutcomeSchema).extend({
      waiting: z.array(z.string()).meta({ description: 'Replicated jobs not all created yet, and why, one sentence each.' }),
    }),
    log: LogHeadSchema,
  })
  .register(apiSchemas, { id: 'JobSetView', description: 'A JobSet with its status, child Jobs and commands.' });
