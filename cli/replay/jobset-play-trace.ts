import type { StreamId } from '../../shared/app/event-store.ts';
import { InMemoryEventStore } from '../../shared/app/in-memory-event-store.ts';
import { ingest, type RejectionSink } from '../../shared/app/ingest.ts';
import { reconcile } from '../../shared/app/reconcile.ts';
import { jobSetEntryEvent, loadJobSetState, reconcileJobSet } from '../../shared/app/reconcile-jobset.ts';
import { streamKey } from '../../shared/app/stream-key.ts';
import type { FoldConfig } from '../../shared/job/state.ts';
import { initialState } from '../../shared/jobset/state.ts';
import { jobStreamRows } from './jobset-trace-jobs.ts';
import type { IssuedJobSetCommand, JobSetReplayRun } from './jobset-run.ts';
import type { JobSetTrace, TraceLine } from './jobset-trace.ts';

export interface TracePlayOptions {
  /** The Job fold's configuration (feature gates; specs are always validated). */
  readonly config: FoldConfig;
  /** Replay the lines up to this (1-based) file line only (`--at`). */
  readonly stopAfterLine?: number;
}

/**
 * Replays a JobSet trace through the service, on the in-memory store: each event is ingested
 * as the ingest function does it; after each run of consecutive events sharing an `observedAt`,
 * every Job seen so far is reconciled at that time (a Job owned by the JobSet then reports its
 * status to the JobSet's log), and then the JobSet. Commands are recorded, not carried out: the
 * trace holds what the cluster did.
 */
export async function playJobSetTrace(trace: JobSetTrace, options: TracePlayOptions): Promise<JobSetReplayRun> {
  const store = new InMemoryEventStore();
  let now = '';
  const clock = () => now;
  const rejections: RejectionSink = {
    // The trace was checked with the same parser: a refusal here is a bug, not bad input.
    reject: async (_event, errors) => {
      throw new Error(`ingest refused a checked event: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    },
  };
  const jobStreams = new Map<string, StreamId>();
  const commands: IssuedJobSetCommand[] = [];
  const lines = trace.lines.filter((line) => line.line <= (options.stopAfterLine ?? Infinity));
  let reconciles = 0;
  for (const group of groupByObservedAt(lines)) {
    now = group[0]?.observedAt ?? now;
    for (const line of group) {
      for (const { stream } of line.targets) if (stream.kind === 'Job') jobStreams.set(streamKey(stream), stream);
      await ingest({ store, rejections, clock }, line.event);
    }
    for (const stream of jobStreams.values()) await reconcile({ store, clock, config: options.config }, stream);
    if (trace.jobSet === undefined) continue;
    const outcome = await reconcileJobSet({ store, clock }, trace.jobSet);
    reconciles++;
    const sent = new Set(outcome.published.map((event) => event.commandId));
    commands.push(...outcome.commands.map((command) => ({ at: now, command, dispatched: sent.has(command.commandId) })));
  }
  if (trace.jobSet === undefined) return { clusterId: undefined, state: initialState(), log: [], commands, reconciles, childJobs: [] };
  const { state, entries } = await loadJobSetState(store, trace.jobSet, { fromStart: true });
  const log = entries.map((entry) => ({ seq: entry.seq, event: jobSetEntryEvent(entry) }));
  const childJobs = await jobStreamRows(store, [...jobStreams.values()], trace.jobSet.uid, options.config);
  return { clusterId: trace.jobSet.clusterId, state, log, commands, reconciles, childJobs };
}

/** Runs of consecutive lines with the same observedAt: one snapshot of the cluster each. */
function groupByObservedAt(lines: readonly TraceLine[]): TraceLine[][] {
  const groups: TraceLine[][] = [];
  for (const line of lines) {
    const last = groups.at(-1);
    if (last !== undefined && last[0]?.observedAt === line.observedAt) last.push(line);
    else groups.push([line]);
  }
  return groups;
}
