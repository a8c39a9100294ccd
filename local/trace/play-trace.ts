import { basename } from 'node:path';
import { progress } from '../../cli/progress.ts';
import type { LocalBus } from '../bus/local-bus.ts';
import type { Decided } from '../report/decided.ts';
import { feedTrace, type FeedResult } from './feed-trace.ts';
import type { TraceEntry } from '../../shared/contract/jsonl-trace.ts';
import { planTrace, type TracePace } from './time-shift.ts';

/** A fed trace, once the system went quiet: what was fed and what was decided. */
export interface TraceOutcome {
  readonly file: string;
  readonly feed: FeedResult;
  /** Every Job and JobSet, as the query API reads it, with the commands its cluster received. */
  readonly decided: readonly Decided[];
}

/** A trace about to be fed: its file, its number of events, and how long feeding takes. */
export interface TraceInfo {
  readonly file: string;
  readonly events: number;
  readonly seconds: number;
}

export interface TracePlayDeps {
  readonly bus: LocalBus;
  /** Resolves once nothing is queued or running (see LocalRuntime.whenQuiet). */
  readonly whenQuiet: () => Promise<void>;
  readonly decided: () => Promise<Decided[]>;
  /** Show events/s and ETA on stderr while feeding (on a terminal only). */
  readonly progress?: boolean;
}

export function traceInfo(file: string, entries: readonly TraceEntry[], pace: TracePace): TraceInfo {
  return { file, events: entries.length, seconds: (planTrace(entries, 0, pace).at(-1)?.atMs ?? 0) / 1000 };
}

/** Moves the trace to now, feeds it, waits until the system is quiet, and reports the decisions. */
export async function playTrace(
  deps: TracePlayDeps, file: string, entries: readonly TraceEntry[], pace: TracePace, signal: AbortSignal,
): Promise<TraceOutcome> {
  const shown = deps.progress ? progress(`feeding ${basename(file)}`, entries.length) : undefined;
  const feed = await feedTrace(deps.bus, planTrace(entries, Date.now(), pace), signal, shown && ((fed) => shown.update(fed)));
  shown?.end();
  await deps.whenQuiet();
  return { file, feed, decided: await deps.decided() };
}
