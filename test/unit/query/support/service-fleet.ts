import { readFileSync } from 'node:fs';
import type { EventStore, StreamId } from '../../../../shared/app/event-store.ts';
import { ingest } from '../../../../shared/app/ingest.ts';
import type { PodArchive } from '../../../../shared/app/pod-archive.ts';
import { reconcile } from '../../../../shared/app/reconcile.ts';
import { DEFAULT_FOLD_CONFIG, type FoldConfig } from '../../../../shared/job/state.ts';
import { JobScenarioSchema, type JobScenario } from '../../../../cli/scenario/job-scenario.ts';
import { appendTick } from '../../../support/append-tick.ts';
import { kinesisEvent } from '../../../support/kinesis-records.ts';
import { createRecordWriter } from '../../../../functions/handlers/writer-handler.ts';

// Builds realistic Job logs by running the service's own code: ingest (the inbound contract)
// appends each observation, a timer appends its Tick, and reconcile decides after each
// group of events sharing a time, with the clock at that time, as the scenarios' model says.

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

/** One inbound event, as the bus delivers it to ingest. */
export const busEvent = (clusterId: string, detailType: string, detail: unknown) => ({
  source: `jobfold.cluster.${clusterId}`,
  'detail-type': detailType,
  detail,
});

const rejections = { reject: async () => {} };

/** Ingests one event at `at`; the stream it went to. A refused test event is a broken test. */
export async function ingestAt(service: Service, at: string, event: unknown): Promise<StreamId> {
  const result = await ingest({ store: service.store, rejections, clock: () => at }, event);
  if (result.status === 'rejected') throw new Error(`test event rejected: ${JSON.stringify(result.errors)}`);
  return { ...result.stream };
}

/** One writer per service, kept warm across deliveries as a Lambda container is; its clock is the delivery's time. */
const writers = new WeakMap<Service, { now: string; write: ReturnType<typeof createRecordWriter> }>();

/**
 * Delivers `events` to the writer in one batch of ingest-stream records, at `at`: every log they
 * name is written and decided at its positions (a JobSet after the Jobs that report to it). A
 * refused or failed event is a broken test.
 */
export async function deliverAt(service: Service, at: string, events: readonly unknown[]): Promise<void> {
  let writer = writers.get(service);
  if (!writer) {
    const state = { now: at };
    const write = createRecordWriter({
      store: service.store, config: service.config, snapshotEvery: service.snapshotEvery, clock: () => state.now,
      rejections: { reject: async (_event, errors) => { throw new Error(`test event rejected: ${JSON.stringify(errors)}`); } },
      timers: { schedule: async () => undefined },
    });
    writers.set(service, (writer = Object.assign(state, { write })));
  }
  writer.now = at;
  const failures = await writer.write(kinesisEvent(events).Records);
  if (failures.length > 0) throw new Error(`test events not written: ${failures.map((f) => String(f.error)).join('; ')}`);
}

async function reconcileAt(service: Service, stream: StreamId, at: string): Promise<void> {
  await reconcile({ ...service, clock: () => at }, stream);
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
  await ingestAt(service, created, busEvent(play.clusterId, 'Job Observed', { eventId: `${uid}/job`, observedAt: created, object: job }));
  // The scenario's own uid keeps its ids, so the log matches playJobScenario's id for id.
  const own = uid === scenario.job.metadata.uid;
  const podUid = (scenarioUid: string) => (own ? scenarioUid : `${uid}-${scenarioUid}`);
  const owner = { apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid, controller: true };
  const podNames = new Map<string, string>();
  const events = scenario.events.slice(0, play.events ?? scenario.events.length);
  for (let i = 0; i < events.length; ) {
    const at = events[i]!.at;
    for (; i < events.length && events[i]!.at === at; i++) {
      const event = events[i]!;
      const eventId = own ? `event-${i}` : `${uid}/event-${i}`;
      if (event.type === 'Tick') {
        await appendTick(service.store, stream, at);
      } else if (event.type === 'Pod') {
        podNames.set(event.pod.metadata.uid ?? '', event.pod.metadata.name);
        const metadata = { ...event.pod.metadata, uid: podUid(event.pod.metadata.uid ?? ''), ownerReferences: [owner] };
        const pod = { ...event.pod, metadata };
        await ingestAt(service, at, busEvent(play.clusterId, 'Pod Observed', { eventId, observedAt: at, object: pod }));
      } else if (event.type === 'Job') {
        throw new Error('Job edits are not played by the fleet helper');
      } else {
        const metadata = { uid: podUid(event.uid), name: podNames.get(event.uid) ?? event.uid, namespace, ownerReferences: [owner] };
        await ingestAt(service, at, busEvent(play.clusterId, 'Pod Deleted', { eventId, observedAt: at, object: { metadata } }));
      }
    }
    await reconcileAt(service, stream, at);
  }
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
 * Plays a JSONL file of PutEvents entries (samples/*.jsonl) through ingest, reconciling after
 * each run of entries sharing an observedAt.
 */
export async function playJsonl(service: Service, path: string): Promise<StreamId> {
  const events = readPutEvents(path);
  let stream: StreamId | undefined;
  for (let i = 0; i < events.length; ) {
    const at = events[i]!.detail.observedAt;
    for (; i < events.length && events[i]!.detail.observedAt === at; i++) {
      stream = await ingestAt(service, at, events[i]);
    }
    if (stream) await reconcileAt(service, stream, at);
  }
  if (!stream) throw new Error(`${path} holds no events`);
  return stream;
}

/** A plain Job observed and reconciled once (pods requested, summary written). */
export async function observeJob(
  service: Service,
  job: { clusterId: string; namespace: string; name: string; uid: string; creationTimestamp: string },
): Promise<StreamId> {
  const { clusterId, namespace, name, uid, creationTimestamp } = job;
  const object = {
    metadata: { name, namespace, uid, creationTimestamp },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
  };
  await ingestAt(service, creationTimestamp, busEvent(clusterId, 'Job Observed', { eventId: `${uid}/job`, observedAt: creationTimestamp, object }));
  const stream: StreamId = { kind: 'Job', clusterId, namespace, uid };
  await reconcileAt(service, stream, creationTimestamp);
  return stream;
}
