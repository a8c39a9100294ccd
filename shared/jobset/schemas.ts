import { z } from 'zod';
import { JobSpecSchema, JobStatusSchema, PodTemplateSpecSchema } from '../k8s/job.ts';
import { ObjectMetaSchema } from '../k8s/meta.ts';
import { Int32Schema, optional, StringMapSchema } from '../k8s/schema-helpers.ts';

// Shapes of `jobset.x-k8s.io/v1alpha2` as JSON. The schemas check types only: enum values, name
// formats and cross-field rules are reported by ./validation.ts with upstream's messages, so a
// JobSet with an unsupported value still parses and is then rejected with every violation.
// Unknown fields are dropped (zod's default).

export const FailurePolicyRuleSchema = z.object({
  /** Defaulted by the webhook to `failurePolicyRule<index>`. */
  name: optional(z.string()),
  action: z.string(),
  onJobFailureReasons: optional(z.array(z.string()).max(1024)),
  onJobFailureMessagePatterns: optional(z.array(z.string()).max(1024)),
  targetReplicatedJobs: optional(z.array(z.string()).max(1024)),
});
export type FailurePolicyRule = z.infer<typeof FailurePolicyRuleSchema>;

export const FailurePolicySchema = z.object({
  maxRestarts: optional(Int32Schema),
  /** CRD default `Recreate`. */
  restartStrategy: optional(z.string()),
  rules: optional(z.array(FailurePolicyRuleSchema).max(1024)),
});
export type FailurePolicy = z.infer<typeof FailurePolicySchema>;

export const SuccessPolicySchema = z.object({
  operator: z.string(),
  targetReplicatedJobs: optional(z.array(z.string()).max(1024)),
});
export type SuccessPolicy = z.infer<typeof SuccessPolicySchema>;

export const StartupPolicySchema = z.object({
  startupPolicyOrder: z.string(),
});
export type StartupPolicy = z.infer<typeof StartupPolicySchema>;

export const NetworkSchema = z.object({
  enableDNSHostnames: optional(z.boolean()),
  subdomain: optional(z.string().max(1024)),
  publishNotReadyAddresses: optional(z.boolean()),
});

/** batch/v1 JobTemplateSpec; the pod template may be left out where only counts matter. */
export const JobTemplateSpecSchema = z.object({
  metadata: optional(
    z.object({
      labels: optional(StringMapSchema),
      annotations: optional(StringMapSchema),
    }),
  ),
  spec: JobSpecSchema.extend({ template: optional(PodTemplateSpecSchema) }),
});
export type JobTemplateSpec = z.infer<typeof JobTemplateSpecSchema>;

export const ReplicatedJobSchema = z.object({
  name: z.string(),
  /** CRD default `default`. */
  groupName: optional(z.string()),
  /** CRD default 1. */
  replicas: optional(Int32Schema),
  template: JobTemplateSpecSchema,
});
export type ReplicatedJob = z.infer<typeof ReplicatedJobSchema>;

export const JobSetSpecSchema = z.object({
  replicatedJobs: z.array(ReplicatedJobSchema).max(1024),
  network: optional(NetworkSchema),
  successPolicy: optional(SuccessPolicySchema),
  failurePolicy: optional(FailurePolicySchema),
  startupPolicy: optional(StartupPolicySchema),
  suspend: optional(z.boolean()),
  managedBy: optional(z.string()),
  ttlSecondsAfterFinished: optional(Int32Schema),
});
export type JobSetSpec = z.infer<typeof JobSetSpecSchema>;

/** A JobSet as observed in a cluster. Its `status` is jobfold's to compute, so it is not read. */
export const JobSetSchema = z.object({
  apiVersion: optional(z.string()),
  kind: optional(z.literal('JobSet')),
  metadata: ObjectMetaSchema,
  spec: JobSetSpecSchema,
});
export type JobSet = z.infer<typeof JobSetSchema>;

/** A child Job as the owning cluster reports it (or as jobfold's Job fold computed it). */
export const ChildJobSchema = z.object({
  apiVersion: optional(z.string()),
  kind: optional(z.literal('Job')),
  metadata: ObjectMetaSchema,
  spec: optional(JobSpecSchema.extend({ template: optional(PodTemplateSpecSchema) })),
  status: optional(JobStatusSchema),
});
export type ChildJob = z.infer<typeof ChildJobSchema>;
