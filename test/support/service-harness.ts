import type { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { Context, KinesisStreamBatchResponse } from 'aws-lambda';
import { busRejectionSink } from '../../functions/aws/bus-rejection-sink.ts';
import { logger, metrics } from '../../functions/commons/powertools.ts';
import { createPublishHandler } from '../../functions/handlers/publish-handler.ts';
import { timerRecord } from '../../functions/handlers/writer/timer-record.ts';
import { createWriterHandler, type WriterHandlerDeps } from '../../functions/handlers/writer-handler.ts';
import type { CommitInput, CommitResult, EventStore, LogEntry, StreamId } from '../../shared/log/event-store.ts';
import type { ArchivedPod } from '../../shared/job/snapshot.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import { ForwardingStore } from '../../shared/log/forwarding-store.ts';
import { itemEvents, type PublishOutcome } from '../../shared/publish/publish.ts';
import type { Publisher } from '../../shared/ports.ts';
import { loadState } from '../../shared/decide/load-log.ts';
import { jobDecider } from '../../shared/job/index.ts';
import { streamKey } from '../../shared/log/stream-key.ts';
import type { OutboundEvent } from '../../shared/contract/outbound.ts';
import type { InboundError } from '../../shared/contract/parse-inbound.ts';
import { DEFAULT_FOLD_CONFIG, type FoldConfig } from '../../shared/job/state.ts';
import { jobStatus, type JobStatusView } from '../../shared/job/status.ts';
import { kinesisEvent } from './kinesis-records.ts';

// The service as Lambda runs it, in one process: the writer (cluster events and timers, from
// the ingest stream; Jobs and JobSets alike) and publish handlers (middy,
// Powertools) over one store, with a controllable clock and recording fakes for the bus, the
// rejected-events destination and the scheduler. Unit tests pass the in-memory store,
// integration tests a DynamoDbEventStore on DynamoDB Local.

/** What the rejected-events destination received: the reasons and the original event text. */
export interface RecordedRejection {
  readonly errors: readonly InboundError[];
  readonly reason: string;
  readonly original: string;
}

/**
 * The outbound bus of every test: keeps each event the publisher put, in order (delivery is at
 * least once: a repeat keeps its commandId). `crashAtCall(n)` makes the nth call from now throw
 * a SimulatedCrash before anything of it is kept, as a publisher dying in PutEvents.
 */
export class RecordingPublisher implements Publisher {
  readonly sent: OutboundEvent[] = [];
  #calls = 0;
  readonly #crashAt = new Set<number>();

  crashAtCall(n: number): void {
    this.#crashAt.add(this.#calls + n);
  }

  async publish(events: readonly OutboundEvent[]) {
    this.#calls += 1;
    if (this.#crashAt.delete(this.#calls)) throw new SimulatedCrash(`bus call ${this.#calls}`);
    this.sent.push(...events);
    return { failed: [] };
  }
}

export interface ServiceHarness {
  readonly store: CrashableStore;
  readonly clock: { now: string };
  readonly bus: RecordingPublisher;
  readonly rejected: RecordedRejection[];
  readonly timers: Array<{ stream: StreamId; at: string }>;
  /** The writer's deps (its store, clock, fold configuration and recording timers). */
  readonly writerDeps: Omit<WriterHandlerDeps, 'rejections'>;
  /**
   * Delivers events as ingest-stream records (JSON data) to the writer, `batchSize` per
   * invocation; returns the sequence numbers the writer reported failed.
   */
  deliver(events: readonly unknown[], batchSize?: number): Promise<string[]>;
  /** Delivers raw record texts in one ingest-stream batch. */
  deliverBodies(bodies: readonly string[]): Promise<KinesisStreamBatchResponse>;
  /**
   * Decides `stream` again at the clock's time, as its timer does: the scheduler puts a timer
   * record due now into the ingest stream, and the writer logs it as a Tick and decides.
   */
  tick(stream: StreamId): Promise<KinesisStreamBatchResponse>;
  /** Runs the publisher once (it drains the outbox; throws when an item stays unpublished). */
  publish(): Promise<PublishOutcome>;
  /** The scheduler puts the timer record of `stream`, due at `at`, into the ingest stream. */
  fireTimer(stream: StreamId, at: string): Promise<void>;
  status(stream: StreamId): Promise<JobStatusView>;
  log(stream: StreamId): Promise<LogEntry[]>;
  /** Outbound events of the unpublished outbox items (of `stream` only, when given). */
  pendingEvents(stream?: StreamId): Promise<OutboundEvent[]>;
}

export interface HarnessOptions {
  readonly store: EventStore & PodArchive;
  readonly config?: FoldConfig;
  readonly now?: string;
  readonly snapshotEvery?: number;
}

const context = {
  functionName: 'jobfold-test',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:jobfold-test',
  memoryLimitInMB: '256',
  awsRequestId: 'test-request',
  logGroupName: '/aws/lambda/jobfold-test',
  logStreamName: 'test',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} satisfies Context;


/** Wires the three handlers over `options.store` (wrapped in a CrashableStore). */
export function createServiceHarness(options: HarnessOptions): ServiceHarness {
  quietPowertools();
  const store = new CrashableStore(options.store);
  const clock = { now: options.now ?? '2026-01-01T00:00:00Z' };
  const now = () => clock.now;
  const bus = new RecordingPublisher();
  const rejected: RecordedRejection[] = [];
  const timers: Array<{ stream: StreamId; at: string }> = [];
  const writerDeps: Omit<WriterHandlerDeps, 'rejections'> = {
    store,
    clock: now,
    config: options.config ?? DEFAULT_FOLD_CONFIG,
    snapshotEvery: options.snapshotEvery,
    timers: { schedule: async (stream, at) => void timers.push({ stream, at }) },
  };
  const rejections = busRejectionSink(rejectionClient(rejected), 'test-bus');
  const writer = createWriterHandler({ ...writerDeps, rejections });
  const publish = createPublishHandler({ store, clock: now, publisher: bus });

  const deliverBodies = (bodies: readonly string[]) => writer(kinesisEvent(bodies), context);
  return {
    store, clock, bus, rejected, timers, writerDeps, deliverBodies,
    async deliver(events, batchSize = 10) {
      const failed: string[] = [];
      for (let i = 0; i < events.length; i += batchSize) {
        const response = await deliverBodies(events.slice(i, i + batchSize).map((e) => JSON.stringify(e)));
        failed.push(...response.batchItemFailures.map((f) => f.itemIdentifier));
      }
      return failed;
    },
    tick: (stream) => writer(kinesisEvent([timerRecord(stream, clock.now)]), context),
    publish: () => publish({ version: '0', id: 'tick', 'detail-type': 'Scheduled Event' } as never, context),
    async fireTimer(stream, at) {
      const { batchItemFailures } = await writer(kinesisEvent([timerRecord(stream, at)]), context);
      if (batchItemFailures.length > 0) throw new Error(`the timer of ${streamKey(stream)} at ${at} was not written`);
    },
    async status(stream) {
      return jobStatus((await loadState(jobDecider(writerDeps.config), store, stream)).state);
    },
    async log(stream) {
      return (await store.read(stream)).entries;
    },
    async pendingEvents(stream) {
      const items = await store.pendingOutbox(1000);
      const key = stream && streamKey(stream);
      const pending = items.filter((item) => key === undefined || streamKey(item.stream) === key);
      return (await Promise.all(pending.map((item) => itemEvents(store, item)))).flat();
    },
  };
}

/**
 * Handler logs, EMF lines and "no metrics" warnings would drown the test output; the tests check
 * outcomes, not telemetry. The Metrics singleton read POWERTOOLS_METRICS_DISABLED when it was
 * built, so its flush is replaced; single metrics built from now on read the variable.
 */
function quietPowertools(): void {
  logger.setLogLevel('SILENT');
  process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';
  metrics.publishStoredMetrics = () => {
    metrics.clearMetrics();
    metrics.clearDimensions();
    metrics.clearMetadata();
    return metrics;
  };
}

/** The outbound events about one Job: its commands, and its condition changes. */
export function eventsOfJob(events: readonly OutboundEvent[], jobUid: string | undefined): OutboundEvent[] {
  return events.filter((e) => e.detail['jobUid'] === jobUid || (e.detail['job'] as { uid?: string } | undefined)?.uid === jobUid);
}

/** An EventBridge client that keeps what busRejectionSink puts, as the DLQ would. */
function rejectionClient(rejected: RecordedRejection[]): Pick<EventBridgeClient, 'send'> {
  const send = async (command: PutEventsCommand) => {
    for (const entry of command.input.Entries ?? []) rejected.push(JSON.parse(entry.Detail ?? '{}') as RecordedRejection);
    return { FailedEntryCount: 0, Entries: [{ EventId: 'rejected' }] };
  };
  return { send } as unknown as Pick<EventBridgeClient, 'send'>;
}


/** The error a simulated crash throws; nothing else in the service throws it. */
export class SimulatedCrash extends Error {
  override name = 'SimulatedCrash';
}

/** Where a CrashableStore can crash: before a commit, after it landed, before marking published. */
export type CrashPoint = 'commit' | 'afterCommit' | 'markPublished' | 'saveOutboxProgress' | 'afterOutboxProgress';

/**
 * A store that forwards to another, counts the calls that can write, and crashes once at a
 * chosen point. `beforeCommit` runs before each commit (to interleave another writer's commits).
 */
export class CrashableStore extends ForwardingStore {
  readonly #crashes = new Set<CrashPoint>();
  /** commit, saveOutboxProgress, markPublished and saveArchivedPods calls so far. */
  writes = 0;
  beforeCommit: (() => Promise<void>) | undefined;

  crashOnce(point: CrashPoint): void {
    this.#crashes.add(point);
  }

  #crash(point: CrashPoint): void {
    if (!this.#crashes.delete(point)) return;
    throw new SimulatedCrash(`simulated crash at ${point}`);
  }

  override async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    await this.beforeCommit?.();
    this.#crash('commit');
    this.writes++;
    const result = await this.inner.commit(stream, input);
    this.#crash('afterCommit');
    return result;
  }

  override async saveOutboxProgress(commandId: string, progress: number): Promise<void> {
    this.#crash('saveOutboxProgress');
    this.writes++;
    await this.inner.saveOutboxProgress(commandId, progress);
    this.#crash('afterOutboxProgress');
  }

  override async markPublished(commandIds: string[], publishedAt: string): Promise<void> {
    this.#crash('markPublished');
    this.writes++;
    return this.inner.markPublished(commandIds, publishedAt);
  }

  override saveArchivedPods(stream: StreamId, pods: readonly ArchivedPod[]): Promise<void> {
    this.writes++;
    return this.inner.saveArchivedPods(stream, pods);
  }
}
