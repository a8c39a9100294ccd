import * as z from 'zod';
import { optional, TimeSchema } from '../k8s/schema-helpers.ts';

// What a criterion's verdict is logged with: the policy that was met (the rule of a pod failure
// or success policy, the limit of backoffLimit or maxFailedIndexes, the deadline) and the pods
// or indexes that met it. The policies build it and word it (pod-failure-policy.ts); the kinds'
// decisions carry it (shared/job/decisions.ts), so it sits here, below both, and a policy never
// imports the kind that calls it.

export const PodRefSchema = z.object({
  uid: z.string(),
  name: z.string(),
  index: optional(z.number().int()),
  seq: z.number().int(),
});
export type PodRefData = z.infer<typeof PodRefSchema>;

/** Why a condition was set: the rule, the pods or indexes that satisfied it, the tipping event. */
export const EvidenceSchema = z.object({
  /** Log position of the event that tipped the decision. */
  tippedBy: z.number().int(),
  rule: optional(
    z.object({
      policy: z.enum(['podFailurePolicy', 'successPolicy']),
      index: z.number().int(),
      name: optional(z.string()),
    }),
  ),
  pods: optional(z.array(PodRefSchema)),
  /**
   * How many pods the evidence is about, where `pods` may name only the first of them (a
   * reopening names at most 100: shared/job/outcome-correction.ts reopenFinish). Absent: `pods`
   * names them all (every entry logged before fold-2026-11-28.23).
   */
  podCount: optional(z.number().int().positive()),
  container: optional(z.object({ name: z.string(), exitCode: z.number().int() })),
  podCondition: optional(z.string()),
  succeededIndexes: optional(z.string()),
  failedIndexes: optional(z.string()),
  succeeded: optional(z.number().int()),
  failed: optional(z.number().int()),
  limit: optional(z.number().int()),
  startTime: optional(TimeSchema),
  activeDeadlineSeconds: optional(z.number().int()),
  /** For Complete/Failed: the interim condition it follows. */
  follows: optional(z.enum(['SuccessCriteriaMet', 'FailureTarget'])),
  /**
   * When the criterion was met on the cluster's clock (the instant of the observations that meet
   * it, shared/job/criterion-instants.ts). On an interim condition (SuccessCriteriaMet,
   * FailureTarget) of a Job jobfold does not run, whenever the pods tell it (since
   * fold-2026-11-28.29; before, only where it beat another criterion met too): folding the
   * condition takes it from here instead of from every pod (shared/job/interim-instants.ts).
   */
  metAt: optional(TimeSchema),
  /**
   * On SuccessCriteriaMet: the latest instant a pod counted succeeded was seen finished or without
   * its finalizer, when one tells it; a pod deleted before it was counted (shared/job/observe-pod.ts
   * forgetDeletionsAfterSuccess). Logged since fold-2026-11-28.29, for the same reason as `metAt`.
   */
  lastSuccessAt: optional(TimeSchema),
});
export type Evidence = z.infer<typeof EvidenceSchema>;
