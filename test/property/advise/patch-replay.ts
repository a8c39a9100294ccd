import { decide } from '../../../shared/job/decide.ts';
import { JOB_INDEX_FAILURE_COUNT_ANNOTATION, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION } from '../../../shared/k8s/job-controller.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { DEFAULT_FOLD_CONFIG, initialState } from '../../../shared/job/state.ts';
import { JobSchema, type Job } from '../../../shared/k8s/job.ts';
import { parseTime } from '../../../shared/k8s/time.ts';
import { applyMergePatch } from '../../../shared/whatif/patch.ts';
import { jobObserved, T0, tick } from '../../support/builders.ts';
import type { Batch } from '../job/arbitraries.ts';

// A Job's life as the service lives it, for the advice's property: each batch folded and
// reconciled at its time, and between batches the controller's own wake-ups (deadline,
// backoff) as Ticks, as the scheduler delivers them. Lived once under the recorded spec (the
// record), and again under the patched spec from the same observations (the patched world),
// independently of the what-if: its outcome is what the what-if must report.

const MAX_WAKE_UPS = 50;

export interface Life {
  readonly log: JobEvent[];
  /** The record's position of each observation of the batches (by identity). */
  readonly seqOf: Map<JobEvent, number>;
  /** The recorded fold's failed indexes right after each observation of the batches. */
  readonly failedAfter: Map<JobEvent, string>;
}

export interface PatchedWorldRules {
  /** The merge patch, laid over every observed version of the Job. */
  readonly patch: unknown;
  /** The record: which indexes its controller had failed when each observation came. */
  readonly record: Life;
  /** The recorded Job had no backoffLimitPerIndex and the patched one has: pods get the counts the patched controller created them with. */
  readonly deriveCounts: boolean;
}

/** Lives `job` through `batches`, waking up at its own timers before each batch and, after the last, before `until`. */
export function live(job: Job, batches: readonly Batch[], until: number | undefined, world?: PatchedWorldRules): Life {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  const log: JobEvent[] = [];
  const seqOf = new Map<JobEvent, number>();
  const failedAfter = new Map<JobEvent, string>();
  const seen = new Set<string>();
  const dropped = new Set<string>();
  const counts = new Map<string, { failures: number; ignored: number }>();
  const nextCounts = new Map<number, { failures: number; ignored: number }>();
  let wake: number | undefined;
  const append = (event: JobEvent) => {
    const logged = { ...event, seq: log.length + 1 } as JobEvent;
    log.push(logged);
    evolve(state, logged);
    return logged.seq as number;
  };
  const reconcile = (at: string) => {
    const result = decide(state, at);
    for (const decision of result.decisions) append(decision);
    for (const command of result.commands) {
      if (command.type === 'CreatePod' && command.index !== undefined) {
        nextCounts.set(command.index, { failures: command.indexFailureCount ?? 0, ignored: command.indexIgnoredFailureCount ?? 0 });
      }
    }
    wake = result.wakeAt === undefined ? undefined : parseTime(result.wakeAt);
  };
  const wakeUpsBefore = (limit: number) => {
    for (let n = 0; n < MAX_WAKE_UPS && wake !== undefined && wake < limit; n++) {
      const at = new Date(wake).toISOString();
      append(tick(at));
      reconcile(at);
    }
  };
  append(jobObserved(job, T0));
  reconcile(T0);
  for (const batch of batches) {
    wakeUpsBefore(parseTime(batch.at));
    for (const event of batch.events) {
      const shown = world ? asPatched(event) : event;
      if (shown) seqOf.set(event, append(shown));
      failedAfter.set(event, state.status.failedIndexes.toString());
    }
    reconcile(batch.at);
  }
  if (until !== undefined) wakeUpsBefore(until);
  return { log, seqOf, failedAfter };

  /** The observation in the patched world: dropped for a pod it never created, with its counts where derived. */
  function asPatched(event: JobEvent): JobEvent | undefined {
    if (event.type === 'JobObserved') return { ...event, job: JobSchema.parse(applyMergePatch(event.job, world?.patch)) };
    const uid = event.type === 'PodObserved' ? event.pod.metadata.uid : event.type === 'PodDeleted' ? event.uid : undefined;
    if (uid === undefined || !world) return event;
    if (dropped.has(uid)) return undefined;
    const index = event.type === 'PodObserved' ? Number(event.pod.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] ?? Number.NaN) : state.pods.get(uid)?.index;
    if (!seen.has(uid) && index !== undefined && index >= 0) {
      const failedHere = state.status.failedIndexes.has(index);
      const failedInRecord = new Set((world.record.failedAfter.get(event) ?? '').split(',').flatMap(expand)).has(index);
      if (failedHere && !failedInRecord) {
        dropped.add(uid);
        return undefined;
      }
    }
    seen.add(uid);
    if (event.type !== 'PodObserved' || !world.deriveCounts || index === undefined || Number.isNaN(index)) return event;
    let given = counts.get(uid);
    if (!given) {
      given = nextCounts.get(index) ?? { failures: 0, ignored: 0 };
      nextCounts.delete(index);
      counts.set(uid, given);
    }
    const annotations = { ...event.pod.metadata.annotations, [JOB_INDEX_FAILURE_COUNT_ANNOTATION]: String(given.failures), [JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION]: String(given.ignored) };
    return { ...event, pod: { ...event.pod, metadata: { ...event.pod.metadata, annotations } } };
  }
}

/** Lives the patched Job: the patch over every observed version of the Job. */
export function livePatched(job: Job, batches: readonly Batch[], until: number | undefined, world: PatchedWorldRules): Life {
  return live(JobSchema.parse(applyMergePatch(job, world.patch)), batches, until, world);
}

/** `2-4` → 2, 3, 4 (an index set's text). */
function expand(part: string): number[] {
  if (part === '') return [];
  const [a, b] = part.split('-').map(Number);
  if (b === undefined) return [a as number];
  return Array.from({ length: (b as number) - (a as number) + 1 }, (_, i) => (a as number) + i);
}

