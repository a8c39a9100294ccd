import * as z from 'zod';
import { TerminationCauseSchema } from '../job/decisions.ts';
import type { JobCommand } from '../job/commands.ts';
import type { JobSetCommand } from '../jobset/commands.ts';

// The detail of each command event, as jobfold writes it (outbound.ts builds the details
// against these types; docs/events.md and docs/schemas/ are generated from them). The
// forwarder parses a JobSet command's detail with these schemas; a Job command's with its own,
// more tolerant ones: it also reads the Job commands of older jobfold versions
// (forwarder/commands/command-message.ts). Every jobfold version wrote the JobSet commands'
// details in the shape below (git history since 3ca36b8; DeleteJobSet since dfcb7d5).

/** What every Job command's detail names: the command and the Job it acts on. */
const jobTarget = {
  commandId: z.string(),
  clusterId: z.string(),
  namespace: z.string(),
  jobName: z.string(),
  jobUid: z.string(),
};

export const TerminationDetailSchema = z.object({
  commandId: z.string(),
  clusterId: z.string(),
  namespace: z.string(),
  podName: z.string(),
  podUid: z.string(),
  jobName: z.string(),
  jobUid: z.string(),
  reason: z.string(),
  message: z.string(),
  cause: TerminationCauseSchema,
});

export const CreationDetailSchema = z.object({
  ...jobTarget,
  index: z.number().int().nullable(),
  templateHash: z.string(),
  /** backoffLimitPerIndex: the new pod's `batch.kubernetes.io/job-index-failure-count`. */
  indexFailureCount: z.number().int().nullable(),
  /** backoffLimitPerIndex: its `batch.kubernetes.io/job-index-ignored-failure-count` (set when > 0). */
  indexIgnoredFailureCount: z.number().int().nullable(),
});

export const FinalizerRemovalDetailSchema = z.object({
  ...jobTarget,
  podName: z.string(),
  podUid: z.string(),
});

export const StatusDetailSchema = z.object({
  ...jobTarget,
  status: z.record(z.string(), z.unknown()),
});

/**
 * What a Job command's detail carries besides the command's and the Job's names. UpdateJobStatus
 * is left out: its status is a JobStatusView, an interface, where the schema says only "an object".
 */
type Fields<Schema extends z.ZodObject> = Omit<z.input<Schema>, keyof typeof jobTarget>;

export type JobCommandFields = {
  readonly TerminatePod: Fields<typeof TerminationDetailSchema>;
  readonly CreatePod: Fields<typeof CreationDetailSchema>;
  readonly RemovePodFinalizer: Fields<typeof FinalizerRemovalDetailSchema>;
};

// ---- JobSet commands ----------------------------------------------------------------------

/** What every JobSet command's detail names: the command, the JobSet and the child Job it acts on. */
const childJob = {
  commandId: z.string().min(1),
  clusterId: z.string().min(1),
  namespace: z.string().min(1),
  jobSetName: z.string().min(1),
  jobSetUid: z.string().min(1),
  jobName: z.string().min(1),
};

/**
 * The batch/v1 Job to create (`JobManifest` in shared/jobset/commands.ts). Only what the
 * forwarder reads is spelled out; the rest goes to the API server as given, which validates it.
 */
const JobManifestSchema = z.looseObject({
  apiVersion: z.literal('batch/v1'),
  kind: z.literal('Job'),
  metadata: z.looseObject({
    name: z.string().min(1),
    namespace: z.string().min(1).optional(),
    labels: z.record(z.string(), z.string()),
    annotations: z.record(z.string(), z.string()).optional(),
    ownerReferences: z.array(z.looseObject({ apiVersion: z.string(), kind: z.string(), name: z.string(), uid: z.string().optional() })),
  }),
  spec: z.looseObject({ template: z.looseObject({}) }),
});

export const CreateJobDetailSchema = z.object({
  ...childJob,
  replicatedJob: z.string().min(1),
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

/**
 * A schema's input as the fold's values can satisfy it: every array and property readonly, and
 * no index signature (a loose object's other fields are `unknown`: anything fits).
 */
type Frozen<T> = T extends readonly (infer E)[]
  ? readonly Frozen<E>[]
  : T extends object
    ? { readonly [K in keyof T as string extends K ? never : K]: Frozen<T[K]> }
    : T;

/** What a JobSet command's detail carries besides the names of the command, the JobSet and the child Job. */
export type JobSetCommandFields = {
  readonly [Type in keyof typeof jobSetCommandDetailSchemas]: Frozen<Omit<z.input<(typeof jobSetCommandDetailSchemas)[Type]>, keyof typeof childJob>>;
};

/** The detail schema of every command, by the command's type: what docs/events.md lists. */
export const commandDetailSchemas = {
  TerminatePod: TerminationDetailSchema,
  CreatePod: CreationDetailSchema,
  UpdateJobStatus: StatusDetailSchema,
  RemovePodFinalizer: FinalizerRemovalDetailSchema,
  ...jobSetCommandDetailSchemas,
} as const satisfies Record<JobCommand['type'] | JobSetCommand['type'], z.ZodObject>;
