import { z } from 'zod';
import { ConditionSchema, ObjectMetaSchema } from './meta.ts';
import { Int32Schema, optional, StringMapSchema, TimeSchema } from './schema-helpers.ts';

// The schemas check types and shapes only. Kubernetes' own rules (limits, enums, formats,
// immutability) are reported by shared/job/validation with upstream field paths, so a Job
// with an unsupported enum value still parses and is then rejected with every violation.

export const PodFailurePolicyOnExitCodesSchema = z.object({
  containerName: optional(z.string()),
  operator: optional(z.string()),
  values: z.array(Int32Schema).max(1000),
});

export const PodFailurePolicyOnPodConditionsPatternSchema = z.object({
  type: optional(z.string()),
  status: optional(z.string()),
});

export const PodFailurePolicyRuleSchema = z.object({
  /** KEP-4443: optional rule name; the FailJob reason becomes `PodFailurePolicy_<name>`. */
  name: optional(z.string().max(1024)),
  action: optional(z.string()),
  onExitCodes: optional(PodFailurePolicyOnExitCodesSchema),
  onPodConditions: optional(z.array(PodFailurePolicyOnPodConditionsPatternSchema).max(1000)),
});
export type PodFailurePolicyRule = z.infer<typeof PodFailurePolicyRuleSchema>;

export const PodFailurePolicySchema = z.object({
  rules: z.array(PodFailurePolicyRuleSchema).max(1000),
});
export type PodFailurePolicy = z.infer<typeof PodFailurePolicySchema>;

export const SuccessPolicyRuleSchema = z.object({
  // Validation limits the string to 64 KiB; the schema bounds what can be parsed at all.
  succeededIndexes: optional(z.string().max(1024 * 1024)),
  succeededCount: optional(Int32Schema),
});
export type SuccessPolicyRule = z.infer<typeof SuccessPolicyRuleSchema>;

export const SuccessPolicySchema = z.object({
  rules: z.array(SuccessPolicyRuleSchema).max(1000),
});
export type SuccessPolicy = z.infer<typeof SuccessPolicySchema>;

const ContainerSchema = z.object({
  name: z.string(),
  image: optional(z.string()),
  command: optional(z.array(z.string())),
  args: optional(z.array(z.string())),
  restartPolicy: optional(z.string()),
});

export const PodTemplateSpecSchema = z.object({
  metadata: optional(
    z.object({
      labels: optional(StringMapSchema),
      annotations: optional(StringMapSchema),
    }),
  ),
  spec: z.object({
    restartPolicy: optional(z.string()),
    containers: optional(z.array(ContainerSchema).max(256)),
    initContainers: optional(z.array(ContainerSchema).max(256)),
    subdomain: optional(z.string()),
  }),
});
export type PodTemplateSpec = z.infer<typeof PodTemplateSpecSchema>;

/** batch/v1 JobSpec: every field the Job controller reads. */
export const JobSpecSchema = z.object({
  parallelism: optional(Int32Schema),
  completions: optional(Int32Schema),
  activeDeadlineSeconds: optional(z.number().int()),
  backoffLimit: optional(Int32Schema),
  backoffLimitPerIndex: optional(Int32Schema),
  maxFailedIndexes: optional(Int32Schema),
  completionMode: optional(z.string()),
  suspend: optional(z.boolean()),
  podReplacementPolicy: optional(z.string()),
  podFailurePolicy: optional(PodFailurePolicySchema),
  successPolicy: optional(SuccessPolicySchema),
  managedBy: optional(z.string()),
  ttlSecondsAfterFinished: optional(Int32Schema),
  manualSelector: optional(z.boolean()),
  selector: optional(
    z.object({
      matchLabels: optional(StringMapSchema),
    }),
  ),
  template: PodTemplateSpecSchema,
});
export type JobSpec = z.infer<typeof JobSpecSchema>;

export const UncountedTerminatedPodsSchema = z.object({
  succeeded: optional(z.array(z.string())),
  failed: optional(z.array(z.string())),
});

/** batch/v1 JobStatus as a cluster reports it. */
export const JobStatusSchema = z.object({
  conditions: optional(z.array(ConditionSchema).max(64)),
  startTime: optional(TimeSchema),
  completionTime: optional(TimeSchema),
  active: optional(Int32Schema),
  ready: optional(Int32Schema),
  terminating: optional(Int32Schema),
  succeeded: optional(Int32Schema),
  failed: optional(Int32Schema),
  completedIndexes: optional(z.string()),
  failedIndexes: optional(z.string()),
  uncountedTerminatedPods: optional(UncountedTerminatedPodsSchema),
});
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** batch/v1 Job, trimmed to what the fold reads. */
export const JobSchema = z.object({
  apiVersion: optional(z.string()),
  kind: optional(z.literal('Job')),
  metadata: ObjectMetaSchema,
  spec: JobSpecSchema,
  status: optional(JobStatusSchema),
});
export type Job = z.infer<typeof JobSchema>;
