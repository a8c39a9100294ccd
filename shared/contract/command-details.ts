import * as z from 'zod';
import { TerminationCauseSchema } from '../job/decisions.ts';
import { FinalizerRemovalCauseSchema } from '../job/finalizer-guard.ts';
import type { JobCommand } from '../job/commands.ts';
import type { JobSetCommand } from '../jobset/commands.ts';

// The detail of each command event, as jobfold writes it and as the forwarder reads it:
// outbound.ts builds the details against these types, the forwarder parses them with these
// schemas (forwarder/commands/command-message.ts, which also accepts what older jobfold versions
// wrote, and a termination cause it does not know), and docs/events.md and docs/schemas/ are
// generated from them. Every jobfold version wrote the JobSet commands' details in the shape
// below (git history since 3ca36b8; DeleteJobSet since dfcb7d5).

/** An id or a name: never empty. */
const named = z.string().min(1);

/** What every Job command's detail names: the command and the Job it acts on. */
const jobTarget = { commandId: named, clusterId: named, namespace: named, jobName: named, jobUid: named };

export const TerminationDetailSchema = z.object({
  commandId: named,
  clusterId: named,
  namespace: named,
  podName: named,
  podUid: named,
  jobName: named,
  jobUid: named,
  reason: z.string(),
  message: z.string(),
  cause: TerminationCauseSchema,
});

export const CreationDetailSchema = z.object({
  ...jobTarget,
  index: z.number().int().min(0).nullable(),
  templateHash: named,
  /** backoffLimitPerIndex: the new pod's `batch.kubernetes.io/job-index-failure-count`. */
  indexFailureCount: z.number().int().min(0).nullable(),
  /** backoffLimitPerIndex: its `batch.kubernetes.io/job-index-ignored-failure-count` (set when > 0). */
  indexIgnoredFailureCount: z.number().int().min(0).nullable(),
});

/** `cause`: why the finalizer goes, which the forwarder checks on the live pod (shared/job/finalizer-guard.ts). */
export const FinalizerRemovalDetailSchema = z.object({ ...jobTarget, podName: named, podUid: named, cause: FinalizerRemovalCauseSchema });

/** The status jobfold computed (a JobStatusView): only what the forwarder checks is spelled out; it is written as given. */
export const StatusDetailSchema = z.object({
  ...jobTarget,
  status: z.looseObject({
    conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })),
    active: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
  }),
});

/** The detail schema of each Job command, by the command's type. */
export const jobCommandDetailSchemas = {
  TerminatePod: TerminationDetailSchema,
  CreatePod: CreationDetailSchema,
  UpdateJobStatus: StatusDetailSchema,
  RemovePodFinalizer: FinalizerRemovalDetailSchema,
} as const satisfies Record<JobCommand['type'], z.ZodObject>;

/**
 * A schema's input as the fold's values can satisfy it: every array and property readonly, and
 * no index signature (a loose object's other fields are `unknown`: anything fits).
 */
type Frozen<T> = T extends readonly (infer E)[]
  ? readonly Frozen<E>[]
  : T extends object
    ? { readonly [K in keyof T as string extends K ? never : K]: Frozen<T[K]> }
    : T;

/** What a Job command's detail carries besides the command's and the Job's names. */
export type JobCommandFields = {
  readonly [Type in keyof typeof jobCommandDetailSchemas]: Frozen<Omit<z.input<(typeof jobCommandDetailSchemas)[Type]>, keyof typeof jobTarget>>;
};

// ---- JobSet commands ----------------------------------------------------------------------

/** What every JobSet command's detail names: the command, the JobSet and the child Job it acts on. */
const childJob = { commandId: named, clusterId: named, namespace: named, jobSetName: named, jobSetUid: named, jobName: named };

/**
 * The batch/v1 Job to create (`JobManifest` in shared/jobset/commands.ts). Only what the
 * forwarder reads is spelled out; the rest goes to the API server as given, which validates it.
 */
const JobManifestSchema = z.looseObject({
  apiVersion: z.literal('batch/v1'),
  kind: z.literal('Job'),
  metadata: z.looseObject({
    name: named,
    namespace: named.optional(),
    labels: z.record(z.string(), z.string()),
    annotations: z.record(z.string(), z.string()).optional(),
    ownerReferences: z.array(z.looseObject({ apiVersion: z.string(), kind: z.string(), name: z.string(), uid: z.string().optional() })),
  }),
  spec: z.looseObject({ template: z.looseObject({}) }),
});

export const CreateJobDetailSchema = z.object({
  ...childJob,
  replicatedJob: named,
  jobIndex: z.number().int().min(0),
  restartAttempt: z.number().int().min(0),
  suspend: z.boolean(),
  job: JobManifestSchema,
});

export const DeleteJobDetailSchema = z.object({ ...childJob, propagationPolicy: z.literal('Foreground') });
export const SuspendJobDetailSchema = z.object(childJob);
export const ResumeJobDetailSchema = z.object(childJob);

/** The JobSet itself (its ttlSecondsAfterFinished passed): no child Job is named. */
const { jobName: _jobName, ...jobSetItself } = childJob;
export const DeleteJobSetDetailSchema = z.object({ ...jobSetItself, propagationPolicy: z.literal('Foreground') });

/** The detail schema of each JobSet command, by the command's type. */
export const jobSetCommandDetailSchemas = {
  CreateJob: CreateJobDetailSchema,
  DeleteJob: DeleteJobDetailSchema,
  SuspendJob: SuspendJobDetailSchema,
  ResumeJob: ResumeJobDetailSchema,
  DeleteJobSet: DeleteJobSetDetailSchema,
} as const satisfies Record<JobSetCommand['type'], z.ZodObject>;

/** What a JobSet command's detail carries besides the names of the command, the JobSet and the child Job. */
export type JobSetCommandFields = {
  readonly [Type in keyof typeof jobSetCommandDetailSchemas]: Frozen<Omit<z.input<(typeof jobSetCommandDetailSchemas)[Type]>, keyof typeof childJob>>;
};

/** The detail schema of every command, by the command's type: what docs/events.md lists. */
export const commandDetailSchemas = {
  ...jobCommandDetailSchemas,
  ...jobSetCommandDetailSchemas,
} as const satisfies Record<JobCommand['type'] | JobSetCommand['type'], z.ZodObject>;
