import * as z from 'zod';
import { ChildJobSchema, JobSetSchema, type JobSet } from '../../shared/jobset/index.ts';
import { applyMergePatch } from '../../shared/whatif/patch.ts';

// The JobSet scenario format of ../shared/conformance/jobset (README there): a JobSet, child-Job
// events, and checkpoints naming what upstream asserts. The project's own JobSet scenarios
// (test/conformance/jobset/README.md) add three events: time passes (`Tick`), the JobSet gets a
// deletionTimestamp (`JobSetMarkedForDeletion`), it is gone (`JobSetDeleted`). One schema for
// the conformance runner, `jobfold replay` and `jobfold whatif`.

const TimeSchema = z.string().min(1);
/** A Job's uid as a Job Deleted carries it (shared/contract/inbound.ts): 1 to 128 characters, no lone surrogate. */
const DeletedUidSchema = z.string().min(1).max(128).refine((uid) => uid.isWellFormed(), 'holds a lone UTF-16 surrogate');

const ScenarioEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('JobStatus'), at: TimeSchema, job: ChildJobSchema }),
  z.object({ type: z.literal('JobStatusBatch'), at: TimeSchema, jobs: z.array(ChildJobSchema).min(1) }),
  // `uid`: the deleted Job's, as the forwarder's Job Deleted names it (a Job a user deleted and
  // its controller created again share the name, not the uid); optional, as upstream's have none.
  // Bounded as the inbound contract bounds it, so a scenario holds no uid a cluster's event could not.
  z.object({ type: z.literal('JobDeleted'), at: TimeSchema, name: z.string().min(1), uid: DeletedUidSchema.optional() }),
  z.object({ type: z.literal('JobSetSpecUpdated'), at: TimeSchema, patch: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('Tick'), at: TimeSchema }),
  z.object({ type: z.literal('JobSetMarkedForDeletion'), at: TimeSchema }),
  z.object({ type: z.literal('JobSetDeleted'), at: TimeSchema }),
]);
export type JobSetScenarioEvent = z.infer<typeof ScenarioEventSchema>;

export const JobSetScenarioSchema = z.object({
  id: z.string().min(1),
  featureGates: z.record(z.string(), z.boolean()).optional(),
  jobset: JobSetSchema,
  events: z.array(ScenarioEventSchema),
  // Only the conformance runner reads them; a scenario written for `jobfold replay` may have none.
  checkpoints: z.array(z.object({ afterEvent: z.number().int().min(0), expect: z.record(z.string(), z.unknown()) })).default([]),
});
export type JobSetScenario = z.infer<typeof JobSetScenarioSchema>;

/** A scenario the fold cannot play as written: a gate it does not implement, a patch that breaks the JobSet. */
export class JobSetScenarioError extends Error {
  override name = 'JobSetScenarioError';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True for a document in the JobSet scenario format: `format: jobset-fold-scenario/…`, or a JobSet with events and checkpoints. */
export function isJobSetScenario(document: unknown): boolean {
  if (!isRecord(document)) return false;
  if (typeof document.format === 'string') return document.format.startsWith('jobset-fold-scenario/');
  const jobset = document.jobset;
  return isRecord(jobset) && isRecord(jobset.spec) && Array.isArray(jobset.spec.replicatedJobs) && Array.isArray(document.events) && Array.isArray(document.checkpoints);
}

/** The JobSet gates a scenario may name; the fold implements each only in its default (off). */
const DEFAULT_OFF_GATES = new Set(['RestartJob', 'InPlaceRestart', 'ElasticJobSet']);

/** The gates the scenario turns on that the fold does not implement (none: it can be played). */
export const unsupportedGates = (scenario: JobSetScenario): string[] =>
  Object.entries(scenario.featureGates ?? {}).filter(([gate, on]) => on && DEFAULT_OFF_GATES.has(gate)).map(([gate]) => gate);

/** The JobSet after a `JobSetSpecUpdated` patch (event `n`, 1-based), checked against the schema again. */
export function patchedJobSet(jobSet: JobSet, patch: Record<string, unknown>, n: number): JobSet {
  const parsed = JobSetSchema.safeParse({ ...jobSet, spec: applyMergePatch(jobSet.spec, patch) });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  throw new JobSetScenarioError(`events[${n - 1}].patch: the patched JobSet is invalid at ${path}: ${issue?.message}`);
}
