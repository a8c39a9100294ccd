import * as z from 'zod';
import { ConditionSchema, ObjectMetaSchema } from './meta.ts';
import { Int32Schema, optional, TimeSchema } from './schema-helpers.ts';

export const ContainerStateSchema = z.object({
  terminated: optional(
    z.object({
      exitCode: Int32Schema,
      reason: optional(z.string()),
      message: optional(z.string()),
      startedAt: optional(TimeSchema),
      finishedAt: optional(TimeSchema),
    }),
  ),
  running: optional(z.object({ startedAt: optional(TimeSchema) })),
  waiting: optional(z.object({ reason: optional(z.string()), message: optional(z.string()) })),
});

export const ContainerStatusSchema = z.object({
  // Container names are DNS labels (upstream `validateContainers`): 63 characters at most.
  name: z.string().max(63),
  restartCount: optional(Int32Schema.min(0)),
  ready: optional(z.boolean()),
  state: optional(ContainerStateSchema),
});
export type ContainerStatus = z.infer<typeof ContainerStatusSchema>;

export const PodPhaseSchema = z.enum(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown']);
export type PodPhase = z.infer<typeof PodPhaseSchema>;

/** core/v1 Pod, trimmed to what the Job fold reads. */
export const PodSchema = z.object({
  apiVersion: optional(z.string()),
  kind: optional(z.literal('Pod')),
  metadata: ObjectMetaSchema.extend({ uid: z.string().min(1).max(128) }),
  spec: optional(
    z.object({
      nodeName: optional(z.string()),
      restartPolicy: optional(z.string()),
    }),
  ),
  status: optional(
    z.object({
      phase: optional(PodPhaseSchema),
      reason: optional(z.string()),
      message: optional(z.string()),
      conditions: optional(z.array(ConditionSchema).max(64)),
      containerStatuses: optional(z.array(ContainerStatusSchema).max(256)),
      initContainerStatuses: optional(z.array(ContainerStatusSchema).max(256)),
    }),
  ),
});
export type Pod = z.infer<typeof PodSchema>;
