import * as z from 'zod';
import { ConditionSchema, ObjectMetaSchema } from './meta.ts';
import { Int32Schema, Int64Schema, listOf, optional, StringMapSchema, text, TimeSchema } from './schema-helpers.ts';

// The schemas check types and shapes only. Kubernetes' own rules (limits, enums, formats,
// immutability, required fields and lists) are reported by shared/job/validation with
// upstream field paths, types and messages, so a Job the API server would refuse always parses
// and is then rejected in upstream's words: lists parse absent as empty (`listOf`), strings
// whose emptiness validation reports parse absent as "" (`text`), and no list or string has a
// length cap of its own (test/unit/k8s/schema-defers-to-validation.spec.ts checks each).
// What remains to the parse is JSON types and int32 range, which the API server's decoder
// refuses before validation too.

export const PodFailurePolicyOnExitCodesSchema = z.object({
  containerName: optional(z.string()),
  operator: optional(z.string()),
  values: listOf(Int32Schema),
});

export const PodFailurePolicyOnPodConditionsPatternSchema = z.object({
  type: optional(z.string()),
  status: optional(z.string()),
});

export const PodFailurePolicyRuleSchema = z.object({
  /** KEP-4443: optional rule name; the FailJob reason becomes `PodFailurePolicy_<name>`. */
  name: optional(z.string()),
  action: optional(z.string()),
  onExitCodes: optional(PodFailurePolicyOnExitCodesSchema),
  onPodConditions: optional(z.array(PodFailurePolicyOnPodConditionsPatternSchema)),
});
export type PodFailurePolicyRule = z.infer<typeof PodFailurePolicyRuleSchema>;

export const PodFailurePolicySchema = z.object({
  rules: listOf(PodFailurePolicyRuleSchema),
});
export type PodFailurePolicy = z.infer<typeof PodFailurePolicySchema>;

export const SuccessPolicyRuleSchema = z.object({
  // Validation limits the string to 64 KiB (Too long), before parsing it.
  succeededIndexes: optional(z.string()),
  succeededCount: optional(Int32Schema),
});
export type SuccessPolicyRule = z.infer<typeof SuccessPolicyRuleSchema>;

export const SuccessPolicySchema = z.object({
  rules: listOf(SuccessPolicyRuleSchema),
});
export type SuccessPolicy = z.infer<typeof SuccessPolicySchema>;

const ContainerSchema = z.object({
  name: text(),
  image: optional(z.string()),
  command: optional(z.array(z.string())),
  args: optional(z.array(z.string())),
  restartPolicy: optional(z.string()),
});

// Go's zero value: an absent template (or template.spec) is an empty one, which validation
// then reports field by field (e.g. `spec.template.spec.restartPolicy: Required value`).
const PodSpecSchema = z.object({
  restartPolicy: optional(z.string()),
  containers: optional(z.array(ContainerSchema)),
  initContainers: optional(z.array(ContainerSchema)),
  subdomain: optional(z.string()),
});
type PodSpec = z.output<typeof PodSpecSchema>;

export const PodTemplateSpecSchema = z.object({
  metadata: optional(
    z.object({
      labels: optional(StringMapSchema),
      annotations: optional(StringMapSchema),
    }),
  ),
  spec: PodSpecSchema.nullish().transform((spec): PodSpec => spec ?? {}),
});
export type PodTemplateSpec = z.infer<typeof PodTemplateSpecSchema>;

/** batch/v1 JobSpec: every field the Job controller reads. */
export const JobSpecSchema = z.object({
  parallelism: optional(Int32Schema),
  completions: optional(Int32Schema),
  activeDeadlineSeconds: optional(Int64Schema),
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
  template: PodTemplateSpecSchema.nullish().transform((template): PodTemplateSpec => template ?? { spec: {} }),
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
  // Absent parses as Go's zero value, so validation reports what is missing in upstream's words.
  metadata: ObjectMetaSchema.prefault({}),
  spec: JobSpecSchema.prefault({}),
  status: optional(JobStatusSchema),
});
export type Job = z.infer<typeof JobSchema>;
