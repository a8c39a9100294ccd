import * as z from 'zod';
import { jobSetScenarioKind } from '../conformance/kinds/jobset-scenario.ts';
import { evolve } from '../../shared/jobset/evolve.ts';
import type { JobSetEvent } from '../../shared/jobset/events.ts';
import { ChildJobSchema, JobSetSchema, type JobSet } from '../../shared/jobset/schemas.ts';
import { settle } from '../../shared/jobset/settle.ts';
import { initialState, type ChildJobView, type JobSetState } from '../../shared/jobset/state.ts';
import { EXIT_BAD_INPUT, EXIT_USAGE, ReplayError } from './replay-error.ts';
import type { ChildJobRow, IssuedJobSetCommand, JobSetReplayRun } from './jobset-run.ts';

// A JobSet scenario (../shared/conformance/jobset/README.md) played as the conformance adapter
// plays it: the JobSet is observed at the first event's time and reconciled to its fixed point,
// then each event is folded and the JobSet reconciled again, commands assumed to succeed.

const TimeSchema = z.string().min(1);
const EventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('JobStatus'), at: TimeSchema, job: ChildJobSchema }),
  z.object({ type: z.literal('JobStatusBatch'), at: TimeSchema, jobs: z.array(ChildJobSchema).min(1) }),
  z.object({ type: z.literal('JobDeleted'), at: TimeSchema, name: z.string().min(1) }),
  z.object({ type: z.literal('JobSetSpecUpdated'), at: TimeSchema, patch: z.record(z.string(), z.unknown()) }),
  // test/conformance/jobset's events: time passes; the JobSet gets a deletionTimestamp; it is gone.
  z.object({ type: z.literal('Tick'), at: TimeSchema }),
  z.object({ type: z.literal('JobSetMarkedForDeletion'), at: TimeSchema }),
  z.object({ type: z.literal('JobSetDeleted'), at: TimeSchema }),
]);
type ScenarioEvent = z.infer<typeof EventSchema>;

export const JobSetScenarioSchema = z.object({
  id: z.string().min(1),
  featureGates: z.record(z.string(), z.boolean()).optional(),
  jobset: JobSetSchema,
  events: z.array(EventSchema),
});
export type JobSetScenario = z.infer<typeof JobSetScenarioSchema>;

/** The JobSet gates a scenario may name; the fold implements each only in its default (off). */
const DEFAULT_OFF_GATES = new Set(['RestartJob', 'InPlaceRestart', 'ElasticJobSet']);

/** True for a document in the JobSet scenario format (the conformance runner's test). */
export const isJobSetScenario = (document: unknown): boolean => jobSetScenarioKind.matches(document);

/** Plays the scenario up to and including event `stopAfterEvent` (0 = the JobSet's creation). */
export function playJobSetScenario(scenario: JobSetScenario, stopAfterEvent?: number): JobSetReplayRun {
  const unsupported = Object.entries(scenario.featureGates ?? {}).filter(([gate, on]) => on && DEFAULT_OFF_GATES.has(gate));
  if (unsupported.length > 0) {
    throw new ReplayError(`unsupported JobSet feature gates: ${unsupported.map(([gate]) => gate).join(', ')}`, EXIT_BAD_INPUT);
  }
  const last = stopAfterEvent ?? scenario.events.length;
  if (last > scenario.events.length) {
    throw new ReplayError(`--at ${last}: the scenario has events 0-${scenario.events.length}`, EXIT_USAGE);
  }
  const log: { seq: number; event: JobSetEvent }[] = [];
  const commands: IssuedJobSetCommand[] = [];
  let state: JobSetState = initialState();
  const append = (event: JobSetEvent) => {
    state = evolve(state, event);
    log.push({ seq: state.position, event });
  };
  let jobSet: JobSet = scenario.jobset;
  const createdAt = scenario.events[0]?.at ?? '1970-01-01T00:00:00Z';
  append({ type: 'JobSetObserved', at: createdAt, eventId: undefined, jobSet });
  for (let n = 0; n <= last; n++) {
    const event = n === 0 ? undefined : (scenario.events[n - 1] as ScenarioEvent);
    if (event?.type === 'JobSetSpecUpdated') jobSet = patchSpec(jobSet, event.patch, n);
    if (event?.type === 'JobSetMarkedForDeletion') jobSet = { ...jobSet, metadata: { ...jobSet.metadata, deletionTimestamp: event.at } };
    for (const observation of event === undefined ? [] : observations(event, jobSet)) append(observation);
    const now = event?.at ?? createdAt;
    const settled = settle(state, now);
    for (const decision of settled.events) append(decision);
    commands.push(...settled.commands.map((command) => ({ at: now, command, dispatched: undefined })));
  }
  const childJobs = Object.values(state.children)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(childJobRow);
  return { clusterId: undefined, state, log, commands, reconciles: last + 1, childJobs };
}

/** The JobSet after a `JobSetSpecUpdated` patch, checked against the schema again. */
function patchSpec(jobSet: JobSet, patch: Record<string, unknown>, n: number): JobSet {
  const parsed = JobSetSchema.safeParse({ ...jobSet, spec: mergePatch(jobSet.spec, patch) });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  throw new ReplayError(`events[${n - 1}].patch: the patched JobSet is invalid at ${path}: ${issue?.message}`, EXIT_BAD_INPUT);
}

function observations(event: ScenarioEvent, jobSet: JobSet): JobSetEvent[] {
  switch (event.type) {
    case 'JobStatus':
      return [{ type: 'JobObserved', at: event.at, eventId: undefined, job: event.job }];
    case 'JobStatusBatch':
      return event.jobs.map((job) => ({ type: 'JobObserved', at: event.at, eventId: undefined, job }));
    case 'JobDeleted':
      return [{ type: 'JobDeleted', at: event.at, eventId: undefined, name: event.name }];
    case 'JobSetSpecUpdated':
    case 'JobSetMarkedForDeletion':
      return [{ type: 'JobSetObserved', at: event.at, eventId: undefined, jobSet }];
    case 'Tick':
      return [{ type: 'Tick', at: event.at, eventId: undefined }];
    case 'JobSetDeleted':
      return [{ type: 'JobSetDeleted', at: event.at, eventId: undefined }];
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** The controller's view of a child Job as a row: what it believes exists, and in which state. */
export function childJobRow(job: ChildJobView): ChildJobRow {
  const running = `Running (${job.active} active, ${job.ready} ready)`;
  const status = job.terminating
    ? 'Terminating'
    : job.finished ?? (job.suspend ? 'Suspended' : job.active > 0 || job.ready > 0 ? running : 'Created');
  return {
    name: job.name,
    uid: job.uid,
    replicatedJob: job.replicatedJob,
    jobIndex: job.jobIndex,
    restartAttempt: job.restartAttempt,
    status: job.terminating && job.finished !== undefined ? `${job.finished}, terminating` : status,
    failureReason: job.failure?.reason ?? '',
    why: undefined,
  };
}

/** RFC 7386 JSON merge patch (`JobSetSpecUpdated`). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
