import type { LogEntry } from '../../../../shared/log/event-store.ts';
import { entryEvent } from '../../../../shared/job/log-codec.ts';
import { evolve, type JobEvent } from '../../../../shared/job/evolve.ts';
import { countAtSync } from '../../../../shared/job/observe-pod.ts';
import { initialState, type FoldConfig, type JobState } from '../../../../shared/job/state.ts';

/**
 * Folds Job log entries from the start: the state after the last one, and the events (each with
 * its seq). The reference the query routes, which start from snapshots, must agree with.
 */
export function foldJobLog(config: FoldConfig, entries: readonly LogEntry[]): { state: JobState; events: JobEvent[] } {
  const state = initialState(config);
  const events = entries.map(entryEvent);
  for (const event of events) evolve(state, event);
  countAtSync(state);
  return { state, events };
}
