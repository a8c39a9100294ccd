import * as z from 'zod';
import { JobSchema } from '../../shared/k8s/job.ts';
import { PodSchema } from '../../shared/k8s/pod.ts';
import { TimeSchema } from '../../shared/k8s/schema-helpers.ts';

// The scenario format of ../shared/conformance/k8s-job and seed-stories (see their READMEs):
// a Job, a list of observed events, and checkpoints naming what upstream asserts.

const ScenarioEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Pod'), at: TimeSchema, pod: PodSchema }),
  z.object({ type: z.literal('PodDeleted'), at: TimeSchema, uid: z.string().min(1) }),
  z.object({ type: z.literal('Tick'), at: TimeSchema }),
  // The Job as observed again after an edit (suspend, parallelism, elastic completions); only
  // the scenarios translated from upstream's integration tests use it.
  z.object({ type: z.literal('Job'), at: TimeSchema, job: JobSchema }),
]);
export type ScenarioEvent = z.infer<typeof ScenarioEventSchema>;

const ConditionPatternSchema = z.record(z.string(), z.string());

export const CheckpointExpectSchema = z.object({
  status: z.record(z.string(), z.unknown()).optional(),
  podsCreated: z.number().int().optional(),
  createdIndexes: z.array(z.number().int()).optional(),
  terminatedPodsCount: z.number().int().optional(),
  terminatedPods: z.array(z.string()).optional(),
  conditionsInclude: z.array(ConditionPatternSchema).optional(),
  conditionsExclude: z.array(ConditionPatternSchema).optional(),
  conditionTypeCounts: z.record(z.string(), z.number().int()).optional(),
  conditionsCount: z.number().int().optional(),
  /**
   * Pods whose tracking finalizer the controller removes in that sync (upstream
   * `expectedPodPatches`). jobfold removes finalizers only where it is the Job's controller, so
   * the runner plays the scenario a second time with `spec.managedBy` naming jobfold and counts
   * its RemovePodFinalizer commands (test/conformance/k8s-job-unit/README.md).
   */
  podPatches: z.number().int().optional(),
});
export type CheckpointExpect = z.infer<typeof CheckpointExpectSchema>;

export const JobScenarioSchema = z.object({
  id: z.string(),
  source: z.string().optional(),
  description: z.string().optional(),
  featureGates: z.record(z.string(), z.boolean().nullable()).optional(),
  job: JobSchema,
  events: z.array(ScenarioEventSchema),
  checkpoints: z
    .array(z.object({ afterEvent: z.number().int().nonnegative(), expect: CheckpointExpectSchema }))
    .default([]),
  notes: z.string().optional(),
});
export type JobScenario = z.infer<typeof JobScenarioSchema>;

/** A document is a Job scenario when it has a Job, events and checkpoints (and no JobSet). */
export function isJobScenario(document: unknown): boolean {
  if (typeof document !== 'object' || document === null) return false;
  const d = document as Record<string, unknown>;
  return 'job' in d && Array.isArray(d['events']) && 'checkpoints' in d && !('expect' in d);
}
