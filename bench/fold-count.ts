import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
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

export const FOLD_COUNT_HELP = `Usage: node bench/fold-count.ts [--code ROOT] [--completions N] [--no-fold] [--instructions | --cache] [--memory] [--json]
  --code ROOT       the checkout whose shared/job folds (default this one)
  --completions N   the synthetic Job's completions (default 100,000; parallelism 1,000, a failure every 50)
  --no-fold         generate and parse the stream only: the baseline to subtract
  --instructions    run twice under valgrind (with the fold, with --no-fold) and print the instructions
  --cache           as --instructions, with cachegrind's cache simulation: also the data reads and
                    writes, their first-level (D1) and last-level (LL) misses, fold minus baseline
  --memory          also the loop's collections (scavenges, mark-compacts, their ms), the folded
                    state's heap after a full collection (MB) and the heap the loop left (MB)
Prints events, decisions, commands, the final status's digest and the fold's CPU ms.`;

interface FoldSurface {
  decide(state: unknown, now: string): { decisions: readonly { type: string }[]; commands: readonly unknown[] };
  evolve(state: unknown, event: unknown): unknown;
  initialState(config: unknown): unknown;
  jobStatus(state: unknown): unknown;
}

export async function runFoldCount(options: { code?: string; completions?: number; fold?: boolean; memory?: boolean }) {
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
  const status = fold ? createHash('sha256').update(JSON.stringify(jobStatus(state))).digest('hex').slice(0, 16) : undefined;
  const report = { code: root, completions, events: events.length, fold, decisions, commands, status, foldCpuMs: Math.round((used.user + used.system) / 1000) };
  if (memory === undefined) return report;
  const collections = await memory.stop();
  const withState = memory.heapAfterFullCollection();
  state = undefined;
  const withoutState = memory.heapAfterFullCollection();
  return { ...report, ...collections, stateHeapMb: mb(withState - withoutState), loopLeftHeapMb: mb(withoutState - memory.heapBefore) };
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
  const underValgrind = args.includes('--cache') ? 'cache' : args.includes('--instructions') ? 'instructions' : undefined;
  if (underValgrind !== undefined) {
    const rest = args.filter((a) => !['--instructions', '--cache', '--no-fold', '--json', '--memory'].includes(a));
    const run = (extra: string[]) => countsOf([fileURLToPath(import.meta.url), ...rest, '--json', ...extra], underValgrind === 'cache');
    const fold = run([]);
    const baseline = run(['--no-fold']);
    const report: Record<string, unknown> = { ...fold.report, instructions: fold.counts.instructions, baselineInstructions: baseline.counts.instructions, foldInstructions: fold.counts.instructions - baseline.counts.instructions };
    if (underValgrind === 'cache') {
      for (const key of ['dataRefs', 'd1Misses', 'lldMisses', 'llMisses'] as const) {
        report[`fold${key[0]!.toUpperCase()}${key.slice(1)}`] = (fold.counts[key] ?? 0) - (baseline.counts[key] ?? 0);
      }
      report.process = fold.counts;
      report.baselineProcess = baseline.counts;
      report.cacheModel = fold.cacheModel;
    }
    console.log(args.includes('--json') ? JSON.stringify(report) : report);
    process.exit(0);
  }
  const report = await runFoldCount({
    ...(arg('--code') ? { code: arg('--code')! } : {}),
    ...(arg('--completions') ? { completions: Number(arg('--completions')) } : {}),
    fold: !args.includes('--no-fold'),
    memory: args.includes('--memory'),
  });
  console.log(args.includes('--json') ? JSON.stringify(report) : report);
}

/**
 * The caches cachegrind simulates (--cache): fixed, so that machines compare. Valgrind reads them
 * from cpuid otherwise, and in this machine's VM it found a last level of 512 MB, two-way, which
 * nothing misses. These are the first levels cpuid reports on this machine's AMD EPYC (32 KiB
 * instructions, 48 KiB data, 12-way) and its 1 MiB L2 (/proc/cpuinfo) as the one last level
 * cachegrind models.
 */
const CACHE_MODEL = ['--I1=32768,8,64', '--D1=49152,12,64', '--LL=1048576,8,64'];

interface ValgrindCounts { instructions: number; dataRefs?: number; d1Misses?: number; lldMisses?: number; llMisses?: number }

/**
 * One node process (`--single-threaded`) under cachegrind: its instructions ("I refs"), with the
 * cache simulation also its data references and their D1 / last-level misses (reads and writes
 * together; the caches of CACHE_MODEL, printed as cacheModel), and
 * what it printed.
 */
function countsOf(script: string[], cacheSim: boolean): { counts: ValgrindCounts; cacheModel?: string; report: Record<string, unknown> } {
  const caches = cacheSim ? ['--cache-sim=yes', ...CACHE_MODEL] : ['--cache-sim=no'];
  const out = spawnSync('valgrind', ['--tool=cachegrind', ...caches, '--cachegrind-out-file=/dev/null', process.execPath, '--single-threaded', ...script], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const stderr = out.stderr ?? '';
  const count = (label: string) => {
    const found = new RegExp(`${label}:\\s+([\\d,]+)`).exec(stderr);
    return found === null ? undefined : Number((found[1] as string).replaceAll(',', ''));
  };
  const instructions = count('I\\s+refs');
  if (out.status !== 0 || instructions === undefined) throw new Error(`valgrind ${script.join(' ')}: exit ${out.status}: ${(stderr || String(out.error)).slice(-500)}`);
  const report = JSON.parse(out.stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>;
  if (!cacheSim) return { counts: { instructions }, report };
  const counts = { instructions, dataRefs: count('D\\s+refs'), d1Misses: count('D1\\s+misses'), lldMisses: count('LLd\\s+misses'), llMisses: count('LL\\s+misses') };
  return { counts, cacheModel: CACHE_MODEL.join(' '), report };
}
