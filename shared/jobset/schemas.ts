import * as z from 'zod';
import { JobSpecSchema, JobStatusSchema, PodTemplateSpecSchema } from '../k8s/job.ts';
import { ObjectMetaSchema } from '../k8s/meta.ts';
import { Int32Schema, Int64Schema, listOf, optional, StringMapSchema, text } from '../k8s/schema-helpers.ts';

// Shapes of `jobset.x-k8s.io/v1alpha2` as JSON. The schemas check types only: enum values, name
// formats and cross-field rules are reported by ./validation.ts with upstream's messages, so a
// JobSet with an unsupported value still parses and is then rejected with every violation.
// A required enum that is absent parses as "" (`text`), which the CRD schema reports as an
// unsupported value, since the webhook's defaulting marshals Go's zero value before the schema
// is checked; lists have no length cap of their own. Unknown fields are dropped (zod's default).

export const FailurePolicyRuleSchema = z.object({
  /** Defaulted by the webhook to `failurePolicyRule<index>`. */
  name: optional(z.string()),
  action: text(),
  onJobFailureReasons: optional(z.array(z.string())),
  onJobFailureMessagePatterns: optional(z.array(z.string())),
  targetReplicatedJobs: optional(z.array(z.string())),
});
export type FailurePolicyRule = z.infer<typeof FailurePolicyRuleSchema>;

export const FailurePolicySchema = z.object({
  maxRestarts: optional(Int32Schema),
  /** CRD default `Recreate`. */
  restartStrategy: optional(z.string()),
  rules: optional(z.array(FailurePolicyRuleSchema)),
});
export type FailurePolicy = z.infer<typeof FailurePolicySchema>;

export const SuccessPolicySchema = z.object({
  operator: text(),
  targetReplicatedJobs: optional(z.array(z.string())),
});
export type SuccessPolicy = z.infer<typeof SuccessPolicySchema>;

export const StartupPolicySchema = z.object({
  startupPolicyOrder: text(),
});
export type StartupPolicy = z.infer<typeof StartupPolicySchema>;

export const NetworkSchema = z.object({
  enableDNSHostnames: optional(z.boolean()),
  subdomain: optional(z.string()),
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
  spec: JobSpecSchema.extend({ template: optional(PodTemplateSpecSchema) }).prefault({}),
});
export type JobTemplateSpec = z.infer<typeof JobTemplateSpecSchema>;

/** One dependency of a replicated job: another one's name and the status it must reach. */
export const DependsOnSchema = z.object({
  name: text(),
  /** `Ready` or `Complete` (CRD enum). */
  status: text(),
});
export type DependsOn = z.infer<typeof DependsOnSchema>;

export const ReplicatedJobSchema = z.object({
  name: text(),
  /** CRD default `default`. */
  groupName: optional(z.string()),
  /** CRD default 1. */
  replicas: optional(Int32Schema),
  /** Go's zero value when absent: an empty Job template, checked as any other. */
  template: JobTemplateSpecSchema.prefault({}),
  /** Absent (or `null`) is Go's nil; `[]` is not, and the webhook tells them apart. */
  dependsOn: optional(z.array(DependsOnSchema)),
});
export type ReplicatedJob = z.infer<typeof ReplicatedJobSchema>;

/** The pod whose stable network endpoint every child Job and pod is labelled with. */
export const CoordinatorSchema = z.object({
  replicatedJob: text(),
  /** Go `int`s, 0 when absent. */
  jobIndex: optional(Int64Schema),
  podIndex: optional(Int64Schema),
});
export type Coordinator = z.infer<typeof CoordinatorSchema>;

export const JobSetSpecSchema = z.object({
  replicatedJobs: listOf(ReplicatedJobSchema),
  network: optional(NetworkSchema),
  successPolicy: optional(SuccessPolicySchema),
  failurePolicy: optional(FailurePolicySchema),
  startupPolicy: optional(StartupPolicySchema),
  suspend: optional(z.boolean()),
  coordinator: optional(CoordinatorSchema),
  managedBy: optional(z.string()),
  ttlSecondsAfterFinished: optional(Int32Schema),
});
export type JobSetSpec = z.infer<typeof JobSetSpecSchema>;

/**
 * A JobSet as observed in a cluster. Its `status` is jobfold's to compute; only `restarts` is
 * read, as the cluster's word that its controller restarted the JobSet that many times: it lets
 * the fold take in the Jobs of a restart whose evidence it will never see (evolve.ts).
 */
export const JobSetSchema = z.object({
  apiVersion: optional(z.string()),
  kind: optional(z.literal('JobSet')),
  // Absent parses as Go's zero value, so validation reports what is missing in upstream's words.
  metadata: ObjectMetaSchema.prefault({}),
  spec: JobSetSpecSchema.prefault({}),
  status: optional(z.object({ restarts: optional(Int32Schema) })),
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
