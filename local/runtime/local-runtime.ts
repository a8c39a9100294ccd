import { join } from 'node:path';
import { createRecordWriter, createWriterHandler } from '../../functions/handlers/writer-handler.ts';
import { timerPartitionKey, timerRecord } from '../../functions/handlers/writer/timer-record.ts';
import { busRejectionSink } from '../../functions/aws/bus-rejection-sink.ts';
import { eventBridgePublisher } from '../../functions/aws/eventbridge-publisher.ts';
import type { EventStore } from '../../shared/log/event-store.ts';
import { publishNamed, sweepPending } from '../../shared/publish/publish.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import { inProcessEventBridge } from '../bus/in-process-event-bridge.ts';
import type { LocalBus } from '../bus/local-bus.ts';
import { LocalStream, type StreamTuning } from '../stream/local-stream.ts';
import { StreamJournal } from '../stream/stream-journal.ts';
import { StreamRuleTarget } from '../stream/stream-rule-target.ts';
import { FailedBatchTriage, type TriageTuning } from '../stream/failed-batch-triage.ts';
import { DeadLetterFiles } from '../stream/dead-letter-files.ts';
import { sleep } from './backoff.ts';
import { lambdaContext } from './lambda-context.ts';
import { LocalTimers } from './local-timers.ts';
import { PublishLoop, type PublishTuning } from './publish-loop.ts';
import { StreamedStore } from './streamed-store.ts';

// The functions of the service stack and what invokes them in AWS, in process — the AWS design,
// not a shortcut:
//   bus rule → ingest stream (LocalStream, keyed by Job uid) → writer handler → log + decisions + outbox
//   what the writer fails after the stream's retries → FailedBatchTriage → written again, or parked with the error
//   Scheduler (LocalTimers) → timer record into the ingest stream (keyed by Job uid) → writer (Tick)
//   table stream → PublishLoop → publishNamed (the commit's items) / sweep → sweepPending → PutEvents on the bus

/** The bus name the adapters put on; the local bus takes any. */
const BUS_NAME = 'jobfold';
const WRITER = 'jobfold-writer';
const INGEST = 'jobfold-ingest';

export interface RuntimeTuning {
  readonly stream?: Partial<StreamTuning>;
  readonly publish?: Partial<PublishTuning>;
  readonly triage?: Partial<TriageTuning>;
}

export interface RuntimeDeps {
  readonly table: EventStore & PodArchive;
  readonly bus: LocalBus;
  readonly config: FoldConfig;
  readonly clock: () => string;
  readonly tuning?: RuntimeTuning;
  /** With `--data DIR`: DIR/stream, where the ingest stream journals what was put but not yet processed. */
  readonly streamDir?: string;
  /** With `--data DIR`: DIR/dead-letters, where what the stream gave up on is kept until written. */
  readonly deadLetterDir?: string;
  /** Resolves once the store answers again (the triage waits for it); default: at once. */
  readonly whenHealthy?: () => Promise<void>;
}

export interface LocalRuntime {
  /** The table as the handlers see it: every write feeds the local table stream. */
  readonly store: StreamedStore;
  /** The ingest stream the writer reads (cluster events and timer records). */
  readonly ingest: LocalStream;
  /** The inbound rule's target: puts bus events into `ingest`, keeps what it could not. */
  readonly inbound: StreamRuleTarget;
  /** The dead-letter triage of what the writer failed after the stream's retries. */
  readonly triage: FailedBatchTriage;
  readonly timers: LocalTimers;
  readonly publisher: PublishLoop;
  /** No work queued, running or retrying, and no timer due within `horizonMs`. */
  isQuiet(horizonMs: number): boolean;
  /** Resolves once the runtime is quiet (isQuiet) at two checks in a row; rejects once stopped. */
  whenQuiet(horizonMs: number): Promise<void>;
  /**
   * Puts what was dead-lettered and kept in `deadLetterDir` back into the ingest stream (all of
   * it at start, the parked part once the database is back); returns how many records.
   */
  redrive(which: 'all' | 'parked'): number;
  /** Stops taking work; what is running finishes. */
  stop(): void;
  /** After stop(): resolves once no handler is running any more, or after `timeoutMs`. */
  stopped(timeoutMs: number): Promise<void>;
}

const POLL_MS = 25;

export function createLocalRuntime(deps: RuntimeDeps): LocalRuntime {
  const { table, bus, config, clock, tuning = {} } = deps;
  const client = inProcessEventBridge(bus);
  let publisher: PublishLoop | undefined;
  const store = new StreamedStore(table, { publish: (commandIds) => publisher?.wake(commandIds) });
  let ingest: LocalStream | undefined;
  const timers = new LocalTimers(async (stream, at) => {
    if (!ingest) throw new Error('the ingest stream is not open yet');
    ingest.put(timerPartitionKey(stream), JSON.stringify(timerRecord(stream, at)));
  });
  const rejections = busRejectionSink(client, BUS_NAME);
  const writer = createWriterHandler({ store, rejections, clock, config, timers });
  const triage = new FailedBatchTriage({
    write: createRecordWriter({ store, rejections, clock, config, timers }),
    ...(deps.whenHealthy ? { whenHealthy: deps.whenHealthy } : {}),
    ...(deps.deadLetterDir === undefined ? {} : { files: new DeadLetterFiles(deps.deadLetterDir) }),
  }, tuning.triage);
  const journal = deps.streamDir === undefined ? undefined : new StreamJournal(join(deps.streamDir, INGEST));
  ingest = new LocalStream(INGEST, (event) => writer(event, lambdaContext(WRITER)), tuning.stream, journal);
  ingest.onFailure((failure) => triage.take(failure));
  const inbound = new StreamRuleTarget(ingest, rejections);

  // The publish function's loop (functions/handlers/publish-handler.ts) without its middy
  // wrapper, whose metrics middleware warns on every run that published nothing.
  const publishDeps = { store, publisher: eventBridgePublisher(client, BUS_NAME), clock };
  publisher = new PublishLoop(async (wake) => {
    const outcome = wake === 'sweep' ? await sweepPending(publishDeps) : await publishNamed(publishDeps, wake);
    if (outcome.failedItems.length > 0) throw new Error(`${outcome.failedItems.length} outbox items not published`);
  }, tuning.publish);

  const stream = ingest;
  let stopped = false;
  const runtime: LocalRuntime = {
    store,
    ingest: stream,
    inbound,
    triage,
    timers,
    publisher,
    isQuiet(horizonMs) {
      const next = timers.nextDueMs();
      return stream.idle && inbound.idle && triage.idle && runtime.publisher.idle && !timers.firing
        && (next === undefined || next > Date.now() + horizonMs);
    },
    async whenQuiet(horizonMs) {
      // Twice in a row, a poll apart: a timer record or an outbox wake-up can be on its way.
      for (let quietChecks = 0; quietChecks < 2;) {
        await sleep(POLL_MS);
        if (stopped) throw new Error('the local runtime was stopped');
        quietChecks = runtime.isQuiet(horizonMs) ? quietChecks + 1 : 0;
      }
    },
    redrive(which) {
      return triage.redrive((record) => void stream.put(record.partitionKey, record.data), which);
    },
    stop() {
      stopped = true;
      stream.stop();
      timers.stop();
      runtime.publisher.stop();
    },
    async stopped(timeoutMs) {
      const busy = () => stream.processing || runtime.publisher.running || timers.firing;
      for (let waited = 0; waited < timeoutMs && busy(); waited += POLL_MS) await sleep(POLL_MS);
    },
  };
  return runtime;
}
