import * as z from 'zod';
import { OutboundDetailType } from '../../shared/contract/outbound.ts';

/**
 * The detail shapes of the JobSet commands, mirroring `jobSetCommandEvent` in
 * shared/contract/outbound.ts: each names a child Job of a JobSet, but DeleteJobSet, which
 * names the JobSet.
 */

const childJob = {
  commandId: z.string().min(1),
  clusterId: z.string().min(1),
  namespace: z.string().min(1),
  jobSetName: z.string().min(1),
  jobSetUid: z.string().min(1),
  jobName: z.string().min(1),
};

/**
 * A batch/v1 Job manifest (`JobManifest` in shared/jobset/commands.ts). Only what the forwarder
 * reads is checked; the rest is sent to the API server as given, which validates it.
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

/** The JobSet itself (its ttlSecondsAfterFinished passed): no child Job is named. */
const { jobName: _jobName, ...jobSetItself } = childJob;
export const DeleteJobSetDetailSchema = z.object({ ...jobSetItself, propagationPolicy: z.literal('Foreground') });
export const SuspendJobDetailSchema = z.object(childJob);
export const ResumeJobDetailSchema = z.object(childJob);

export type JobSetCommand =
  | ({ readonly type: 'CreateJob' } & z.infer<typeof CreateJobDetailSchema>)
  | ({ readonly type: 'DeleteJob' } & z.infer<typeof DeleteJobDetailSchema>)
  | ({ readonly type: 'SuspendJob' } & z.infer<typeof SuspendJobDetailSchema>)
  | ({ readonly type: 'ResumeJob' } & z.infer<typeof ResumeJobDetailSchema>)
  | ({ readonly type: 'DeleteJobSet' } & z.infer<typeof DeleteJobSetDetailSchema>);

export const jobSetDetailSchemas = {
  [OutboundDetailType.CreateJob]: { type: 'CreateJob', schema: CreateJobDetailSchema },
  [OutboundDetailType.DeleteJob]: { type: 'DeleteJob', schema: DeleteJobDetailSchema },
  [OutboundDetailType.SuspendJob]: { type: 'SuspendJob', schema: SuspendJobDetailSchema },
  [OutboundDetailType.ResumeJob]: { type: 'ResumeJob', schema: ResumeJobDetailSchema },
  [OutboundDetailType.DeleteJobSet]: { type: 'DeleteJobSet', schema: DeleteJobSetDetailSchema },
} as const;
