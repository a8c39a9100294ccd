import { createIngestHandler } from '../../functions/handlers/ingest-handler.ts';
import { reconcileAndSchedule } from '../../functions/handlers/reconcile-handler.ts';
import { fireTimer } from '../../functions/handlers/timers-handler.ts';
import { busRejectionSink } from '../../functions/aws/bus-rejection-sink.ts';
import { eventBridgePublisher } from '../../functions/aws/eventbridge-publisher.ts';
import type { EventStore } from '../../shared/app/event-store.ts';
import { publishPending } from '../../shared/app/publish.ts';
import type { PodArchive } from '../../shared/app/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/state.ts';
import { inProcessEventBridge } from '../bus/in-process-event-bridge.ts';
import type { LocalBus } from '../bus/local-bus.ts';
import { sleep } from './backoff.ts';
import { lambdaContext } from './lambda-context.ts';
import { LocalQueue, type QueueTuning } from './local-queue.ts';
import { LocalTimers } from './local-timers.ts';
import { PublishLoop, type PublishTuning } from './publish-loop.ts';
import { StreamedStore } from './streamed-store.ts';
import { StreamTrigger, type TriggerTuning } from './stream-trigger.ts';

// The functions of the service stack and what invokes them in AWS, in process:
//   bus rule → ingest queue (LocalQueue)      → ingest handler    → append
//   table stream (StreamedStore) → StreamTrigger → reconcileAndSchedule → commit + timers
//   table stream / sweep → PublishLoop          → publishPending    → PutEvents on the bus
//   Scheduler (LocalTimers)                     → fireTimer (Tick)  → reconcile

/** The bus name the adapters put on; the local bus takes any. */
const BUS_NAME = 'jobfold';

export interface RuntimeTuning {
  readonly queue?: Partial<QueueTuning>;
  readonly reconcile?: Partial<TriggerTuning>;
  readonly publish?: Partial<PublishTuning>;
}

export interface RuntimeDeps {
  readonly table: EventStore & PodArchive;
  readonly bus: LocalBus;
  readonly config: FoldConfig;
  readonly clock: () => string;
  readonly tuning?: RuntimeTuning;
}

export interface LocalRuntime {
  /** The table as the handlers see it: every write feeds the local stream. */
  readonly store: StreamedStore;
  readonly ingestQueue: LocalQueue;
  readonly reconciler: StreamTrigger;
  readonly timers: LocalTimers;
  readonly publisher: PublishLoop;
  /** No work queued, running or retrying, and no timer due within `horizonMs`. */
  isQuiet(horizonMs: number): boolean;
  /** Resolves once the runtime is quiet (isQuiet) at two checks in a row; rejects once stopped. */
  whenQuiet(horizonMs: number): Promise<void>;
  /** Stops taking work; what is running finishes. */
  stop(): void;
  /** After stop(): resolves once no handler is running any more, or after `timeoutMs`. */
  stopped(timeoutMs: number): Promise<void>;
}

const POLL_MS = 25;

export function createLocalRuntime(deps: RuntimeDeps): LocalRuntime {
  const { table, bus, config, clock, tuning = {} } = deps;
  const client = inProcessEventBridge(bus);
  let reconciler: StreamTrigger | undefined;
  let publisher: PublishLoop | undefined;
  const store = new StreamedStore(table, {
    reconcile: (stream) => reconciler?.trigger(stream),
    publish: () => publisher?.wake(),
  });
  const timers = new LocalTimers(async (stream, at) => {
    await fireTimer(store, { stream, at }, clock());
    // A Tick already in the log (a timer fired twice) reaches no stream; reconcile anyway.
    reconciler?.trigger(stream);
  });
  const reconcileDeps = { store, clock, config, timers };
  reconciler = new StreamTrigger(async (stream) => {
    await reconcileAndSchedule(reconcileDeps, stream);
  }, tuning.reconcile);

  // The publish function's loop (functions/handlers/publish-handler.ts) without its middy
  // wrapper, whose metrics middleware warns on every run that published nothing.
  const publishDeps = { store, publisher: eventBridgePublisher(client, BUS_NAME), clock };
  publisher = new PublishLoop(async () => {
    let outcome;
    do outcome = await publishPending(publishDeps);
    while (outcome.items > 0 && outcome.failedItems.length === 0);
    if (outcome.failedItems.length > 0) throw new Error(`${outcome.failedItems.length} outbox items not published`);
  }, tuning.publish);

  const ingest = createIngestHandler({ store, rejections: busRejectionSink(client, BUS_NAME), clock });
  const ingestQueue = new LocalQueue('jobfold-ingest', (event) => ingest(event, lambdaContext('jobfold-ingest')), tuning.queue);

  let stopped = false;
  const runtime: LocalRuntime = {
    store,
    ingestQueue,
    reconciler,
    timers,
    publisher,
    isQuiet(horizonMs) {
      const next = timers.nextDueMs();
      return ingestQueue.idle && runtime.reconciler.idle && runtime.publisher.idle && !timers.firing
        && (next === undefined || next > Date.now() + horizonMs);
    },
    async whenQuiet(horizonMs) {
      // Twice in a row, a poll apart: an event can be between the bus and the queue's pump.
      for (let quietChecks = 0; quietChecks < 2;) {
        await sleep(POLL_MS);
        if (stopped) throw new Error('the local runtime was stopped');
        quietChecks = runtime.isQuiet(horizonMs) ? quietChecks + 1 : 0;
      }
    },
    stop() {
      stopped = true;
      ingestQueue.stop();
      timers.stop();
      runtime.reconciler.stop();
      runtime.publisher.stop();
    },
    async stopped(timeoutMs) {
      const busy = () => ingestQueue.processing || !runtime.reconciler.idle || runtime.publisher.running || timers.firing;
      for (let waited = 0; waited < timeoutMs && busy(); waited += POLL_MS) await sleep(POLL_MS);
    },
  };
  return runtime;
}
