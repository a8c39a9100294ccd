import { fileURLToPath } from 'node:url';
import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { LocalStack } from '../local/local-stack.ts';
import { TraceRecorder, type JobRef, type PodRef, type RecordedEntry } from '../local/sample/trace-recorder.ts';
import { phase, watched } from './bench-progress.ts';
import { openBenchStack, putAll, round } from './bench-stack.ts';

// End-to-end figures through the local stack as `npm start` runs it (local/local-stack.ts): real
// HTTP PutEvents with the SDK, the ingest queue, DynamoDB Local, reconcile, the outbox and publish.
// DynamoDB Local is far slower per request than DynamoDB (and shares this machine's CPU), so the
// figures compare versions of jobfold on one machine; they are never test assertions.
//  1. throughput: `jobs` Indexed Jobs whose pods each run and succeed; pod events per second
//     from the first PutEvents until every event is ingested, reconciled and the outcome published;
//     DynamoDB write units consumed over that phase per pod event (ReturnConsumedCapacity);
//  2. latency: `latencyJobs` Jobs with a success policy on index 0 and a second pod running; each
//     leader's success is put in turn, once the previous Job's command was published; from the
//     bus accepting it to `Pod Termination Requested` published (p50, p99).

export interface E2eOptions {
  readonly jobs?: number;
  readonly podsPerJob?: number;
  readonly latencyJobs?: number;
  /** Reuse a running DynamoDB Local instead of starting one. */
  readonly dynamoDbEndpoint?: string;
  /** Default true: pod events carry the forwarder's stamp; false feeds them as benches before `aa89654` did. */
  readonly stamped?: boolean;
}

export interface E2eFigures {
  readonly smallJobsEventsPerSecond: number;
  readonly p50EventToCommandMs: number;
  readonly p99EventToCommandMs: number;
  readonly smallJobsWcuPerPodEvent: number;
  /** Context: the sizes measured, and conditional writes DynamoDB refused (billed, not reported). */
  readonly e2ePodEvents: number;
  readonly e2eLatencySamples: number;
  readonly rejectedWritesPerPodEvent: number;
  /** The part of smallJobsWcuPerPodEvent spent in reconcile's commits (transactions); the rest is mostly appends. */
  readonly wcuCommitPerPodEvent: number;
}

export async function runE2eBench(options: E2eOptions = {}): Promise<E2eFigures> {
  const { jobs = 20, podsPerJob = 10, latencyJobs = 60, stamped = true } = options;
  const bench = await openBenchStack('e2e', options.dynamoDbEndpoint);
  const { stack, client } = bench;
  try {
    // 1. Throughput and write units.
    // Stamped as the deployed forwarder stamps them (the pods' jobSeq), as is every bench feed.
    const trace = new TraceRecorder(new Date().toISOString(), 'b001', { forwarderCounts: stamped });
    for (let j = 0; j < jobs; j++) {
      const job = trace.job('bench-a', 0, 'bench', `throughput-${j}`, indexedSpec(podsPerJob, {}));
      const pods = Array.from({ length: podsPerJob }, (_, i) => trace.runPod(job, 1, i));
      pods.forEach((pod) => trace.exitPod(pod, 2, 0));
    }
    const podEvents = trace.entries.filter((e) => e.DetailType.startsWith('Pod')).length;
    const before = stack.capacity();
    const start = performance.now();
    const put = phase('small Jobs: put', trace.entries.length);
    let sent = 0;
    await putAll(client, trace.entries, 4, (n) => put.update((sent += n)));
    put.end();
    let published = 0;
    const unsubscribe = stack.bus.subscribe(() => void published++);
    await watched('small Jobs: settling; events on the bus (put and published)', trace.entries.length, () => published, stack.whenQuiet(0));
    unsubscribe();
    const seconds = (performance.now() - start) / 1000;
    const after = stack.capacity();

    // 2. Latency: set the Jobs up, then put each leader's success and time its first command.
    const setup = new TraceRecorder(new Date().toISOString(), 'b002', { forwarderCounts: stamped });
    const leaders = Array.from({ length: latencyJobs }, (_, j) => {
      const job = setup.job('bench-b', 0, 'bench', `latency-${j}`, indexedSpec(2, { successPolicy: { rules: [{ succeededIndexes: '0' }] } }));
      const [leader] = [0, 1].map((i) => setup.runPod(job, 1, i));
      return { job, leader: leader! };
    });
    let setUp = 0;
    await watched('latency Jobs: set up', setup.entries.length, () => setUp, putAll(client, setup.entries, 4, (n) => void (setUp += n)));
    await stack.whenQuiet(0);
    const latencies = await measureLatencies(stack, client, setup, leaders);
    return {
      smallJobsEventsPerSecond: Math.round(podEvents / seconds),
      p50EventToCommandMs: percentile(latencies, 0.5),
      p99EventToCommandMs: percentile(latencies, 0.99),
      smallJobsWcuPerPodEvent: round((after.writeUnits - before.writeUnits) / podEvents),
      e2ePodEvents: podEvents,
      e2eLatencySamples: latencies.length,
      rejectedWritesPerPodEvent: round((after.rejectedWrites - before.rejectedWrites) / podEvents),
      wcuCommitPerPodEvent: round((after.transactionalWriteUnits - before.transactionalWriteUnits) / podEvents),
    };
  } finally {
    await bench.stop();
  }
}

/** One tipping event in flight at a time: the latency of the path, without queueing behind other events. */
async function measureLatencies(
  stack: LocalStack, client: EventBridgeClient, setup: TraceRecorder,
  leaders: ReadonlyArray<{ job: JobRef; leader: PodRef }>,
): Promise<number[]> {
  const latencies: number[] = [];
  const shown = phase('latency: leaders succeeded one at a time', leaders.length);
  for (const { job, leader } of leaders) {
    shown.update(latencies.length);
    const index = setup.entries.length;
    setup.exitPod(leader, 3, 0);
    const tippingEventId = eventIdOf(setup.entries[index]);
    let accepted: number | undefined;
    let unsubscribe = () => {};
    let timer: NodeJS.Timeout | undefined;
    const published = new Promise<number | undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), LATENCY_TIMEOUT_MS);
      unsubscribe = stack.bus.subscribe((event, acceptedAtMs) => {
        if (event['detail-type'] === 'Pod Observed' && event.detail['eventId'] === tippingEventId) accepted = acceptedAtMs;
        if (event['detail-type'] === 'Pod Termination Requested' && event.detail['jobUid'] === job.uid) resolve(acceptedAtMs);
      });
    });
    await putAll(client, setup.entries.slice(index), 1);
    const at = await published;
    unsubscribe();
    clearTimeout(timer);
    if (at !== undefined && accepted !== undefined) latencies.push(at - accepted);
  }
  shown.end();
  return latencies;
}

/** A command not published by then counts as lost: no sample. */
const LATENCY_TIMEOUT_MS = 10_000;

const eventIdOf = (entry: RecordedEntry | undefined): unknown => (entry ? (JSON.parse(entry.Detail) as { eventId: unknown }).eventId : undefined);

function indexedSpec(completions: number, more: Record<string, unknown>): Record<string, unknown> {
  return { completions, parallelism: completions, completionMode: 'Indexed', backoffLimit: 6, ...more };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await runE2eBench();
  console.log(process.argv.includes('--json') ? JSON.stringify(figures) : figures);
}
