import './quiet-powertools.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDbEventStore } from '../functions/adapters/dynamodb-event-store.ts';
import { DEFAULT_TABLE_NAME } from '../functions/adapters/table-layout.ts';
import { foldConfig, readEnv } from '../functions/commons/config.ts';
import { busRules, Deliveries } from './bus/bus-rules.ts';
import { LOCAL_REGION, LocalBus, type BusEvent } from './bus/local-bus.ts';
import { localRoutes } from './http/local-routes.ts';
import { startLocalServer, type LocalServer } from './http/local-server.ts';
import { queryFunction } from './http/query-function.ts';
import { kubeDeps } from './http/kube-deps.ts';
import { handleKube, LOCAL_LIMITS } from './http/kube-server.ts';
import { LOCAL_ACCOUNT_PATH } from './http/sqs-api.ts';
import type { LocalStack, LocalStackOptions } from './local-stack-types.ts';
import { decidedObjects } from './report/decided.ts';
import { openLocalDatabase } from './runtime/local-database.ts';
import { createLocalRuntime } from './runtime/local-runtime.ts';
import { SqsQueues } from './sqs/sqs-queues.ts';
import { playTrace, traceInfo } from './trace/play-trace.ts';
import { loadTrace } from './trace/trace-file.ts';
import { DEFAULT_PACE } from './trace/time-shift.ts';
import { FeedRecord } from './data/feed-record.ts';
import { resumeStoredWork } from './data/resume-work.ts';
import { jobWakeUp } from './data/job-wake-up.ts';

export type { LocalStack, LocalStackOptions } from './local-stack-types.ts';
export type { TraceOutcome } from './trace/play-trace.ts';

/** The sample fleet trace `npm start` feeds when given no trace. */
export const SAMPLE_TRACE = fileURLToPath(new URL('../samples/fleet.jsonl', import.meta.url));
/** A timer due later than this does not keep a trace from counting as decided. */
const SETTLE_HORIZON_MS = 10_000;
/** How long stop() lets running handlers finish their DynamoDB calls. */
const STOP_TIMEOUT_MS = 5000;

/** The name of a cluster's command queue (in AWS, the queue of cdk/constructs/cluster-connection.ts). */
const commandQueueName = (clusterId: string): string => `jobfold-${clusterId}-commands`;

/**
 * Starts the service locally: DynamoDB Local (in memory, or kept in `dataDir`) with the stack's table, the functions,
 * and the HTTP server (PutEvents, query API, /local). Throws Error(JAVA_REQUIRED_MESSAGE) when
 * Java is missing, TraceError for an unreadable trace, and the listen error (EADDRINUSE).
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const { dataDir } = options;
  const requested = options.replay ?? (options.sample ? SAMPLE_TRACE : undefined);
  const fedBefore = requested === undefined || dataDir === undefined ? undefined : new FeedRecord(dataDir).stateOf(requested);
  const traceFile = fedBefore === 'fed' ? undefined : requested;
  const trace = traceFile === undefined ? undefined : { file: traceFile, entries: loadTrace(traceFile) };
  const config = options.config ?? foldConfig(process.env['FEATURE_GATES'] ?? '', readEnv(process.env).CLOCK_SKEW_SECONDS);
  const tableName = options.tableName ?? DEFAULT_TABLE_NAME;
  let redriveParked: () => void = () => undefined;
  let fatal: (reason: string) => void = () => undefined;
  const failed = new Promise<string>((resolve) => { fatal = resolve; });
  const say = options.say ?? ((line: string) => console.log(line));
  const database = await openLocalDatabase(options.dynamoDbEndpoint, tableName, dataDir, {
    say,
    // Back after an outage: what the triage parked meanwhile is put into the stream again.
    changed: (status) => { if (status.state === 'up' && status.restarts > 0) redriveParked(); },
    fatal: (reason) => fatal(reason),
  });
  const writeUnitsByOperation = new Map<string, number>();
  const requestsByOperation = new Map<string, number>();
  const table = new DynamoDbEventStore({
    client: database.client,
    tableName,
    onConsumedCapacity: (use) => {
      requestsByOperation.set(use.operation, (requestsByOperation.get(use.operation) ?? 0) + 1);
      if (use.writeUnits > 0) writeUnitsByOperation.set(use.operation, (writeUnitsByOperation.get(use.operation) ?? 0) + use.writeUnits);
      options.onConsumedCapacity?.(use);
    },
  });
  const bus = new LocalBus();
  const deliveries = new Deliveries();
  const sqs = new SqsQueues(dataDir === undefined ? undefined : join(dataDir, 'jobfold-command-queues.json'));
  const runtime = createLocalRuntime({
    table, bus, config, clock: () => new Date().toISOString(), tuning: options.tuning, whenHealthy: () => database.whenHealthy(),
    ...(dataDir === undefined ? {} : { streamDir: join(dataDir, 'stream'), deadLetterDir: join(dataDir, 'dead-letters') }),
  });
  // What an earlier run dead-lettered and kept (it died before writing it): into the stream again.
  const redriven = runtime.redrive('all');
  redriveParked = () => {
    const records = runtime.redrive('parked');
    if (records > 0) say(`jobfold local: ${records} parked records put back into the ingest stream`);
  };
  const targets = {
    ingest: (event: BusEvent) => runtime.inbound.deliver(event),
    commands: (clusterId: string, body: string) => sqs.send(commandQueueName(clusterId), body),
  };
  for (const rule of busRules(targets, deliveries)) bus.addRule(rule);
  const host = options.host ?? '127.0.0.1';
  let url = '';
  let server: LocalServer;
  const kube = kubeDeps(table, config);
  try {
    server = await startLocalServer({
      bus,
      sqs,
      url: () => url,
      query: queryFunction(table, config),
      kube: (req, res) => handleKube(kube, req, res, { ...LOCAL_LIMITS, ...options.kubeLimits }),
      local: localRoutes({
        get url() { return url; }, deliveries, runtime, capacity: () => table.capacity, database: () => database.status(),
        writeUnitsByOperation: () => Object.fromEntries(writeUnitsByOperation),
        requestsByOperation: () => Object.fromEntries(requestsByOperation),
      }),
    }, options.port ?? 3000, host);
  } catch (error) {
    runtime.stop();
    await database.close();
    throw error;
  }
  url = `http://${host}:${server.port}`;
  const feeding = new AbortController();
  let stopping: Promise<void> | undefined;

  const whenQuiet = (horizonMs = SETTLE_HORIZON_MS) => runtime.whenQuiet(horizonMs);
  const decided = () => decidedObjects(table, config, deliveries);
  const pace = { ...DEFAULT_PACE, ...options.pace };
  const playDeps = { bus, whenQuiet: () => whenQuiet(), decided, progress: options.progress ?? false };
  const resumedObjects = dataDir === undefined ? 0 : await resumeStoredWork(runtime.store, {
    wakeJob: (stream) => void jobWakeUp({ store: runtime.store, config }, stream)
      .then((at) => (at === undefined ? undefined : runtime.timers.schedule(stream, at)))
      .catch((error: unknown) => console.error(`resuming ${stream.uid}: its timer was not re-armed: ${String(error)}`)),
    publish: () => runtime.publisher.wake(),
  });
  const play = (file: string, entries: ReturnType<typeof loadTrace>, playPace: typeof pace) => {
    if (dataDir === undefined) return playTrace(playDeps, file, entries, playPace, feeding.signal);
    const record = new FeedRecord(dataDir);
    record.mark(file, 'feeding', new Date().toISOString());
    return playTrace(playDeps, file, entries, playPace, feeding.signal).then((outcome) => {
      if (!feeding.signal.aborted) record.mark(file, 'fed', new Date().toISOString());
      return outcome;
    });
  };

  const stack: LocalStack = {
    url,
    eventsUrl: `${url}/events`,
    sqsEndpoint: `${url}/sqs`,
    region: LOCAL_REGION,
    queueUrl: (clusterId) => `${url}/sqs/${LOCAL_ACCOUNT_PATH}/${commandQueueName(clusterId)}`,
    dlqUrl: (clusterId) => `${url}/sqs/${LOCAL_ACCOUNT_PATH}/jobfold-${clusterId}-dlq`,
    sqs,
    port: server.port,
    dynamoDbEndpoint: database.endpoint,
    tableName,
    store: runtime.store,
    bus,
    deliveries,
    runtime,
    config,
    trace: trace && play(trace.file, trace.entries, pace),
    traceInfo: trace && traceInfo(trace.file, trace.entries, pace),
    dataDir,
    alreadyFed: fedBefore === 'fed' ? requested : undefined,
    refeeding: fedBefore === 'feeding',
    resumedObjects,
    redriven,
    failed,
    database: () => database.status(),
    capacity: () => table.capacity,
    commands: (clusterId) => deliveries.commandsFor(clusterId),
    rejected: () => deliveries.rejected(),
    replay: (file, more) => play(file, loadTrace(file), { ...pace, ...more }),
    whenQuiet,
    decided,
    stop() {
      stopping ??= (async () => {
        feeding.abort();
        runtime.stop();
        sqs.wakeAll();
        await server.close();
        await runtime.stopped(STOP_TIMEOUT_MS);
        await database.close();
      })();
      return stopping;
    },
  };
  // An unobserved failure of the trace must not crash the process before someone awaits it.
  stack.trace?.catch(() => undefined);
  return stack;
}
