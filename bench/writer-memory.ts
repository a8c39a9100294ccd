import '../local/quiet-powertools.ts';
import type { KinesisStreamEvent, KinesisStreamRecord } from 'aws-lambda';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { DynamoDbEventStore } from '../functions/adapters/dynamodb-event-store.ts';
import { foldConfig } from '../functions/commons/config.ts';
import { createRecordWriter, createWriterHandler } from '../functions/handlers/writer-handler.ts';
import { createLocalClient, createTables, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { lambdaContext } from '../local/runtime/lambda-context.ts';
import { TraceRecorder, type PodRef, type RecordedEntry } from '../local/sample/trace-recorder.ts';
import { phase } from './bench-progress.ts';
import { packedEntries } from './packed-feed.ts';
import { withRealisticPods } from './realistic-pods.ts';

// The writer's memory on a 100,000-index Job, run as Lambda runs it: each measured invocation is
// a fresh Node process (`--max-old-space-size` of the function's configured memory, as Lambda
// sets it) calling the writer's handler once, cold (an empty state cache: it reads the Job's
// snapshot and the log's tail from the table), with a Kinesis batch as the event source hands it.
// The Job is written first by this process through the same writer code on DynamoDB Local: an
// Indexed Job of --pods pods, all Running, with a leader-only success policy (succeededIndexes
// "0"), its pods realistic (bench/realistic-pods.ts) and packed by the forwarder's packer. Then:
//   midLife        a cold invocation whose batch is the last pods' Running events, as many packs
//                  as fit in the 6 MB Lambda hands at most (the writer decodes 20,000 at a time)
//   leaderSuccess  a cold invocation whose batch is the leader's success: the decision that
//                  terminates every other pod (--pods - 1 TerminatePod commands, paged)
//   coldWholeArchive  the terminated pods' ends (exit 137) written, then a cold invocation with
//                  the last pack of them: it puts back the whole pod archive (~--pods settled
//                  pods) before it decides, as a cold writer of a Job with a success policy does
// Per invocation: peak heap used (the largest heap seen before any GC, and at the end: V8's
// GCProfiler), peak RSS (getrusage), CPU and wall time, commands and records. peakRssRatio is
// peak RSS / the configured memory (target <= 0.6), and the read units it consumed. The handler runs from source under Node's
// type stripping, not the esbuild bundle: its module code is a few MB more than the bundle's.
// Figures, never assertions. Run: `node bench/writer-memory.ts [--pods N] [--memory MB] [--json]`.

const HELP = `Usage: node bench/writer-memory.ts [--pods N] [--memory MB] [--json]
  --pods N     pods of the Indexed Job (default 100,000)
  --memory MB  the writer's configured memory (default: WRITER_MEMORY_MB, cdk/constructs/writer.ts)
  --json       one JSON object`;

const CLUSTER = 'bench-mem';
/** Lambda's invocation payload: the event JSON, each record's data in base64, at most 6 MB. */
const KINESIS_BATCH_BYTES = 6 * 1024 * 1024;
/** A record's bytes in the event: its data in base64, plus the record's own fields. */
const eventBytes = (data: string): number => Math.ceil(Buffer.byteLength(data) / 3) * 4 + 400;
const KINESIS_BATCH_RECORDS = 1000;

export interface InvocationFigures {
  readonly records: number;
  readonly observations: number;
  readonly batchBytes: number;
  readonly peakHeapUsedMb: number;
  readonly peakRssMb: number;
  readonly peakRssRatio: number;
  readonly heapLimitMb: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly failures: number;
  /** DynamoDB read units the invocation consumed (its snapshot, tail and pod archive). */
  readonly readUnits: number;
}

/** The EventBridge event a bus rule puts on the ingest stream for a recorded entry. */
function envelope(entry: RecordedEntry, i: number): string {
  return JSON.stringify({
    version: '0', id: `wm-${i}`, 'detail-type': entry.DetailType, source: entry.Source, account: '000000000000',
    time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), region: 'eu-west-1', resources: [], detail: JSON.parse(entry.Detail),
  });
}

let sequence = 49_000_000_000_000_000_000n;
function record(data: string): KinesisStreamRecord {
  sequence += 1n;
  return {
    kinesis: { data: Buffer.from(data).toString('base64'), sequenceNumber: String(sequence), partitionKey: 'job', kinesisSchemaVersion: '1.0', approximateArrivalTimestamp: 0 },
    eventSource: 'aws:kinesis', eventVersion: '1.0', eventID: `shardId-000000000000:${sequence}`, eventName: 'aws:kinesis:record',
    invokeIdentityArn: 'arn:aws:iam::000000000000:role/jobfold-writer', awsRegion: 'eu-west-1',
    eventSourceARN: 'arn:aws:kinesis:eu-west-1:000000000000:stream/jobfold-ingest',
  };
}

/** Entries as Kinesis batches the event source would hand the writer: at most 1,000 records and 6 MB each. */
function* kinesisBatches(entries: readonly RecordedEntry[]): Generator<KinesisStreamRecord[]> {
  let batch: KinesisStreamRecord[] = [];
  let bytes = 0;
  for (const [i, entry] of entries.entries()) {
    const data = envelope(entry, i);
    if (batch.length === KINESIS_BATCH_RECORDS || (batch.length > 0 && bytes + eventBytes(data) > KINESIS_BATCH_BYTES)) {
      yield batch;
      [batch, bytes] = [[], 0];
    }
    batch.push(record(data));
    bytes += eventBytes(data);
  }
  if (batch.length > 0) yield batch;
}

/** How many of the last entries one Kinesis batch holds at most (1,000 records, 6 MB). */
function lastBatchSize(entries: readonly RecordedEntry[]): number {
  let bytes = 0;
  let count = 0;
  for (let i = entries.length - 1; i >= 0 && count < KINESIS_BATCH_RECORDS; i--) {
    bytes += eventBytes(envelope(entries[i]!, i));
    if (bytes > KINESIS_BATCH_BYTES) break;
    count++;
  }
  return count;
}

export async function runWriterMemoryBench(options: { pods?: number; memoryMb?: number } = {}) {
  // The function's memory as deployed (imported here only: the measured processes load no CDK).
  const { WRITER_MEMORY_MB } = await import('../cdk/constructs/writer.ts');
  const { pods = 100_000, memoryMb = WRITER_MEMORY_MB } = options;
  const local = await startDynamoDbLocal();
  const dir = mkdtempSync(join(tmpdir(), 'jobfold-writer-memory-'));
  try {
    const client = createLocalClient(local.endpoint);
    const tableName = `bench-writer-memory-${Date.now()}`;
    await createTables(client, tableName);
    const store = new DynamoDbEventStore({ client, tableName });
    const deps = { store, rejections: { reject: async () => {} }, clock: () => new Date().toISOString(), config: foldConfig(''), timers: { schedule: async () => {} } };
    const write = createRecordWriter(deps);

    const trace = new TraceRecorder(new Date().toISOString(), 'be4c');
    const job = trace.job(CLUSTER, 0, 'bench', `indexed-${pods}`, {
      completions: pods, parallelism: pods, completionMode: 'Indexed', backoffLimit: pods, successPolicy: { rules: [{ succeededIndexes: '0' }] },
    });
    const all: PodRef[] = Array.from({ length: pods }, (_, i) => trace.runPod(job, 1 + i / 1000, i));
    const running = withRealisticPods(trace.entries);
    // The last pods' Running events, packed: as many as one 6 MB batch holds, are the mid-life invocation's.
    const packed = packedEntries(running);
    const split = packed.length - lastBatchSize(packed.slice(1));
    const history = packed.slice(0, split);
    const midLifeEntries = packed.slice(split);
    const writing = phase(`writer memory: the ${pods.toLocaleString('en-US')}-pod Job written`, history.length);
    let written = 0;
    for (const batch of kinesisBatches(history)) {
      const failures = await write(batch);
      if (failures.length > 0) throw new Error(`writing the Job failed: ${String(failures[0]?.error)}`);
      writing.update((written += batch.length));
    }
    writing.end();
    const invoke = (name: string, records: KinesisStreamRecord[], observations: number): InvocationFigures => {
      const file = join(dir, `${name}.json`);
      const event: KinesisStreamEvent = { Records: records };
      writeFileSync(file, JSON.stringify(event));
      const output = execFileSync(process.execPath, [`--max-old-space-size=${memoryMb}`, fileURLToPath(import.meta.url), '--invoke', file, '--endpoint', local.endpoint, '--table', tableName, '--memory', String(memoryMb), '--observations', String(observations)], {
        encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'],
      });
      return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as InvocationFigures;
    };
    const midLife = invoke('mid-life', [...kinesisBatches(midLifeEntries)].flat(), midLifeEntries.reduce((n, e) => n + podsIn(e), 0));
    trace.exitPod(all[0]!, 5_000, 0);
    const leaderEntries = withRealisticPods(trace.entries.slice(-1));
    const leaderSuccess = invoke('leader-success', [...kinesisBatches(leaderEntries)].flat(), 1);
    // The terminated pods end (exit 137) as the cluster kills them: written warm, then the last
    // pack of them by a cold invocation, which puts back the whole pod archive first (a Job with a
    // success policy: shared/job/archive-restore.ts), ~all the Job's pods settled by then.
    const ended = trace.entries.length;
    for (const [i, pod] of all.slice(1).entries()) trace.exitPod(pod, 5_001 + i / 1000, 137);
    const endings = packedEntries(withRealisticPods(trace.entries.slice(ended)));
    const endSplit = endings.length - 1;
    const ending = phase(`writer memory: the ${pods.toLocaleString('en-US')}-pod Job's terminated pods ended`, endSplit);
    written = 0;
    for (const batch of kinesisBatches(endings.slice(0, endSplit))) {
      const failures = await write(batch);
      if (failures.length > 0) throw new Error(`writing the pods' ends failed: ${String(failures[0]?.error)}`);
      ending.update((written += batch.length));
    }
    ending.end();
    const lastEndings = endings.slice(endSplit);
    const coldWholeArchive = invoke('cold-whole-archive', [...kinesisBatches(lastEndings)].flat(), lastEndings.reduce((n, e) => n + podsIn(e), 0));
    const [summary] = await store.getSummaries([{ kind: 'Job', clusterId: CLUSTER, namespace: 'bench', uid: job.uid }]);
    return { writerPods: pods, writerMemoryMb: memoryMb, writerMidLife: midLife, writerLeaderSuccess: leaderSuccess, writerColdWholeArchive: coldWholeArchive, writerJobAfter: summary };
  } finally {
    await local.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Observations in an entry: a pack's count, or one. */
function podsIn(entry: RecordedEntry): number {
  return (JSON.parse(entry.Detail) as { count?: number }).count ?? 1;
}

/** One cold invocation in this fresh process: the handler, its store on `endpoint`, the event in `file`. */
async function invokeOnce(file: string, endpoint: string, tableName: string, memoryMb: number, observations: number): Promise<InvocationFigures> {
  const profiler = new v8.GCProfiler();
  profiler.start();
  const text = readFileSync(file, 'utf8');
  const event = JSON.parse(text) as KinesisStreamEvent;
  const store = new DynamoDbEventStore({ client: createLocalClient(endpoint), tableName });
  const handler = createWriterHandler({ store, rejections: { reject: async () => {} }, clock: () => new Date().toISOString(), config: foldConfig(''), timers: { schedule: async () => {} } });
  const cpu = process.cpuUsage();
  const started = performance.now();
  // Far beyond the function's 2 minutes: this measures memory; wallMs and cpuMs say how long it took.
  const response = await handler(event, lambdaContext('jobfold-writer', 3_600_000));
  const wallMs = performance.now() - started;
  const cpuUsed = process.cpuUsage(cpu);
  const usedAtEnd = process.memoryUsage().heapUsed;
  const gcs = profiler.stop()?.statistics ?? [];
  const peakHeap = Math.max(usedAtEnd, ...gcs.map((gc) => gc.beforeGC.heapStatistics.usedHeapSize));
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  return {
    records: event.Records.length,
    observations,
    batchBytes: text.length,
    peakHeapUsedMb: mb(peakHeap),
    peakRssMb: Math.round(peakRssMb),
    peakRssRatio: Math.round((peakRssMb / memoryMb) * 100) / 100,
    heapLimitMb: mb(v8.getHeapStatistics().heap_size_limit),
    cpuMs: Math.round((cpuUsed.user + cpuUsed.system) / 1000),
    wallMs: Math.round(wallMs),
    failures: (response as { batchItemFailures?: unknown[] } | undefined)?.batchItemFailures?.length ?? 0,
    readUnits: Math.round(store.capacity.readUnits * 10) / 10,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const value = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  if (args.includes('--help')) {
    console.log(HELP);
    process.exit(0);
  }
  const file = value('--invoke');
  if (file !== undefined) {
    console.log(JSON.stringify(await invokeOnce(file, value('--endpoint') ?? '', value('--table') ?? '', Number(value('--memory')), Number(value('--observations')))));
  } else {
    const figures = await runWriterMemoryBench({
      ...(value('--pods') ? { pods: Number(value('--pods')) } : {}),
      ...(value('--memory') ? { memoryMb: Number(value('--memory')) } : {}),
    });
    console.log(args.includes('--json') ? JSON.stringify(figures) : figures);
  }
}
