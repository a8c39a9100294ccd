import type { StreamId } from '../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../shared/log/in-memory-event-store.ts';
import { streamKey } from '../../shared/log/stream-key.ts';
import { entryObservation, fedBatches, logBatch, type LogBatch } from '../../shared/decide/fed-logs.ts';
import { loadState } from '../../shared/decide/load-log.ts';
import { StateCache } from '../../shared/decide/state-cache.ts';
import { writeBatch, type WriteDeps, type WriteOutcome } from '../../shared/decide/write-batch.ts';
import { jobDecider } from '../../shared/job/index.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import type { Observation } from '../../shared/job/index.ts';
import { jobSetDecider, type JobSetLogObservation } from '../../shared/jobset/index.ts';
import { jobSetEntryEvent } from '../../shared/jobset/index.ts';
import type { JobSetCommand } from '../../shared/jobset/index.ts';
import { initialState } from '../../shared/jobset/index.ts';
import { jobStreamRows } from './jobset-trace-jobs.ts';
import type { IssuedJobSetCommand, JobSetReplayRun } from './replay-run.ts';
import type { JobSetTrace, TraceLine } from './jobset-trace.ts';

export interface TracePlayOptions {
  /** The Job fold's configuration (feature gates; specs are always validated). */
  readonly config: FoldConfig;
  /** Replay the lines up to this (1-based) file line only (`--at`). */
  readonly stopAfterLine?: number;
}

/**
 * Replays a JobSet trace through the service's write loop, on the in-memory store, as the
 * writer takes a delivery: each run of consecutive lines sharing an `observedAt` (one snapshot
 * of the cluster) is one delivery — every Job's log is written (decided at each of its
 * positions), then the JobSet's, with its own events and what its Jobs reported, in line order
 * (shared/decide/fed-logs.ts). Commands are recorded, not carried out: the trace holds what the
 * cluster did.
 */
export async function playJobSetTrace(trace: JobSetTrace, options: TracePlayOptions): Promise<JobSetReplayRun> {
  const store = new InMemoryEventStore();
  let now = '';
  const deps: WriteDeps = { store, clock: () => now, cache: new StateCache() };
  const jobs = jobDecider(options.config);
  const jobSets = jobSetDecider();
  const jobStreams = new Map<string, StreamId>();
  const commands: IssuedJobSetCommand[] = [];
  const lines = trace.lines.filter((line) => line.line <= (options.stopAfterLine ?? Infinity));
  let reconciles = 0;
  for (const group of groupByObservedAt(lines)) {
    now = group[0]?.observedAt ?? now;
    const batches = new Map<string, LogBatch>();
    for (const line of group) {
      const [primary, ...related] = line.targets;
      if (!primary) continue;
      if (primary.stream.kind === 'Job') jobStreams.set(streamKey(primary.stream), primary.stream);
      const key = streamKey(primary.stream);
      let batch = batches.get(key);
      if (!batch) batches.set(key, (batch = logBatch(primary.stream)));
      batch.entries.push(primary.entry);
      batch.positions.push(line.line);
      batch.related.push(...related.map((target) => ({ ...target, position: line.line })));
    }
    const written: { batch: LogBatch; outcome: WriteOutcome }[] = [];
    for (const batch of [...batches.values()].filter((b) => b.stream.kind === 'Job')) {
      written.push({ batch, outcome: await writeBatch(jobs, deps, batch.stream, batch.entries.map((entry) => entryObservation<Observation>(entry))) });
    }
    for (const batch of fedBatches(written, [...batches.values()].filter((b) => b.stream.kind === 'JobSet'))) {
      const outcome = await writeBatch(jobSets, deps, batch.stream, batch.entries.map((entry) => entryObservation<JobSetLogObservation>(entry)));
      if (trace.jobSet === undefined || streamKey(batch.stream) !== streamKey(trace.jobSet)) continue;
      reconciles++;
      const sent = new Set(outcome.published.map((event) => event.commandId));
      const at = (command: JobSetCommand) => outcome.decisions.find((d) => 'commandId' in d && d.commandId === command.commandId)?.at ?? now;
      commands.push(...outcome.commands.map((command) => ({ at: at(command), command, dispatched: sent.has(command.commandId) })));
    }
  }
  if (trace.jobSet === undefined) return { clusterId: undefined, state: initialState(), log: [], commands, reconciles, childJobs: [] };
  const { state } = await loadState(jobSets, store, trace.jobSet, { fromStart: true });
  const log = (await store.read(trace.jobSet)).entries.map((entry) => ({ seq: entry.seq, event: jobSetEntryEvent(entry) }));
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
