import { join } from 'node:path';
import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { KubeConfig } from '@kubernetes/client-node';
import { CommandConsumer } from './commands/command-consumer.ts';
import { WatchedPods } from './commands/watched-pods.ts';
import { createKubeOps } from './commands/kube-ops.ts';
import type { ForwarderConfig } from './config.ts';
import type { Logger } from './log.ts';
import type { Metrics } from './metrics.ts';
import { observationsIn, type OutgoingEvent } from './observation.ts';
import type { BackoffPolicy } from './send/backoff.ts';
import { DEFAULT_PACK_LIMITS, type PackLimits } from './send/pack.ts';
import { Packer } from './send/packer.ts';
import { EventPipeline } from './send/pipeline.ts';
import { createBatchSender, type RetryPolicy } from './send/put-events.ts';
import { Spool } from './send/spool.ts';
import { EpochFile } from './watch/epoch-file.ts';
import { KnownObjects } from './watch/known-objects.ts';
import { LiveObjects } from './watch/live-objects.ts';
import { ObjectWatcher, type WatchedObjectSink } from './watch/object-watcher.ts';
import { Observer } from './watch/observer.ts';
import { watchTargets } from './watch/watch-targets.ts';

/** Timings and bounds; the defaults suit production, tests shorten them. */
export interface Tuning {
  readonly putEvents: RetryPolicy;
  readonly replayBackoff: BackoffPolicy;
  readonly watchRestartBackoff: BackoffPolicy;
  readonly receiveErrorBackoff: BackoffPolicy;
  readonly memoryLimit: number;
  /** Packing of one Job's pod events (docs/forwarder.md, "Packing"); windowMs 0 turns it off. */
  readonly packing: PackLimits;
  /** How often the known-objects file and the spool-overflow recovery are looked after. */
  readonly housekeepingMs: number;
  readonly receiveWaitSeconds: number;
  /** How long one list of a Job's pods serves a batch of commands' guards (commands/job-pods.ts). */
  readonly podListMaxAgeMs?: number;
  /** How long a guard waits for the pod watch to catch up before it lists (commands/watched-pods.ts). */
  readonly podWatchWaitMs?: number;
  readonly reconnectDelay?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly now?: () => number;
}

export const DEFAULT_TUNING: Tuning = {
  putEvents: { maxAttempts: 6, baseMs: 200, maxMs: 5_000 },
  replayBackoff: { baseMs: 1_000, maxMs: 30_000 },
  watchRestartBackoff: { baseMs: 1_000, maxMs: 30_000 },
  receiveErrorBackoff: { baseMs: 1_000, maxMs: 20_000 },
  memoryLimit: 5_000,
  packing: DEFAULT_PACK_LIMITS,
  housekeepingMs: 2_000,
  receiveWaitSeconds: 20,
};

/** The packing bounds: the tuning's, with the window `--pack-window-ms` sets when it is given. */
export function packLimits(config: Partial<Pick<ForwarderConfig, 'packWindowMs'>>, tuning: Pick<Tuning, 'packing'>): PackLimits {
  return config.packWindowMs === undefined ? tuning.packing : { ...tuning.packing, windowMs: config.packWindowMs };
}

export interface ForwarderDependencies {
  readonly config: Pick<ForwarderConfig, 'clusterId' | 'eventBusName' | 'queueUrl' | 'dlqUrl' | 'namespace' | 'spoolDir' | 'spoolMaxBytes'>
    & Partial<Pick<ForwarderConfig, 'maxReceives' | 'packWindowMs'>>;
  readonly kubeConfig: KubeConfig;
  readonly eventBridge: EventBridgeClient;
  readonly sqs: SQSClient | undefined;
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly tuning?: Partial<Tuning>;
}

export interface RunningForwarder {
  readonly pipeline: EventPipeline;
  /** Resolves once every observed event has reached EventBridge. */
  whenIdle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the forwarder:
 * 1. opens the spool, the known-objects file and the last epoch (all under the spool directory);
 * 2. starts the pipeline, which replays a non-empty spool first;
 * 3. starts the Job informer, then the Pod informer, each with a full list;
 * 4. starts consuming commands, if there is a queue.
 * When the spool overflows, the informers stop; once the spool is half empty they start
 * again with a full list, which reports the current state of everything and what vanished.
 */
export async function startForwarder(deps: ForwarderDependencies): Promise<RunningForwarder> {
  const { config, metrics, log } = deps;
  const tuning = { ...DEFAULT_TUNING, ...deps.tuning };
  const now = tuning.now ?? Date.now;
  const spool = await Spool.open({ dir: config.spoolDir, maxBytes: config.spoolMaxBytes, log });
  const known = await KnownObjects.load(config.spoolDir, log);
  const live = new LiveObjects(known.list());
  let overflowed = false;
  const watchers: ObjectWatcher[] = [];

  const pipeline = new EventPipeline({
    send: createBatchSender({ client: deps.eventBridge, eventBusName: config.eventBusName, policy: tuning.putEvents, metrics, log, ...(tuning.random ? { random: tuning.random } : {}) }),
    spool,
    metrics,
    log,
    memoryLimit: tuning.memoryLimit,
    replayBackoff: tuning.replayBackoff,
    rejectedFile: join(config.spoolDir, 'rejected.jsonl'),
    onDurable: (events) => known.apply(events),
    onOverflow: (events: readonly OutgoingEvent[]) => {
      for (const event of events.flatMap(observationsIn)) live.restore(event.subject);
      if (overflowed) return;
      overflowed = true;
      log.error('spool full: watching stops until the spool is half empty, then everything is relisted', { spoolBytes: spool.bytes });
      void Promise.all(watchers.map((w) => w.stop()));
    },
    ...(tuning.random ? { random: tuning.random } : {}),
  });
  pipeline.start();
  const packer = new Packer({ sink: (e) => pipeline.submit(e), limits: packLimits(config, tuning), now });

  const epochs = EpochFile.open(config.spoolDir, log);
  const observer = new Observer({ clusterId: config.clusterId, namespace: config.namespace, live, submit: (e) => packer.submit(e), metrics, log, now, epochs });
  // The guards read the Jobs' pods from the pod watch once it has caught up (commands/watched-pods.ts).
  let podWatcher: ObjectWatcher | undefined;
  const watchedPods = new WatchedPods(() => podWatcher?.resourceVersion(), tuning.podWatchWaitMs === undefined ? {} : { waitMs: tuning.podWatchWaitMs });
  const podSink: WatchedObjectSink = {
    relisted: (kind, items) => {
      watchedPods.relisted(items);
      observer.relisted(kind, items);
    },
    observed: (kind, object) => {
      watchedPods.observed(object);
      observer.observed(kind, object);
    },
    deleted: (kind, object) => {
      watchedPods.deleted(object);
      observer.deleted(kind, object);
    },
  };
  for (const target of watchTargets(deps.kubeConfig, config.namespace)) {
    const watcher = new ObjectWatcher({
      kubeConfig: deps.kubeConfig,
      target,
      sink: target.kind === 'Pod' ? podSink : observer,
      metrics,
      log,
      restartBackoff: tuning.watchRestartBackoff,
      ...(tuning.random ? { random: tuning.random } : {}),
      ...(tuning.reconnectDelay ? { reconnectDelay: tuning.reconnectDelay } : {}),
    });
    watchers.push(watcher);
    if (target.kind === 'Pod') podWatcher = watcher;
    await watcher.start();
  }

  const consumer =
    config.queueUrl && deps.sqs
      ? new CommandConsumer({
          sqs: deps.sqs,
          queueUrl: config.queueUrl,
          dlqUrl: config.dlqUrl,
          ...(config.maxReceives === undefined ? {} : { maxReceives: config.maxReceives }),
          clusterId: config.clusterId,
          ...(config.namespace ? { namespace: config.namespace } : {}),
          kube: createKubeOps(deps.kubeConfig),
          metrics,
          log,
          errorBackoff: tuning.receiveErrorBackoff,
          waitTimeSeconds: tuning.receiveWaitSeconds,
          ...(tuning.random ? { random: tuning.random } : {}),
          ...(tuning.now ? { now: tuning.now } : {}),
          ...(tuning.podListMaxAgeMs ? { podListMaxAgeMs: tuning.podListMaxAgeMs } : {}),
          watchedPods,
        })
      : undefined;
  if (consumer) consumer.start();
  else log.warn('no command queue configured: commands are not applied');

  const housekeeping = setInterval(() => {
    void known.flush();
    if (overflowed && spool.bytes < config.spoolMaxBytes / 2) {
      overflowed = false;
      log.info('spool has room again: relisting');
      void (async () => {
        for (const watcher of watchers) await watcher.relist();
      })();
    }
  }, tuning.housekeepingMs);
  housekeeping.unref();

  log.info('forwarder started', { clusterId: config.clusterId, namespace: config.namespace ?? '(all)', queue: config.queueUrl ?? '(none)', spooled: spool.count });
  return {
    pipeline,
    async whenIdle() {
      do {
        packer.flush();
        await pipeline.whenIdle();
      } while (packer.waiting > 0);
    },
    async stop() {
      clearInterval(housekeeping);
      await consumer?.stop();
      await Promise.all(watchers.map((w) => w.stop()));
      packer.flush();
      await pipeline.stop();
      await known.flush();
      log.info('forwarder stopped', { spooled: spool.count });
    },
  };
}
