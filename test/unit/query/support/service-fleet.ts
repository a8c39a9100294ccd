import { readFileSync } from 'node:fs';
import type { EventStore, StreamId } from '../../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../../shared/log/pod-archive.ts';
import { DEFAULT_FOLD_CONFIG, type FoldConfig } from '../../../../shared/job/state.ts';
import { JobScenarioSchema, type JobScenario } from '../../../../cli/scenario/job-scenario.ts';
import { kinesisEvent } from '../../../support/kinesis-records.ts';
import { streamKey } from '../../../../shared/log/stream-key.ts';
import { parseInbound } from '../../../../shared/contract/parse-inbound.ts';
import { createRecordWriter } from '../../../../functions/handlers/writer-handler.ts';
import { timerRecord } from '../../../../functions/handlers/writer/timer-record.ts';

// Builds realistic Job logs by running the service's own code: the writer (the inbound contract,
// then the one write loop) logs each group of events sharing a time, a timer as its Tick, and
// decides at each log position, as the scenarios' model says.

export type ServiceStore = EventStore & PodArchive;

export interface Service {
  readonly store: ServiceStore;
  readonly config: FoldConfig;
  /** Write a snapshot every this many entries, so loadState meets snapshots and archives. */
  readonly snapshotEvery: number;
}

export const aService = (store: ServiceStore): Service => ({ store, config: DEFAULT_FOLD_CONFIG, snapshotEvery: 5 });

const REPO = new URL('../../../../', import.meta.url);

export function loadScenario(path: string): JobScenario {
  return JobScenarioSchema.parse(JSON.parse(readFileSync(new URL(path, REPO), 'utf8')));
}

/** One inbound event, as the bus delivers it to the ingest stream. */
export const busEvent = (clusterId: string, detailType: string, detail: unknown) => ({
  source: `jobfold.cluster.${clusterId}`,
  'detail-type': detailType,
  detail,
});

/** One writer per service, kept warm across deliveries as a Lambda container is; its clock is the delivery's time. */
const writers = new WeakMap<Service, ServiceWriter>();

interface ServiceWriter {
  now: string;
  rejected: string[];
  /** The wake-up each log's writer last asked for (the Scheduler keeps one timer per log). */
  readonly timers: Map<string, { readonly stream: StreamId; readonly at: string }>;
  readonly write: ReturnType<typeof createRecordWriter>;
}

function writerOf(service: Service): ServiceWriter {
  let writer = writers.get(service);
  if (!writer) {
    const state = { now: '', rejected: [] as string[], timers: new Map<string, { stream: StreamId; at: string }>() };
    const write = createRecordWriter({
      store: service.store, config: service.config, snapshotEvery: service.snapshotEvery, clock: () => state.now,
      rejections: { reject: async (_event, errors) => void state.rejected.push(JSON.stringify(errors)) },
      timers: { schedule: async (stream, at) => void state.timers.set(streamKey(stream), { stream: { ...stream }, at }) },
    });
    writers.set(service, (writer = Object.assign(state, { write })));
  }
  return writer;
}

/**
 * Delivers `events` to the writer in one batch of ingest-stream records, at `at`: every log they
 * name is written and decided at its positions (a JobSet after the Jobs that report to it). A
 * failed event is a broken test, and so is a refused one unless `rejected` is given: the reasons
 * of the refused events are then added to it (a parked log's records are refused, with the stall).
 */
export async function deliverAt(service: Service, at: string, events: readonly unknown[], rejected?: string[]): Promise<void> {
  const writer = writerOf(service);
  writer.now = at;
  writer.rejected = [];
  const failures = await writer.write(kinesisEvent(events).Records);
  if (failures.length > 0) throw new Error(`test events not written: ${failures.map((f) => String(f.error)).join('; ')}`);
  if (rejected) rejected.push(...writer.rejected);
  else if (writer.rejected.length > 0) throw new Error(`test event rejected: ${writer.rejected.join('; ')}`);
}

/**
 * Fires every timer the writer asked for that is due by `until`, in time order, each as the
 * Scheduler does (its Tick logged at the due time); timers those Ticks ask for fire too.
 */
export async function fireTimersDue(service: Service, until: string): Promise<void> {
  const { timers } = writerOf(service);
  for (let fired = 0; ; fired++) {
    const next = [...timers.entries()].filter(([, t]) => Date.parse(t.at) <= Date.parse(until)).sort((a, b) => a[1].at.localeCompare(b[1].at))[0];
    if (!next) return;
    if (fired > 10_000) throw new Error('timers keep firing');
    timers.delete(next[0]);
    await tickAt(service, next[1].stream, next[1].at);
  }
}

/** The timer of `stream` due at `at` fires: the writer logs a Tick at `at` and decides there. */
export async function tickAt(service: Service, stream: StreamId, at: string): Promise<void> {
  await deliverAt(service, at, [timerRecord(stream, at)]);
}

export interface ScenarioPlay {
  readonly clusterId: string;
  /** The Job's uid; another than the scenario's prefixes pod uids and event ids. */
  readonly uid?: string;
  readonly creationTimestamp?: string;
  /** Stop after this many scenario events (the Job stays unfinished). */
  readonly events?: number;
}

/**
 * Plays a Job scenario (cli/scenario format) through the service. Pods get the controller
 * ownerReference the contract needs; PodDeleted carries the last known pod's identity.
 */
export async function playScenario(service: Service, scenario: JobScenario, play: ScenarioPlay): Promise<StreamId> {
  const uid = play.uid ?? scenario.job.metadata.uid ?? 'job-uid';
  const created = play.creationTimestamp ?? scenario.job.metadata.creationTimestamp ?? '2026-01-01T00:00:00Z';
  const namespace = scenario.job.metadata.namespace ?? 'default';
  const stream: StreamId = { kind: 'Job', clusterId: play.clusterId, namespace, uid };
  const job = { ...scenario.job, metadata: { ...scenario.job.metadata, uid, creationTimestamp: created } };
  // The Job's observation goes with the first run of events, as the scenario model has it: one
  // sync after each run of equal times.
  let pending: unknown[] = [busEvent(play.clusterId, 'Job Observed', { eventId: `${uid}/job`, observedAt: created, object: job })];
  // The scenario's own uid keeps its ids, so the log matches playJobScenario's id for id.
  const own = uid === scenario.job.metadata.uid;
  const podUid = (scenarioUid: string) => (own ? scenarioUid : `${uid}-${scenarioUid}`);
  const owner = { apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid, controller: true };
  const podNames = new Map<string, string>();
  const events = scenario.events.slice(0, play.events ?? scenario.events.length);
  for (let i = 0; i < events.length; ) {
    const at = events[i]!.at;
    const group = pending;
    pending = [];
    for (; i < events.length && events[i]!.at === at; i++) {
      const event = events[i]!;
      const eventId = own ? `event-${i}` : `${uid}/event-${i}`;
      if (event.type === 'Tick') {
        group.push(timerRecord(stream, at));
      } else if (event.type === 'Pod') {
        podNames.set(event.pod.metadata.uid ?? '', event.pod.metadata.name);
        const metadata = { ...event.pod.metadata, uid: podUid(event.pod.metadata.uid ?? ''), ownerReferences: [owner] };
        const pod = { ...event.pod, metadata };
        group.push(busEvent(play.clusterId, 'Pod Observed', { eventId, observedAt: at, object: pod }));
      } else if (event.type === 'Job') {
        throw new Error('Job edits are not played by the fleet helper');
      } else {
        const metadata = { uid: podUid(event.uid), name: podNames.get(event.uid) ?? event.uid, namespace, ownerReferences: [owner] };
        group.push(busEvent(play.clusterId, 'Pod Deleted', { eventId, observedAt: at, object: { metadata } }));
      }
    }
    await deliverAt(service, at, group);
  }
  if (pending.length > 0) await deliverAt(service, created, pending);
  return stream;
}

export type BusEvent = ReturnType<typeof busEvent> & { detail: { observedAt: string } };

/**
 * The events of a JSONL file of PutEvents entries (samples/*.jsonl) as the bus delivers them;
 * with `clusterId`, as if that cluster had sent them.
 */
export function readPutEvents(path: string, clusterId?: string): BusEvent[] {
  const lines = readFileSync(new URL(path, REPO), 'utf8').split('\n').filter((line) => line.trim() !== '');
  return lines.map((line) => {
    const entry = JSON.parse(line) as { Source: string; DetailType: string; Detail: string };
    const source = clusterId === undefined ? entry.Source : `jobfold.cluster.${clusterId}`;
    return { source, 'detail-type': entry.DetailType, detail: JSON.parse(entry.Detail) as { observedAt: string } };
  });
}

/**
 * Plays a JSONL file of PutEvents entries (samples/*.jsonl) through the writer, one delivery per
 * run of entries sharing an observedAt; the stream of the first entry.
 */
export async function playJsonl(service: Service, path: string): Promise<StreamId> {
  const events = readPutEvents(path);
  for (let i = 0; i < events.length; ) {
    const at = events[i]!.detail.observedAt;
    const group: BusEvent[] = [];
    for (; i < events.length && events[i]!.detail.observedAt === at; i++) group.push(events[i]!);
    await deliverAt(service, at, group);
  }
  const first = events[0];
  if (!first) throw new Error(`${path} holds no events`);
  return streamOf(first);
}

/** The entries of a TraceRecorder (local/sample), as PutEvents entries with the instant each was sent at. */
export interface RecordedTrace {
  readonly entries: readonly { readonly at: unknown; readonly Source: string; readonly DetailType: string; readonly Detail: string }[];
}

/** Plays a trace through the writer, one delivery per instant; the stream of its first entry (the Job). */
export async function playTrace(service: Service, trace: RecordedTrace): Promise<StreamId> {
  const entries = trace.entries.map((e) => ({ at: e.at, event: { source: e.Source, 'detail-type': e.DetailType, detail: JSON.parse(e.Detail) as { observedAt: string } } }));
  for (let i = 0; i < entries.length;) {
    const at = entries[i]!.at;
    const time = entries[i]!.event.detail.observedAt;
    const group = [];
    for (; i < entries.length && entries[i]!.at === at; i++) group.push(entries[i]!.event);
    await deliverAt(service, time, group);
  }
  if (!entries[0]) throw new Error('the trace holds no entries');
  return streamOf(entries[0].event);
}

/** The log an inbound event is written to (its primary target). */
export function streamOf(event: unknown): StreamId {
  const parsed = parseInbound(event);
  if (!parsed.ok) throw new Error(`test event rejected: ${JSON.stringify(parsed.errors)}`);
  const [primary] = parsed.targets;
  if (!primary) throw new Error('the test event concerns no log');
  return { ...primary.stream };
}

/** A plain Job observed and decided once (pods requested, summary written). */
export async function observeJob(
  service: Service,
  job: { clusterId: string; namespace: string; name: string; uid: string; creationTimestamp: string },
): Promise<StreamId> {
  const { clusterId, namespace, name, uid, creationTimestamp } = job;
  const object = {
    metadata: { name, namespace, uid, creationTimestamp },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
  };
  await deliverAt(service, creationTimestamp, [busEvent(clusterId, 'Job Observed', { eventId: `${uid}/job`, observedAt: creationTimestamp, object })]);
  return { kind: 'Job', clusterId, namespace, uid };
}
