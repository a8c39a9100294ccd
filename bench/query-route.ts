import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { JobLife } from './query-job-life.ts';

// One query route of the query bench's 100,000-index Job, called N times in a fresh process (as a
// query Lambda serves its requests), with figures a loaded machine moves less than wall time:
// CPU ms per answer, of the whole process and apart of its main thread (the handler's
// JavaScript, the collector's main-thread part) and its other threads (V8's optimising
// compilers, the collector's helpers); the bytes the answer allocated (the heap used after it,
// plus what each collection during it freed) and the collections it ran. For comparing commits
// (issue 20: the Job view and explain slower than at 257ac7f) when wall times are noise.
// Figures, never assertions.
//
//   node bench/query-history.ts --db-path DIR            writes the Job once (and queries it)
//   node bench/query-route.ts --db-path DIR --route job --repeat 9 [--json]
//
// --code ROOT runs another checkout's query code (a worktree of an older commit, its own
// node_modules) on a DIR that checkout's query-history.ts wrote: the stored forms are each
// commit's own. --cpu-prof FILE profiles the calls from the second (or --cpu-prof-from N), not
// the process's start; bench/profile-top.ts reads it; its times are wall-clock samples of the
// main thread, which a loaded machine charges to whatever was running when it took the core away.
// The first call of a process is apart (`first`): it compiles what the later calls run optimised,
// as a query Lambda's first request after Init does; the next few still compile much
// (query-history.ts's median of 3 is mostly such a call). QUERY_ROUTE_MARK=1 prints `--- call N`
// before each call, to read `node --trace-opt` output call by call. Instructions do not move with
// load: under `valgrind --tool=cachegrind --cache-sim=no` (~50 times slower), cg_annotate splits a
// process's instructions into the compilers', the collector's, JIT code's; V8's compiling and
// collecting still move them by a few % from one process to the next (the Job view at d88d97a
// beside 257ac7f, +3.1 % at --repeat 2 --gc-each, +4.2 % at --repeat 6, -1.2 % at 10), so compare
// several processes a side, not one.

export const QUERY_ROUTE_HELP = `Usage: node bench/query-route.ts --db-path DIR [--route R] [--repeat N] [--code ROOT] [--cpu-prof FILE] [--json]
  --db-path DIR   DynamoDB Local's files that bench/query-history.ts --db-path DIR wrote (same sizes)
  --route R       job (default) | explain | head | end | start: the Job view, /explain, /status,
                  /status?at=<head>, /status?at=1
  --repeat N      calls in this process (default 7); the first is reported apart
  --code ROOT     the checkout whose query code answers (default this one)
  --cpu-prof FILE a CPU profile of the calls after the first
  --cpu-prof-from N   the profile starts at call N (default 2; later: past most of the compiling)
  --gc-each       a full collection before every call, not only the first (the allocation
                  figures barely move; the CPU ones do: a full collection drops optimised code
                  that the next call compiles again)
  --completions N, --parallelism N   the Job's sizes, as given to query-history.ts
Per call: cpuMs (this process), mainThreadMs and otherThreadsMs (Linux), ms (wall), allocatedMb,
gcs, gcMs, readUnits; medians and ranges of the calls after the first.`;

interface Call {
  readonly cpuMs: number;
  /** CPU ms of the main thread (the handler's JavaScript, the collector's main-thread part) and of the others (V8's compilers and the collector's helpers, libuv's pool). */
  readonly mainThreadMs: number;
  readonly otherThreadsMs: number;
  readonly ms: number;
  readonly allocatedMb: number;
  readonly gcs: number;
  readonly gcMs: number;
  readonly readUnits: number;
  readonly responseBytes: number;
}

const ROUTES = ['job', 'explain', 'head', 'end', 'start'] as const;
type Route = (typeof ROUTES)[number];

export async function runQueryRoute(options: {
  dbPath: string; route?: Route; repeat?: number; code?: string; cpuProf?: string; cpuProfFrom?: number; gcEach?: boolean; completions?: number; parallelism?: number;
}) {
  const { route = 'job', repeat = 7, completions = 100_000, parallelism = 1000 } = options;
  const root = resolve(options.code ?? join(fileURLToPath(import.meta.url), '../..'));
  const from = async <T>(path: string) => (await import(pathToFileURL(join(root, path)).href)) as T;
  // The other checkout's own modules (its stored forms, its query code), typed as this one's.
  const { DynamoDbEventStore } = await from<typeof import('../functions/adapters/dynamodb-event-store.ts')>('functions/adapters/dynamodb-event-store.ts');
  const { foldConfig } = await from<typeof import('../functions/commons/config.ts')>('functions/commons/config.ts');
  const { createQueryHandler } = await from<typeof import('../functions/handlers/query-handler.ts')>('functions/handlers/query-handler.ts');
  const { createLocalClient, startDynamoDbLocal } = await from<typeof import('../local/dynamodb-local.ts')>('local/dynamodb-local.ts');
  const { BENCH_STREAM } = await from<typeof import('./query-job-life.ts')>('bench/query-job-life.ts');
  const { apiEvent, lambdaContext } = await from<typeof import('./query-invoke.ts')>('bench/query-invoke.ts');

  // The names query-history.ts gives a kept Job (failureEvery 50, batches of 1,000).
  const tableName = `bench-query-${completions}-${parallelism}-50-1000`;
  const kept = join(options.dbPath, `${tableName}.json`);
  if (!existsSync(kept)) throw new Error(`${kept} is missing: write the Job first (node bench/query-history.ts --db-path ${options.dbPath})`);
  const life = JSON.parse(readFileSync(kept, 'utf8')) as JobLife;
  const local = await startDynamoDbLocal({ dbPath: options.dbPath });
  const client = createLocalClient(local.endpoint);
  try {
    const store = new DynamoDbEventStore({ client, tableName });
    const handler = createQueryHandler({ store, config: foldConfig(''), cursorKey: Buffer.from('bench-cursor-key-of-32-bytes-or-more', 'utf8') });
    const path = `/v1/clusters/${BENCH_STREAM.clusterId}/namespaces/${BENCH_STREAM.namespace}/jobs/bench`;
    const request = {
      job: [path, {}], explain: [`${path}/explain`, {}], head: [`${path}/status`, {}],
      end: [`${path}/status`, { at: String(life.head) }], start: [`${path}/status`, { at: '1' }],
    } satisfies Record<Route, [string, Record<string, string>]>;
    const [routePath, query] = request[route];
    const gc = collector();
    const session = options.cpuProf === undefined ? undefined : new Session();
    const calls: Call[] = [];
    for (let call = 0; call < repeat; call++) {
      if (call === (options.cpuProfFrom ?? 2) - 1 && session !== undefined) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      }
      if (call === 0 || options.gcEach === true) gc();
      if (process.env['QUERY_ROUTE_MARK']) console.log(`--- call ${call + 1}`);
      const profiler = new GCProfiler();
      const units = store.capacity.readUnits;
      profiler.start();
      const used = heapUsed();
      const start = performance.now();
      const startCpu = process.cpuUsage();
      const threads = threadCpu();
      const response = (await handler(apiEvent(routePath, query), lambdaContext)) as APIGatewayProxyStructuredResultV2;
      const cpu = process.cpuUsage(startCpu);
      const byThread = threadCpu(threads);
      const ms = performance.now() - start;
      const usedAfter = heapUsed();
      const collections = profiler.stop()?.statistics ?? [];
      if (response.statusCode !== 200) throw new Error(`GET ${routePath} answered ${response.statusCode}: ${String(response.body).slice(0, 300)}`);
      const freed = collections.reduce((sum, c) => sum + c.beforeGC.heapStatistics.usedHeapSize - c.afterGC.heapStatistics.usedHeapSize, 0);
      calls.push({
        cpuMs: round((cpu.user + cpu.system) / 1000), mainThreadMs: round(byThread.main), otherThreadsMs: round(byThread.others), ms: round(ms), allocatedMb: round((usedAfter - used + freed) / 2 ** 20),
        gcs: collections.length, gcMs: round(collections.reduce((sum, c) => sum + c.cost, 0) / 1000),
        readUnits: round(store.capacity.readUnits - units), responseBytes: String(response.body).length,
      });
    }
    if (session !== undefined && options.cpuProf !== undefined) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(options.cpuProf, JSON.stringify(profile));
      session.disconnect();
    }
    const later = calls.slice(1);
    const figure = (key: keyof Call) => {
      const values = later.map((c) => c[key]).sort((a, b) => a - b);
      return { median: values[Math.floor(values.length / 2)] ?? 0, min: values[0] ?? 0, max: values.at(-1) ?? 0 };
    };
    return {
      route, code: root, calls: calls.length, first: calls[0],
      cpuMs: figure('cpuMs'), mainThreadMs: figure('mainThreadMs'), otherThreadsMs: figure('otherThreadsMs'), ms: figure('ms'), allocatedMb: figure('allocatedMb'), gcs: figure('gcs'), gcMs: figure('gcMs'),
      readUnits: later[0]?.readUnits ?? calls[0]?.readUnits, responseBytes: calls[0]?.responseBytes, each: calls,
    };
  } finally {
    client.destroy();
    await local.stop();
  }
}

/**
 * CPU ms of this process's threads since `since` (Linux /proc schedstat, nanoseconds): the main
 * thread apart from the rest. Elsewhere, the process's CPU as the main thread's.
 */
function threadCpu(since?: Map<string, number>): Map<string, number> & { main: number; others: number } {
  const now = new Map<string, number>();
  let main = 0;
  let others = 0;
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      const ms = (ns - (since?.get(tid) ?? 0)) / 1e6;
      now.set(tid, ns);
      if (Number(tid) === process.pid) main += ms;
      else others += ms;
    }
  } catch {
    const used = process.cpuUsage();
    main = (used.user + used.system) / 1000 - (since?.get('process') ?? 0);
    now.set('process', (used.user + used.system) / 1000);
  }
  return Object.assign(now, { main, others });
}

function heapUsed(): number {
  return process.memoryUsage().heapUsed;
}

/** A full garbage collection, without starting node with --expose-gc. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const dbPath = arg('--db-path');
  const route = arg('--route') ?? 'job';
  if (args.includes('--help') || dbPath === undefined || !(ROUTES as readonly string[]).includes(route)) {
    console.log(QUERY_ROUTE_HELP);
    process.exit(args.includes('--help') ? 0 : 2);
  }
  const figures = await runQueryRoute({
    dbPath, route: route as Route,
    ...(arg('--repeat') ? { repeat: Number(arg('--repeat')) } : {}),
    ...(arg('--code') ? { code: arg('--code')! } : {}),
    ...(arg('--cpu-prof') ? { cpuProf: arg('--cpu-prof')! } : {}),
    ...(arg('--cpu-prof-from') ? { cpuProfFrom: Number(arg('--cpu-prof-from')) } : {}),
    ...(args.includes('--gc-each') ? { gcEach: true } : {}),
    ...(arg('--completions') ? { completions: Number(arg('--completions')) } : {}),
    ...(arg('--parallelism') ? { parallelism: Number(arg('--parallelism')) } : {}),
  });
  if (args.includes('--json')) console.log(JSON.stringify(figures));
  else {
    const { each, ...rest } = figures;
    console.log(JSON.stringify(rest, null, 2));
    console.log(each.map((c, i) => `  call ${i + 1}: cpu ${c.cpuMs} ms (main thread ${c.mainThreadMs}, others ${c.otherThreadsMs}), wall ${c.ms} ms, ${c.allocatedMb} MB allocated, ${c.gcs} GCs (${c.gcMs} ms), ${c.readUnits} RCU`).join('\n'));
  }
}
