import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve, join } from 'node:path';
import { PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { syntheticEvents, syntheticJob } from './synthetic-job.ts';

// The fold bench's loop alone (bench/run.ts part 4: the synthetic Indexed Job folded and decided
// after every event), in a process of its own, for counting the fold's instructions. Wall time on
// a shared machine is noise (issue 20: the fold bench gave main 0.68x 8fed498's rate at one stop
// and the reverse at the next); instructions are not:
//   node bench/fold-count.ts --instructions [--code ROOT] [--completions N]
// runs this script twice under valgrind (cachegrind, no cache simulation; ~50x slower), with the
// fold and with --no-fold, and prints both processes' instructions and their difference: the fold
// and decide loop's (node's start, the imports, the stream's generation and JSON.parse are the
// --no-fold run's). Node runs with --single-threaded (V8 compiles and collects on the main
// thread): two processes of one side then agree within ~0.3 % (with V8's background threads,
// ~1 %). A 20,000-completion Job (61,224 events) takes ~5 min a process on an idle core.
// --code ROOT folds with another checkout's shared/job (a worktree or a `git archive` of an older
// commit, with node_modules reachable from it); the stream is always this checkout's generator's,
// so every side folds the same events. The final status's digest tells whether sides agree.
// Fewer instructions need not mean less CPU (issue 20: main's loop executed fewer than 8fed498's
// and spent more CPU in four idle runs a side): --cache counts the loop's cache misses (callgrind,
// one process, instrumented from the loop's first event), --memory its collections and the state's
// heap, --threads its CPU per thread (V8 collects and compiles partly on worker threads).

export const FOLD_COUNT_HELP = `Usage: node bench/fold-count.ts [--code ROOT] [--completions N] [--no-fold] [--instructions | --cache] [--memory] [--threads] [--json]
  --code ROOT       the checkout whose shared/job folds (default this one)
  --completions N   the synthetic Job's completions (default 100,000; parallelism 1,000, a failure every 50)
  --no-fold         generate and parse the stream only: the baseline to subtract
  --instructions    run twice under valgrind (with the fold, with --no-fold) and print the instructions
  --cache           one process under callgrind with its cache simulation, instrumented from the
                    loop's first event to the process's end: the loop's instructions, data
                    references, first-level (D1), last-level and instruction-cache misses
  --memory          also the loop's collections (scavenges, mark-compacts, their ms), the folded
                    state's heap after a full collection (MB) and the heap the loop left (MB)
  --threads         also the loop's CPU ms per thread: node's main thread, V8's and libuv's others
Prints events, decisions, commands, the final status's digest and the fold's CPU ms.`;

interface FoldSurface {
  decide(state: unknown, now: string): { decisions: readonly { type: string }[]; commands: readonly unknown[] };
  evolve(state: unknown, event: unknown): unknown;
  initialState(config: unknown): unknown;
  jobStatus(state: unknown): unknown;
}

export async function runFoldCount(options: { code?: string; completions?: number; fold?: boolean; memory?: boolean; threads?: boolean }) {
  const { completions = 100_000, fold = true } = options;
  const root = resolve(options.code ?? join(fileURLToPath(import.meta.url), '../..'));
  const { decide, evolve, initialState, jobStatus } = (await import(pathToFileURL(join(root, 'shared/job/index.ts')).href)) as FoldSurface;
  const synthetic = { completions, parallelism: 1000, failureEvery: 50 };
  const job = syntheticJob(synthetic);
  // As bench/run.ts: one JSON document per event, parsed back.
  const events = syntheticEvents(synthetic).map((e) => JSON.parse(JSON.stringify(e)) as { seq?: number; observedAt: string });
  let state: unknown = initialState({ gates: { PodFailurePolicyName: true }, validateSpecs: true });
  let decisions = 0;
  let commands = 0;
  const memory = options.memory === true ? watchMemory() : undefined;
  awaitInstrumentation();
  const threadsBefore = options.threads === true ? threadCpuMs() : undefined;
  const cpu = process.cpuUsage();
  if (fold) {
    evolve(state, { type: 'JobObserved', eventId: 'job', clusterId: 'bench', observedAt: '2026-01-01T00:00:00Z', job, seq: 1 });
    let seq = 1;
    for (const event of events) {
      event.seq = ++seq;
      evolve(state, event);
      const result = decide(state, event.observedAt);
      for (const decision of result.decisions) evolve(state, { ...decision, seq: ++seq });
      decisions += result.decisions.length;
      commands += result.commands.length;
    }
  }
  const used = process.cpuUsage(cpu);
  const threads = threadsBefore === undefined ? {} : { threadCpuMs: threadCpuSince(threadsBefore) };
  const status = fold ? createHash('sha256').update(JSON.stringify(jobStatus(state))).digest('hex').slice(0, 16) : undefined;
  const report = { code: root, completions, events: events.length, fold, decisions, commands, status, foldCpuMs: Math.round((used.user + used.system) / 1000), ...threads };
  if (memory === undefined) return report;
  const collections = await memory.stop();
  const withState = memory.heapAfterFullCollection();
  state = undefined;
  const withoutState = memory.heapAfterFullCollection();
  return { ...report, ...collections, stateHeapMb: mb(withState - withoutState), loopLeftHeapMb: mb(withoutState - memory.heapBefore) };
}

/**
 * --cache: the parent runs this process under callgrind with instrumentation off and names a
 * directory in FOLD_COUNT_HANDSHAKE; the loop announces itself there and waits (spinning, so
 * valgrind keeps reading its commands) until the parent has switched instrumentation on.
 */
function awaitInstrumentation(): void {
  const dir = process.env.FOLD_COUNT_HANDSHAKE;
  if (dir === undefined) return;
  writeFileSync(join(dir, 'start'), String(process.pid));
  while (!existsSync(join(dir, 'go'))) {
    // spin
  }
}

/** CPU ms per thread of this process (/proc/self/task; Linux): the main thread, the others by name. */
function threadCpuMs(): Map<string, { name: string; ms: number }> {
  const threads = new Map<string, { name: string; ms: number }>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, in clock ticks (100 a second).
      threads.set(tid, { name: tid === String(process.pid) ? 'main' : name, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

function threadCpuSince(before: Map<string, { name: string; ms: number }>): Record<string, number> {
  const spent: Record<string, number> = {};
  for (const [tid, now] of threadCpuMs()) spent[now.name] = (spent[now.name] ?? 0) + now.ms - (before.get(tid)?.ms ?? 0);
  return spent;
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 17) / 8;

/**
 * The loop's collections (--memory): V8's own `gc` performance entries while it runs, and the
 * heap after a full collection (the `gc` function exposed at run time, as `--expose-gc` would).
 * The first full collection happens before the loop, so its CPU figure in this mode starts from
 * a collected heap.
 */
function watchMemory() {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heapAfterFullCollection = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const heapBefore = heapAfterFullCollection();
  const counts = { scavenges: 0, markCompacts: 0, otherCollections: 0, collectionMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) counts.scavenges++;
      else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) counts.markCompacts++;
      else counts.otherCollections++;
      counts.collectionMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    heapBefore,
    heapAfterFullCollection,
    /** The entries are delivered after the loop: wait for them, then stop watching. */
    async stop() {
      await new Promise((done) => setTimeout(done, 20));
      observer.disconnect();
      return { ...counts, collectionMs: Math.round(counts.collectionMs) };
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(FOLD_COUNT_HELP);
    process.exit(0);
  }
  const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  if (args.includes('--cache')) {
    const rest = args.filter((a) => !['--instructions', '--cache', '--no-fold', '--json', '--memory', '--threads'].includes(a));
    const report = await loopUnderCallgrind([fileURLToPath(import.meta.url), ...rest, '--json']);
    console.log(args.includes('--json') ? JSON.stringify(report) : report);
    process.exit(0);
  }
  if (args.includes('--instructions')) {
    const rest = args.filter((a) => !['--instructions', '--no-fold', '--json', '--memory', '--threads'].includes(a));
    const run = (extra: string[]) => instructionsOf([fileURLToPath(import.meta.url), ...rest, '--json', ...extra]);
    const fold = run([]);
    const baseline = run(['--no-fold']);
    const report = { ...fold.report, instructions: fold.instructions, baselineInstructions: baseline.instructions, foldInstructions: fold.instructions - baseline.instructions };
    console.log(args.includes('--json') ? JSON.stringify(report) : report);
    process.exit(0);
  }
  const report = await runFoldCount({
    ...(arg('--code') ? { code: arg('--code')! } : {}),
    ...(arg('--completions') ? { completions: Number(arg('--completions')) } : {}),
    fold: !args.includes('--no-fold'),
    memory: args.includes('--memory'),
    threads: args.includes('--threads'),
  });
  console.log(args.includes('--json') ? JSON.stringify(report) : report);
}

/**
 * The caches callgrind simulates (--cache): fixed, so that machines compare. Valgrind reads them
 * from cpuid otherwise, and in this machine's VM it found a last level of 512 MB, two-way, which
 * nothing misses. These are the first levels cpuid reports on this machine's AMD EPYC (32 KiB
 * instructions, 48 KiB data, 12-way) and its 1 MiB L2 (/proc/cpuinfo) as the one last level
 * callgrind models.
 */
function cacheModel(): string[] {
  return ['--I1=32768,8,64', '--D1=49152,12,64', '--LL=1048576,8,64'];
}

/** One node process (`--single-threaded`) under cachegrind: its instructions ("I refs") and what it printed. */
function instructionsOf(script: string[]): { instructions: number; report: Record<string, unknown> } {
  const out = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--single-threaded', ...script], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const refs = /I\s+refs:\s+([\d,]+)/.exec(out.stderr ?? '');
  if (out.status !== 0 || refs === null) throw new Error(`valgrind ${script.join(' ')}: exit ${out.status}: ${(out.stderr ?? String(out.error)).slice(-500)}`);
  return { instructions: Number((refs[1] as string).replaceAll(',', '')), report: JSON.parse(out.stdout.trim().split('\n').at(-1) as string) as Record<string, unknown> };
}

/**
 * One node process (`--single-threaded`) under callgrind with the cache simulation of cacheModel()
 * and instrumentation off until the loop starts (awaitInstrumentation; `callgrind_control -i on`):
 * node's start, the imports and the stream's generation are not counted, so no baseline process
 * is needed. The counts run to the process's end (the final status's digest and the report, a
 * few million instructions). Reads and writes are summed.
 */
async function loopUnderCallgrind(script: string[]): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'fold-count-'));
  try {
    const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', '--cache-sim=yes', ...cacheModel(), '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded', ...script], { env: { ...process.env, FOLD_COUNT_HANDSHAKE: dir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('close', done));
    let running = true;
    void exited.then(() => (running = false));
    while (running && !existsSync(join(dir, 'start'))) await new Promise((done) => setTimeout(done, 500));
    if (running) {
      const on = spawnSync('callgrind_control', ['-i', 'on', String(child.pid)], { encoding: 'utf8' });
      if (on.status !== 0) child.kill();
      writeFileSync(join(dir, 'go'), '');
    }
    const code = await exited;
    const count = (label: string) => {
      const found = new RegExp(`${label}:\\s+([\\d,]+)`).exec(stderr);
      return found === null ? undefined : Number((found[1] as string).replaceAll(',', ''));
    };
    const instructions = count('I\\s+refs');
    if (code !== 0 || instructions === undefined) throw new Error(`callgrind ${script.join(' ')}: exit ${code}: ${stderr.slice(-500)}`);
    const report = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
    return {
      ...report,
      loopInstructions: instructions,
      loopDataRefs: count('D\\s+refs'),
      loopD1Misses: count('D1\\s+misses'),
      loopLastLevelDataMisses: count('LLd\\s+misses'),
      loopInstructionCacheMisses: count('I1\\s+misses'),
      cacheModel: cacheModel().join(' '),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
