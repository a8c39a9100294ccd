import * as z from 'zod';
import { Int64Schema, optional, StringMapSchema, text, TimeSchema } from './schema-helpers.ts';

// Names, namespaces, label keys and owner references are checked by metadata validation
// (shared/job/validation/object-meta.ts) with the API server's words, not by the parse.

export const OwnerReferenceSchema = z.object({
  apiVersion: optional(z.string()),
  kind: text(),
  name: optional(z.string()),
  uid: text(),
  controller: optional(z.boolean()),
});
export type OwnerReference = z.infer<typeof OwnerReferenceSchema>;

/** The part of `metadata` that jobfold reads; anything else is dropped. */
export const ObjectMetaSchema = z.object({
  name: text(),
  namespace: optional(z.string()),
  uid: optional(z.string().max(128)),
  resourceVersion: optional(z.string()),
  generation: optional(Int64Schema),
  labels: optional(StringMapSchema),
  annotations: optional(StringMapSchema),
  ownerReferences: optional(z.array(OwnerReferenceSchema)),
  creationTimestamp: optional(TimeSchema),
  deletionTimestamp: optional(TimeSchema),
  deletionGracePeriodSeconds: optional(Int64Schema),
  finalizers: optional(z.array(z.string())),
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
