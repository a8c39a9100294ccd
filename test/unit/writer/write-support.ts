import { readFileSync } from 'node:fs';
import type { CommitInput, CommitResult, EventStore, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { itemEvents } from '../../../shared/publish/publish.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { writeBatch, type WriteDeps, type WriteOutcome } from '../../../shared/decide/write-batch.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import type { FoldConfig } from '../../../shared/job/state.ts';
import { parseInbound } from '../../../shared/contract/parse-inbound.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import type { Observation } from '../../../shared/job/events.ts';
import type { JobCommand } from '../../../shared/job/commands.ts';
import type { Decision } from '../../../shared/job/decisions.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobStatus, type JobStatusView } from '../../../shared/job/status.ts';

/** A sample trace (one PutEvents entry a line) as the events EventBridge delivers. */
export function sampleEvents(path: string): unknown[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => {
    const entry = JSON.parse(line) as { Source: string; DetailType: string; Detail: string };
    return { source: entry.Source, 'detail-type': entry.DetailType, detail: JSON.parse(entry.Detail) };
  });
}

/** The Job stream and observation of each valid event, in order. */
export function observationsOf(events: readonly unknown[]): { stream: StreamId; observation: Observation }[] {
  return events.map((event) => {
    const parsed = parseInbound(event);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const primary = parsed.targets[0];
    if (!primary) throw new Error('no target');
    return { stream: primary.stream, observation: primary.entry.body as Observation };
  });
}

/** The write loop's deps, with the Job fold's configuration its Job decider is made with. */
export interface JobWriteDeps extends WriteDeps {
  readonly config: FoldConfig;
}

export function writeDeps(store: WriteDeps['store'], overrides: Partial<JobWriteDeps> = {}): JobWriteDeps {
  return { store, clock: () => '2026-06-01T00:00:00Z', config: DEFAULT_FOLD_CONFIG, ...overrides };
}

/** One batch of a Job's observations through the write loop, with the Job decider of `deps.config`. */
export function writeJob(deps: JobWriteDeps, stream: StreamId, observations: readonly Observation[]): Promise<WriteOutcome<Decision, JobCommand, Observation>> {
  return writeBatch(jobDecider(deps.config), deps, stream, observations);
}

/** Writes `observations` of one stream in batches of the given sizes (the last size repeats). */
export async function writeInBatches(deps: JobWriteDeps, stream: StreamId, observations: readonly Observation[], sizes: readonly number[]): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = [];
  for (let i = 0, b = 0; i < observations.length; b++) {
    const size = Math.max(1, sizes[b] ?? sizes.at(-1) ?? 1);
    outcomes.push(await writeJob(deps, stream, observations.slice(i, i + size)));
    i += size;
  }
  return outcomes;
}

export async function statusOf(store: WriteDeps['store'], stream: StreamId, config = DEFAULT_FOLD_CONFIG): Promise<JobStatusView> {
  return jobStatus((await loadState(jobDecider(config), store, stream)).state);
}

/** Every outbound event the outbox holds for the stream (published or not), in item order. */
export async function outboxEvents(store: InMemoryEventStore, stream: StreamId): Promise<OutboundEvent[]> {
  const items = (await store.pendingOutbox(10_000)).filter((item) => item.stream.uid === stream.uid);
  return (await Promise.all(items.map((item) => itemEvents(store as EventStore, item)))).flat();
}

/** Commands as compared across batchings: type and stable id. */
export const commandKeys = (events: readonly OutboundEvent[]) => events.map((e) => `${e.detailType} ${e.commandId}`).sort();

/**
 * The in-memory store, refusing what no store catches: a commit whose eventIds the log
 * already holds (the store keeps no per-event markers, so the writer's own dedupe against the
 * whole log is all there is). A test on it fails where the writer would log an event twice.
 * A commit whose expected head is not the head is left to the store's own conflict.
 */
export class NoMarkersStore extends InMemoryEventStore {
  override async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    const log = await this.read(stream);
    // A commit on a moved head is a conflict (as in every store), whatever it holds.
    if (input.entries.length > 0 && log.head === input.expectedHead) {
      const logged = new Set(log.entries.map((e) => e.eventId));
      const again = input.entries.filter((e) => logged.has(e.eventId)).map((e) => e.eventId);
      if (again.length > 0) throw new Error(`logged twice: ${again.join(', ')}`);
    }
    return super.commit(stream, input);
  }
}
