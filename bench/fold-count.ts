import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

export const FOLD_COUNT_HELP = `Usage: node bench/fold-count.ts [--code ROOT] [--completions N] [--no-fold] [--instructions] [--json]
  --code ROOT       the checkout whose shared/job folds (default this one)
  --completions N   the synthetic Job's completions (default 100,000; parallelism 1,000, a failure every 50)
  --no-fold         generate and parse the stream only: the baseline to subtract
  --instructions    run twice under valgrind (with the fold, with --no-fold) and print the instructions
Prints events, decisions, commands, the final status's digest and the fold's CPU ms.`;

interface FoldSurface {
  decide(state: unknown, now: string): { decisions: readonly { type: string }[]; commands: readonly unknown[] };
  evolve(state: unknown, event: unknown): unknown;
  initialState(config: unknown): unknown;
  jobStatus(state: unknown): unknown;
}

export async function runFoldCount(options: { code?: string; completions?: number; fold?: boolean }) {
  const { completions = 100_000, fold = true } = options;
  const root = resolve(options.code ?? join(fileURLToPath(import.meta.url), '../..'));
  const { decide, evolve, initialState, jobStatus } = (await import(pathToFileURL(join(root, 'shared/job/index.ts')).href)) as FoldSurface;
  const synthetic = { completions, parallelism: 1000, failureEvery: 50 };
  const job = syntheticJob(synthetic);
  // As bench/run.ts: one JSON document per event, parsed back.
  const events = syntheticEvents(synthetic).map((e) => JSON.parse(JSON.stringify(e)) as { seq?: number; observedAt: string });
  const state = initialState({ gates: { PodFailurePolicyName: true }, validateSpecs: true });
  let decisions = 0;
  let commands = 0;
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
  return { code: root, completions, events: events.length, fold, decisions, commands, status, foldCpuMs: Math.round((used.user + used.system) / 1000) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(FOLD_COUNT_HELP);
    process.exit(0);
  }
  const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  if (args.includes('--instructions')) {
    const rest = args.filter((a) => a !== '--instructions' && a !== '--no-fold' && a !== '--json');
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
  });
  console.log(args.includes('--json') ? JSON.stringify(report) : report);
}

/** One node process (`--single-threaded`) under cachegrind: its instructions ("I refs") and what it printed. */
function instructionsOf(script: string[]): { instructions: number; report: Record<string, unknown> } {
  const out = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--single-threaded', ...script], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const refs = /I\s+refs:\s+([\d,]+)/.exec(out.stderr ?? '');
  if (out.status !== 0 || refs === null) throw new Error(`valgrind ${script.join(' ')}: exit ${out.status}: ${(out.stderr ?? String(out.error)).slice(-500)}`);
  return { instructions: Number((refs[1] as string).replaceAll(',', '')), report: JSON.parse(out.stdout.trim().split('\n').at(-1) as string) as Record<string, unknown> };
}
