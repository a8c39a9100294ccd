import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DynamoDbEventStore } from '../functions/adapters/dynamodb-event-store.ts';
import { foldConfig } from '../functions/commons/config.ts';
import { createQueryHandler } from '../functions/handlers/query-handler.ts';
import { createLocalClient, createTables, startDynamoDbLocal } from '../local/dynamodb-local.ts';

import { BENCH_STREAM, writeJobLife, type JobLife } from './query-job-life.ts';
import { apiEvent, lambdaContext } from './query-invoke.ts';

// Queries on a 100,000-index Job's history (issue 10: `/explain` and `/status?at=` under 1 s,
// `/history` reaching every entry exactly once). The Job's life is written through the writer's
// code on DynamoDB Local (query-job-life.ts); then the real query handler (the Lambda's, called
// in process as API Gateway would) answers each route, and each answer is timed: the first call
// and the median of three, with the read units it cost, after the write's garbage is collected.
// Figures, never assertions:
//   queryMs.<route>            median ms of the route; ratioToTarget = ms / 1000 (the 1 s target);
//                              read units, read requests and CPU ms per answer (load-independent)
//   historyWalk                every /history page to the end: pages, entries, seqs seen exactly
//                              once, seconds in all
//   terminatedPodsWalk         every /explain page of terminated pods: pages, pods, seconds
// Run alone: `node bench/query-history.ts [--completions N] [--parallelism N] [--db-path DIR] [--json]`
// (--db-path keeps the written Job for the next run: see QueryHistoryOptions.dbPath;
// QUERY_BENCH_TRACE=1 prints each route's three timings on stderr as they come).

export interface QueryHistoryOptions {
  readonly completions?: number;
  readonly parallelism?: number;
  readonly failureEvery?: number;
  /** Observations per writer batch (the ingest stream delivers up to 1,000). */
  readonly batch?: number;
  /**
   * Keep DynamoDB Local's files here; a second run with the same directory and sizes reads the
   * Job written by the first (its life's figures are kept beside them) instead of writing it again.
   */
  readonly dbPath?: string;
}

export interface QueryTiming {
  readonly ms: number;
  readonly firstMs: number;
  readonly ratioToTarget: number;
  readonly readUnits: number;
  /** DynamoDB reads (Query, GetItem, BatchGetItem) one answer made. */
  readonly readRequests: number;
  /**
   * CPU ms of this process for one answer (median of 3): the handler's own work (decoding,
   * parsing, folding), which a loaded machine does not inflate the way it does wall time.
   * DynamoDB Local's CPU is not in it (another process).
   */
  readonly cpuMs: number;
  readonly responseBytes: number;
}

const TARGET_MS = 1000;
const PATH = `/v1/clusters/${BENCH_STREAM.clusterId}/namespaces/${BENCH_STREAM.namespace}/jobs/bench`;

export async function runQueryHistoryBench(options: QueryHistoryOptions = {}) {
  const { completions = 100_000, parallelism = 1000, failureEvery = 50, batch = 1000 } = options;
  const local = await startDynamoDbLocal(options.dbPath === undefined ? {} : { dbPath: options.dbPath });
  const client = createLocalClient(local.endpoint);
  try {
    const tableName = options.dbPath === undefined ? `bench-query-${Date.now()}` : `bench-query-${completions}-${parallelism}-${failureEvery}-${batch}`;
    const kept = options.dbPath === undefined ? undefined : join(options.dbPath, `${tableName}.json`);
    await createTables(client, tableName);
    let readRequests = 0;
    const store = new DynamoDbEventStore({ client, tableName, onConsumedCapacity: (use) => { if (use.readUnits > 0 || use.operation === 'Query') readRequests++; } });
    const config = foldConfig('');
    const life: JobLife = kept !== undefined && existsSync(kept)
      ? (JSON.parse(readFileSync(kept, 'utf8')) as JobLife)
      : await writeJobLife(store, config, { completions, parallelism, failureEvery }, batch);
    if (kept !== undefined) writeFileSync(kept, JSON.stringify(life));
    // A query Lambda never holds a writer's leftovers; this process does (400-540 MB of heap
    // after writing the Job). Left there, a major collection of it landed in whichever route V8
    // chose: the same route cost 119 or 310 CPU ms, depending on it. Collected first.
    collectGarbage();
    const handler = createQueryHandler({ store, config, cursorKey: Buffer.from('bench-cursor-key-of-32-bytes-or-more', 'utf8') });
    const get = async (path: string, query: Record<string, string> = {}) => {
      const response = (await handler(apiEvent(path, query), lambdaContext)) as APIGatewayProxyStructuredResultV2;
      if (response.statusCode !== 200) throw new Error(`GET ${path}?${new URLSearchParams(query)} answered ${response.statusCode}: ${String(response.body).slice(0, 300)}`);
      return { body: JSON.parse(String(response.body)), bytes: String(response.body).length };
    };
    const timed = async (path: string, query: Record<string, string> = {}): Promise<QueryTiming | { error: string }> => {
      try {
        return await timedRuns(path, query);
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    };
    const timedRuns = async (path: string, query: Record<string, string>): Promise<QueryTiming> => {
      const runs: number[] = [];
      const cpu: number[] = [];
      const units = store.capacity.readUnits;
      const requests = readRequests;
      let bytes = 0;
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        const startCpu = process.cpuUsage();
        bytes = (await get(path, query)).bytes;
        const used = process.cpuUsage(startCpu);
        runs.push(performance.now() - start);
        cpu.push((used.user + used.system) / 1000);
      }
      const ms = [...runs].sort((a, b) => a - b)[1] ?? 0;
      const cpuMs = [...cpu].sort((a, b) => a - b)[1] ?? 0;
      const perRun = { readUnits: round((store.capacity.readUnits - units) / 3), readRequests: round((readRequests - requests) / 3) };
      if (process.env['QUERY_BENCH_TRACE']) {
        console.error(`query bench: ${path} ${new URLSearchParams(query)} ${runs.map(Math.round).join(', ')} ms (cpu ${cpu.map(Math.round).join(', ')} ms), ${perRun.readUnits} RCU in ${perRun.readRequests} reads`);
      }
      return { ms: round(ms), firstMs: round(runs[0] ?? 0), ratioToTarget: round(ms / TARGET_MS, 3), ...perRun, cpuMs: round(cpuMs), responseBytes: bytes };
    };
    const middle = insidePage(life);
    const queryMs = {
      job: await timed(PATH),
      explain: await timed(`${PATH}/explain`),
      statusAtStart: await timed(`${PATH}/status`, { at: '1' }),
      statusAtMiddleInsidePage: await timed(`${PATH}/status`, { at: String(middle.seq) }),
      statusAtMiddleTime: await timed(`${PATH}/status`, { at: middle.recordedAt }),
      statusAtEnd: await timed(`${PATH}/status`, { at: String(life.head) }),
      statusAtHead: await timed(`${PATH}/status`),
    };
    const finalStatus = (await get(`${PATH}/status`)).body as { status: { conditions?: { type: string; status: string }[] } };
    return {
      queryCompletions: completions,
      queryParallelism: parallelism,
      queryLogEntries: life.head,
      queryObservationsWritten: life.observations,
      queryWriterBatches: life.batches,
      queryWriteSeconds: round(life.writeSeconds),
      queryWriteEventsPerSecond: Math.round(life.observations / life.writeSeconds),
      queryTerminationsCommanded: life.terminationsCommanded,
      queryJobComplete: finalStatus.status.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') ?? false,
      queryStatusAtMiddle: middle,
      queryMs,
      queryWorstRatioToTarget: Math.max(...Object.values(queryMs).map((t) => ('error' in t ? 0 : t.ratioToTarget))),
      queryFailedRoutes: Object.entries(queryMs).filter(([, t]) => 'error' in t).map(([name]) => name),
      historyWalk: await walkHistory(get, life.head),
      terminatedPodsWalk: await walkTerminatedPods(get),
      queryPeakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    client.destroy();
    await local.stop();
  }
}

export const QUERY_BENCH_HELP = `and the query path on a big Job's history (bench/query-history.ts, in a child process; skipped
with --no-query): an Indexed Job of --query-completions indexes (default 100,000) written through
the writer's code on DynamoDB Local, then, after a full garbage collection (a query Lambda holds
no writer's garbage), each route of the real query handler timed (median of 3):
  queryMs.{job,explain,statusAt*}  ms, ratioToTarget (ms / 1000 ms), read units and requests,
                        cpuMs (this process's CPU per answer: load barely changes it)
  historyWalk           /history paged to the end: pages, entries, everySeqOnce, seconds
  terminatedPodsWalk    /explain's terminated pods paged to the end: pages, pods, seconds
  queryWriteSeconds     how long writing the Job's life took (the part's own set-up)`;

/** The query bench in a child process, so its memory and DynamoDB Local are its own. */
export function queryHistoryInChild(completions: number): object {
  const script = fileURLToPath(import.meta.url);
  const output = execFileSync(process.execPath, [script, '--json', '--completions', String(completions)], {
    encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as object;
}

/** A full garbage collection, without starting node with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

type Get = (path: string, query?: Record<string, string>) => Promise<{ body: any; bytes: number }>;

/** A position in the middle of the log that a log page holds but does not start with. */
function insidePage(life: JobLife): { seq: number; pageFirst: number; pageLast: number; recordedAt: string } {
  const page = life.commits.find((c) => c.last >= life.head / 2 && c.last - c.first >= 2) ?? life.commits.at(-1)!;
  return { seq: page.first + Math.floor((page.last - page.first) / 2), pageFirst: page.first, pageLast: page.last, recordedAt: page.recordedAt };
}

/** Pages through /history, 500 a page (the most), checking that each seq 1..head comes once. */
async function walkHistory(get: Get, head: number) {
  const seen = new Uint8Array(head + 1);
  let duplicates = 0;
  let pages = 0;
  let entries = 0;
  let after: number | undefined = 0;
  const start = performance.now();
  while (after !== undefined) {
    const { body } = await get(`${PATH}/history`, { after: String(after), limit: '500' });
    for (const entry of body.entries as { seq: number }[]) {
      if (seen[entry.seq]) duplicates++;
      seen[entry.seq] = 1;
    }
    entries += body.entries.length;
    pages++;
    after = body.nextAfter;
  }
  const seconds = (performance.now() - start) / 1000;
  const missing = seen.subarray(1).filter((s) => s === 0).length;
  return { pages, entries, head, everySeqOnce: missing === 0 && duplicates === 0 && entries === head, missing, duplicates, seconds: round(seconds, 2), msPerPage: round((seconds * 1000) / pages) };
}

/** Pages through the terminated pods of /explain, 500 a page, from the start of the log. */
async function walkTerminatedPods(get: Get) {
  const uids = new Set<string>();
  let pods = 0;
  let pages = 0;
  let after: number | undefined = 0;
  const start = performance.now();
  while (after !== undefined) {
    const { body } = await get(`${PATH}/explain`, { podsAfter: String(after), podsLimit: '500' });
    for (const pod of body.terminatedPods as { uid: string }[]) uids.add(pod.uid);
    pods += body.terminatedPods.length;
    pages++;
    after = body.terminatedPodsNextAfter;
  }
  const seconds = (performance.now() - start) / 1000;
  return { pages, pods, distinctPods: uids.size, seconds: round(seconds, 2), msPerPage: round((seconds * 1000) / pages) };
}



if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const numberArg = (name: string) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : undefined);
  const figures = await runQueryHistoryBench({
    ...(numberArg('--completions') ? { completions: numberArg('--completions') } : {}),
    ...(numberArg('--parallelism') ? { parallelism: numberArg('--parallelism') } : {}),
    ...(args.includes('--db-path') ? { dbPath: args[args.indexOf('--db-path') + 1] } : {}),
  });
  console.log(args.includes('--json') ? JSON.stringify(figures) : JSON.stringify(figures, null, 2));
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
