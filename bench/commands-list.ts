import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { parseArgs } from 'node:util';
import { DynamoDbEventStore } from '../functions/adapters/dynamodb-event-store.ts';
import { foldConfig } from '../functions/commons/config.ts';
import { createQueryHandler } from '../functions/handlers/query-handler.ts';
import { decisionEntry } from '../shared/job/index.ts';
import type { NewEntry } from '../shared/log/event-store.ts';
import { StateCache } from '../shared/decide/state-cache.ts';
import { createRecordWriter } from '../functions/handlers/writer-handler.ts';
import { kinesisRecord, sequenceNumberOf } from '../local/stream/stream-record.ts';
import { pageTermination } from '../shared/job/index.ts';
import { TraceRecorder } from '../local/sample/trace-recorder.ts';
import { createLocalClient, createTables, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { apiEvent, lambdaContext } from './query-invoke.ts';

// `GET …/jobs/{name}/commands` at the size issue 10 names: a Job whose log holds one termination
// decision of 100,000 pods (logged in pages of 128 KB, as the writer logs it), after and before
// other entries, on DynamoDB Local. The real query handler pages the list to the end at each
// limit given; every pod must come exactly once, in order. Figures, never assertions: per walk
// the pages, the median and largest ms, read units and response bytes of a page.
// Run: `node bench/commands-list.ts [--pods N] [--limits 5000,500] [--json]` (TRACE_READS=1 prints
// each DynamoDB request and its read units, page by page, on stderr). Not part of `npm run bench`.

const USAGE = 'Usage: node bench/commands-list.ts [--pods N (default 100000)] [--limits L1,L2 (default 5000,500)] [--json]';

const { values } = parseArgs({
  options: { pods: { type: 'string', default: '100000' }, limits: { type: 'string', default: '5000,500' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const PODS = Number(values.pods);
const LIMITS = values.limits.split(',').map(Number);
if (!Number.isSafeInteger(PODS) || PODS < 1 || LIMITS.some((l) => !Number.isSafeInteger(l) || l < 1 || l > 5000)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}


const at = '2026-05-01T00:00:00Z';
const local = await startDynamoDbLocal();
const client = createLocalClient(local.endpoint);
try {
  const tableName = `bench-commands-${Date.now()}`;
  await createTables(client, tableName);
  let readUnits = 0;
  const store = new DynamoDbEventStore({ client, tableName, onConsumedCapacity: (use) => { readUnits += use.readUnits; if (process.env.TRACE_READS) process.stderr.write(`${use.operation} ${use.readUnits}\n`); } });
  const config = foldConfig('');

  // The Job, suspended so that its first write (which files it in the fleet) commands nothing.
  const trace = new TraceRecorder(at, 'c0a1');
  trace.job('bench', 0, 'ml', 'huge', { completions: PODS, parallelism: PODS, completionMode: 'Indexed', suspend: true });
  const observed = trace.entries[0]!;
  const writer = createRecordWriter({
    store, config, clock: () => at, cache: new StateCache(),
    rejections: { reject: async (_event, errors) => { throw new Error(JSON.stringify(errors)); } },
    timers: { schedule: async () => undefined },
  });
  const data = Buffer.from(JSON.stringify({ source: observed.Source, 'detail-type': observed.DetailType, detail: JSON.parse(observed.Detail) }));
  const record = { partitionKey: 'bench', sequenceNumber: sequenceNumberOf(0, 0), position: 0, data, arrivedAtMs: Date.parse(at) };
  const failures = await writer([kinesisRecord(record, 'shardId-000000000000', 'bench-ingest')]);
  if (failures.length > 0) throw new Error(String(failures[0]?.error));
  const stream = { kind: 'Job' as const, clusterId: 'bench', namespace: 'ml', uid: JSON.parse(observed.Detail).object.metadata.uid as string };

  const ticks = (from: number, count: number): NewEntry[] => Array.from({ length: count }, (_, i) => {
    const body = { type: 'Tick', eventId: `tick-${from + i}`, clusterId: 'bench', observedAt: at };
    return { eventId: body.eventId, type: body.type, observedAt: at, body };
  });
  const decision = {
    type: 'PodsTerminationRequested' as const, eventId: 'huge/terminate', at, cause: 'JobFinishing' as const,
    reason: 'SuccessPolicy', message: 'Matched rules at index 0', finalizersRemoved: false,
    pods: Array.from({ length: PODS }, (_, i) => ({ uid: `huge-pod-${i}-${'0'.repeat(24)}`, name: `huge-${i}-x7k2p`, index: i, seq: i + 1 })),
  };
  const pages = pageTermination(decision).map(decisionEntry);
  let head = (await store.read(stream, { limit: 1 })).head;
  const write = async (entries: NewEntry[]) => {
    await store.commit(stream, { expectedHead: head, recordedAt: at, entries, outbox: [] });
    head += entries.length;
  };
  await write(ticks(0, 3000));
  for (const page of pages) await write([page]);
  await write(ticks(3000, 3000));

  const handler = createQueryHandler({ store, config, cursorKey: Buffer.from('bench-cursor-key-of-32-bytes-or-more', 'utf8') });
  const path = `/v1/clusters/bench/namespaces/ml/jobs/huge/commands`;
  const walks = [];
  for (const limit of LIMITS) {
    const perPage: { ms: number; readUnits: number; bytes: number }[] = [];
    const uids: string[] = [];
    let after: string | undefined;
    do {
      const query: Record<string, string> = { limit: String(limit), ...(after === undefined ? {} : { after }) };
      if (process.env.TRACE_READS) process.stderr.write(`-- page ${perPage.length + 1}\n`);
      const units = readUnits;
      const start = performance.now();
      const response = (await handler(apiEvent(path, query), lambdaContext)) as APIGatewayProxyStructuredResultV2;
      const ms = performance.now() - start;
      if (response.statusCode !== 200) throw new Error(`page answered ${response.statusCode}: ${String(response.body).slice(0, 300)}`);
      const body = JSON.parse(String(response.body)) as { items: { pods?: { uid: string }[] }[]; nextCursor?: string };
      for (const item of body.items) for (const pod of item.pods ?? []) uids.push(pod.uid);
      perPage.push({ ms, readUnits: readUnits - units, bytes: String(response.body).length });
      after = body.nextCursor;
    } while (after !== undefined);
    const everyPodOnceInOrder = uids.length === PODS && uids.every((uid, i) => uid === decision.pods[i]!.uid);
    const sorted = perPage.map((p) => p.ms).sort((a, b) => a - b);
    walks.push({
      limit,
      pages: perPage.length,
      everyPodOnceInOrder,
      medianPageMs: Math.round(sorted[Math.floor(sorted.length / 2)]!),
      maxPageMs: Math.round(sorted.at(-1)!),
      maxPageReadUnits: Math.max(...perPage.map((p) => p.readUnits)),
      totalReadUnits: perPage.reduce((sum, p) => sum + p.readUnits, 0),
      maxPageBytes: Math.max(...perPage.map((p) => p.bytes)),
    });
  }
  const figures = { pods: PODS, decisionEntries: pages.length, logEntries: head, walks };
  process.stdout.write(values.json ? `${JSON.stringify(figures)}\n` : `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  await local.stop();
}

