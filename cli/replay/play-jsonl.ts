import { decide } from '../../shared/job/index.ts';
import { evolve, type JobEvent } from '../../shared/job/index.ts';
import type { FeatureGates } from '../../shared/job/index.ts';
import { initialState } from '../../shared/job/index.ts';
import { jobStatus } from '../../shared/job/index.ts';
import type { JsonlEvent } from './jsonl-events.ts';
import type { ReplayRun, ReplaySync } from './replay-run.ts';

export interface JsonlPlayOptions {
  readonly gates: FeatureGates;
  /** Fold the events on lines up to this (1-based) file line only (`--at`). */
  readonly stopAfterLine?: number;
  /** Called after each reconcile with the number of events folded so far. */
  readonly onProgress?: (folded: number) => void;
}

/**
 * Replays a JSONL stream the way the service runs: events are appended to the Job's log in
 * stream order, and after each run of consecutive events sharing an `observedAt` the Job is
 * reconciled once, at that time, and the decisions are appended too (the scenarios' model).
 * Specs are validated, as the service does.
 */
export function playJsonl(events: readonly JsonlEvent[], options: JsonlPlayOptions): ReplayRun {
  const state = initialState({ gates: options.gates, validateSpecs: true });
  const log: JobEvent[] = [];
  const append = (event: JobEvent) => {
    const logged = { ...event, seq: log.length + 1 } as JobEvent;
    log.push(logged);
    evolve(state, logged);
  };
  const included = events.filter((e) => e.line <= (options.stopAfterLine ?? Infinity));
  const syncs: ReplaySync[] = [];
  let i = 0;
  while (i < included.length) {
    const at = included[i]?.observation.observedAt as string;
    while (i < included.length && included[i]?.observation.observedAt === at) {
      append((included[i] as JsonlEvent).observation);
      i++;
    }
    const result = decide(state, at);
    for (const decision of result.decisions) append(decision);
    syncs.push({ at, decisions: result.decisions, commands: result.commands, status: jobStatus(state) });
    options.onProgress?.(i);
  }
  return { syncs, log, state };
}
