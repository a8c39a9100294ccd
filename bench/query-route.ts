import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
// several processes a side, not one. Even with --single-threaded the collector's count reads the
// wall clock: V8 sizes the young generation by allocation per millisecond and runs its memory
// reducer on timers, so a process slowed by valgrind and a loaded machine (a call waiting minutes
// on DynamoDB Local) collects several times as often: 8fed498's Job view measured 9,747 M at one
// load and 10,139 M at another (5x the scavenges). --instructions runs V8 with
// --predictable-gc-schedule, which fixes that schedule.

export const QUERY_ROUTE_HELP = `Usage: node bench/query-route.ts --db-path DIR [--write | --instructions] [--route R] [--repeat N] [--code ROOT] [--cpu-prof FILE] [--json]
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
  --instructions  the route's instructions by phase, load-proof: this script three times under
                  valgrind (cachegrind, no cache simulation; ~50x slower), at --repeat 0, 1 and N,
                  in node --single-threaded --predictable-gc-schedule; prints the module load
                  (the imports, DynamoDB Local's client), the first call (1 minus 0) and each later
                  call (N minus 1, over N - 1), each split by cg_annotate into the collector, the
                  compilers, parse, JIT code, builtins, the rest
  --cg-out DIR    with --instructions: keep the three cachegrind files there (for cg_annotate)
  --write         only write the kept Job into DIR with ROOT's own writer code (what
                  query-history.ts --db-path DIR writes first, without its queries and walks:
                  a few minutes instead of ~15 on a loaded machine), for bisecting commits
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

/**
 * The kept Job of query-history.ts (same table name and sizes), written into `dbPath` by
 * `code`'s own writer (its bench/query-job-life.ts writeJobLife and store), and nothing else.
 */
export async function writeKeptJob(options: { dbPath: string; code?: string; completions?: number; parallelism?: number }) {
  const { completions = 100_000, parallelism = 1000 } = options;
  const root = resolve(options.code ?? join(fileURLToPath(import.meta.url), '../..'));
  const from = async <T>(path: string) => (await import(pathToFileURL(join(root, path)).href)) as T;
  const { DynamoDbEventStore } = await from<typeof import('../functions/adapters/dynamodb-event-store.ts')>('functions/adapters/dynamodb-event-store.ts');
  const { foldConfig } = await from<typeof import('../functions/commons/config.ts')>('functions/commons/config.ts');
  const { createLocalClient, createTables, startDynamoDbLocal } = await from<typeof import('../local/dynamodb-local.ts')>('local/dynamodb-local.ts');
  const { writeJobLife } = await from<typeof import('./query-job-life.ts')>('bench/query-job-life.ts');
  const tableName = `bench-query-${completions}-${parallelism}-50-1000`;
  const kept = join(options.dbPath, `${tableName}.json`);
  if (existsSync(kept)) throw new Error(`${kept} exists: ${options.dbPath} holds that Job already`);
  const local = await startDynamoDbLocal({ dbPath: options.dbPath });
  const client = createLocalClient(local.endpoint);
  try {
    await createTables(client, tableName);
    const life = await writeJobLife(new DynamoDbEventStore({ client, tableName }), foldConfig(''), { completions, parallelism, failureEvery: 50 }, 1000);
    writeFileSync(kept, JSON.stringify(life));
    return { code: root, dbPath: options.dbPath, logEntries: life.head, writeSeconds: round(life.writeSeconds) };
  } finally {
    client.destroy();
    await local.stop();
  }
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

/** Instructions by category, from cg_annotate's per-function counts (what each V8 part executed). */
const CATEGORIES: readonly [string, RegExp][] = [
  ['jit code', /^\?\?\?:\?\?\?$/],
  ['compilers', /compiler::|turboshaft|maglev::|Maglev|TurboFan|Pipeline|OptimizedCompilationJob|InstructionSelector|RegisterAllocator|baseline::|Sparkplug|BaselineCompiler/],
  ['collector', /Marking|Scavenge|Sweeper|MarkCompact|Heap::|heap::|Evacuat|Remembered|SlotSet|PagedSpace|Compactor|BodyDescriptor|GCTracer|MemoryAllocator|FreeList|Minor|SizeFromMap|Worklist|IterateObjectCache|RootVisitor|WriteBarrier/],
  ['parse + bytecode', /Scanner|Parser|AstValueFactory|Ast|BytecodeGenerator|interpreter::|Compiler::Compile|ScopeInfo|DeclarationScope|Scope::|bytecode/],
  ['type stripping (wasm)', /wasm/i],
  ['builtins', /^\?\?\?:Builtins_/],
];

function categories(file: string): Record<string, number> {
  const out = spawnSync('cg_annotate', ['--threshold=0', file], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  const counts: Record<string, number> = { total: 0 };
  for (const line of out.stdout.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (m === null) continue;
    const n = Number(m[1]!.replaceAll(',', ''));
    const name = m[2]!.trim();
    if (name.includes('PROGRAM TOTALS')) { counts['total'] = n; continue; }
    if (name.startsWith('--') || !name.includes(':')) continue;
    const category = CATEGORIES.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';
    counts[category] = (counts[category] ?? 0) + n;
  }
  return counts;
}

/** This script at --repeat 0, 1 and N under cachegrind, in parallel; phases by difference. */
async function instructionsByPhase(args: readonly string[], repeat: number, keep: string | undefined) {
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'query-route-cg-'));
  mkdirSync(dir, { recursive: true });
  const rest = args.filter((a, i) => !['--instructions', '--json'].includes(a) && !['--repeat', '--cg-out'].includes(args[i - 1] ?? '') && !['--repeat', '--cg-out'].includes(a));
  const run = (n: number) => new Promise<Record<string, number>>((done, fail) => {
    const file = join(dir, `cg.repeat-${n}.out`);
    const child = spawn('valgrind', ['--tool=cachegrind', '--cache-sim=no', `--cachegrind-out-file=${file}`, process.execPath, '--single-threaded', '--predictable-gc-schedule',
      fileURLToPath(import.meta.url), ...rest, '--repeat', String(n), '--json'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
    child.on('close', (code) => (code === 0 ? done(categories(file)) : fail(new Error(`valgrind at --repeat ${n}: exit ${code}: ${stderr.slice(-500)}`))));
  });
  const [load, first, all] = await Promise.all([run(0), run(1), run(repeat)]);
  if (keep === undefined) rmSync(dir, { recursive: true, force: true });
  const minus = (a: Record<string, number>, b: Record<string, number>, over = 1) =>
    Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, Math.round(((a[k] ?? 0) - (b[k] ?? 0)) / over / 1e5) / 10]));
  const millions = (a: Record<string, number>) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Math.round(v / 1e5) / 10]));
  return { unit: 'million instructions', moduleLoad: millions(load), firstCall: minus(first, load), laterCallEach: minus(all, first, repeat - 1), calls: repeat };
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
  if (args.includes('--instructions')) {
    const repeat = Number(arg('--repeat') ?? 4);
    if (!(repeat >= 2)) throw new Error('--instructions needs --repeat 2 or more');
    console.log(JSON.stringify(await instructionsByPhase(args, repeat, arg('--cg-out')), null, args.includes('--json') ? undefined : 2));
    process.exit(0);
  }
  if (args.includes('--write')) {
    console.log(JSON.stringify(await writeKeptJob({
      dbPath, ...(arg('--code') ? { code: arg('--code')! } : {}),
      ...(arg('--completions') ? { completions: Number(arg('--completions')) } : {}),
      ...(arg('--parallelism') ? { parallelism: Number(arg('--parallelism')) } : {}),
    })));
    process.exit(0);
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
