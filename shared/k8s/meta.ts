import { z } from 'zod';
import { optional, StringMapSchema, TimeSchema } from './schema-helpers.ts';

export const OwnerReferenceSchema = z.object({
  apiVersion: optional(z.string()),
  kind: z.string(),
  name: optional(z.string()),
  uid: z.string(),
  controller: optional(z.boolean()),
});
export type OwnerReference = z.infer<typeof OwnerReferenceSchema>;

/** The part of `metadata` that jobfold reads; anything else is dropped. */
export const ObjectMetaSchema = z.object({
  name: z.string().min(1).max(253),
  namespace: optional(z.string().max(63)),
  uid: optional(z.string().max(128)),
  resourceVersion: optional(z.string()),
  generation: optional(z.number().int()),
  labels: optional(StringMapSchema),
  annotations: optional(StringMapSchema),
  ownerReferences: optional(z.array(OwnerReferenceSchema).max(64)),
  creationTimestamp: optional(TimeSchema),
  deletionTimestamp: optional(TimeSchema),
  deletionGracePeriodSeconds: optional(z.number().int()),
  finalizers: optional(z.array(z.string()).max(64)),
});
export type ObjectMeta = z.infer<typeof ObjectMetaSchema>;

/** A condition as batch/v1 and core/v1 write them. */
export const ConditionSchema = z.object({
  // Upstream condition types are qualified names: a 253-byte prefix, '/', a 63-byte name.
  type: z.string().min(1).max(317),
  status: z.string(),
  reason: optional(z.string()),
  message: optional(z.string()),
  lastTransitionTime: optional(TimeSchema),
  lastProbeTime: optional(TimeSchema),
});
export type Condition = z.infer<typeof ConditionSchema>;
