import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventBridgeClientFor, sqsClientFor } from '../../forwarder/aws-clients.ts';
import { startForwarder, type RunningForwarder, type Tuning } from '../../forwarder/forwarder.ts';
import { kubeConfigFor } from '../../forwarder/kube-config.ts';
import { createLogger, type Logger } from '../../forwarder/log.ts';
import { Metrics } from '../../forwarder/metrics.ts';
import { parseInbound } from '../../shared/contract/parse-inbound.ts';
import type { Observation } from '../../shared/job/events.ts';
import { jobSettings } from '../../shared/job/job-settings.ts';
import { FakeEventBridge } from './fake-event-bridge.ts';
import type { KubeObject } from './fake-kube-store.ts';
import { FakeKubeApi } from './fake-kube-api.ts';
import { FakeSqs } from './fake-sqs.ts';

export const CLUSTER_ID = 'c1';
export const QUEUE = 'jobfold-c1-commands';
export const DLQ = 'jobfold-c1-dlq';

/** Short timings: every retry, backoff and reconnect in milliseconds. */
export const FAST_TUNING: Partial<Tuning> = {
  putEvents: { maxAttempts: 3, baseMs: 4, maxMs: 20 },
  replayBackoff: { baseMs: 10, maxMs: 40 },
  watchRestartBackoff: { baseMs: 10, maxMs: 40 },
  receiveErrorBackoff: { baseMs: 10, maxMs: 40 },
  housekeepingMs: 30,
  receiveWaitSeconds: 1,
  reconnectDelay: (ms) => new Promise((resolve) => setTimeout(resolve, ms / 100)),
};

export interface HarnessOptions {
  readonly namespace?: string;
  readonly spoolDir?: string;
  readonly spoolMaxBytes?: number;
  /** The command queue's maxReceiveCount the forwarder assumes (default 5, as deployed). */
  readonly maxReceives?: number;
  readonly tuning?: Partial<Tuning>;
  /** Reuse fakes (a restart against the same cluster and bus). */
  readonly fakes?: Fakes;
}

export interface Fakes {
  readonly kube: FakeKubeApi;
  readonly bus: FakeEventBridge;
  readonly sqs: FakeSqs;
}

export interface Harness extends Fakes {
  readonly forwarder: RunningForwarder;
  readonly metrics: Metrics;
  readonly logs: Record<string, unknown>[];
  readonly spoolDir: string;
  /** Stops the forwarder only (the fakes and the spool stay). */
  stopForwarder(): Promise<void>;
  /** Stops everything and removes the spool directory. */
  close(): Promise<void>;
}

export async function startFakes(): Promise<Fakes> {
  const [kube, bus, sqs] = await Promise.all([FakeKubeApi.start(), FakeEventBridge.start(), FakeSqs.start()]);
  return { kube, bus, sqs };
}

/** Fakes of the API server, EventBridge and SQS, and a forwarder wired to them by endpoint overrides. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fakes = options.fakes ?? (await startFakes());
  const spoolDir = options.spoolDir ?? (await mkdtemp(join(tmpdir(), 'jobfold-forwarder-')));
  const metrics = new Metrics();
  const logs: Record<string, unknown>[] = [];
  const log: Logger = createLogger({ level: 'debug', write: (line) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const aws = { eventsEndpoint: fakes.bus.url, sqsEndpoint: fakes.sqs.url, region: 'us-east-1' };
  const forwarder = await startForwarder({
    config: {
      clusterId: CLUSTER_ID,
      eventBusName: 'jobfold',
      queueUrl: fakes.sqs.queueUrl(QUEUE),
      dlqUrl: fakes.sqs.queueUrl(DLQ),
      namespace: options.namespace,
      ...(options.maxReceives === undefined ? {} : { maxReceives: options.maxReceives }),
      spoolDir,
      spoolMaxBytes: options.spoolMaxBytes ?? 64 * 1024 * 1024,
    },
    kubeConfig: kubeConfigFor({ kubeServer: fakes.kube.url }),
    eventBridge: eventBridgeClientFor(aws, {}),
    sqs: sqsClientFor(aws, {}),
    metrics,
    log,
    tuning: { ...FAST_TUNING, ...options.tuning },
  });
  let stopped = false;
  const stopForwarder = async () => {
    if (stopped) return;
    stopped = true;
    await forwarder.stop();
  };
  return {
    ...fakes,
    forwarder,
    metrics,
    logs,
    spoolDir,
    stopForwarder,
    async close() {
      await stopForwarder();
      await Promise.all([fakes.kube.close(), fakes.bus.close(), fakes.sqs.close()]);
      await rm(spoolDir, { recursive: true, force: true });
    },
  };
}

/** Retries `assertion` until it passes or `timeoutMs` runs out (then throws its last error). */
export async function eventually<T>(assertion: () => T | Promise<T>, timeoutMs = 3_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** The template hash the service computes from the Job this forwarder reported (waits for the report). */
export async function templateHashSeenByService(bus: FakeEventBridge, job: KubeObject): Promise<string> {
  const event = await eventually(() => {
    const found = bus.delivered.find((e) => (e.detail as { object: KubeObject }).object.metadata.uid === job.metadata.uid);
    if (!found) throw new Error(`no event about Job ${job.metadata.uid} reached the bus yet`);
    return found;
  });
  const parsed = parseInbound(event);
  const observed = parsed.ok ? (parsed.targets[0]?.entry.body as Observation | undefined) : undefined;
  if (observed?.type !== 'JobObserved') throw new Error(JSON.stringify(parsed));
  return jobSettings(observed.job.spec).templateHash;
}
