import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FOLD_CONFIG } from '../../shared/job/index.ts';
import type { JobSetDecisionEvent } from '../../shared/jobset/index.ts';
import type { JobSetEvent } from '../../shared/jobset/index.ts';
import { explainJobSet } from '../../shared/jobset/index.ts';
import { describe, printJson } from '../print/index.ts';
import { jobSetReplayDescription } from './describe.ts';
import { loadJobSetReplayInput } from './jobset-input.ts';
import { playJobSetTrace } from './jobset-play-trace.ts';
import { jobSetReplayReport } from './replay-report.ts';
import type { JobSetReplayRun, JobSetReplaySource } from './jobset-run.ts';
import { replayJobSetScenario } from './jobset-scenario.ts';
import type { JobSetTrace } from './jobset-trace.ts';
import type { ReplayArgs } from './replay-args.ts';
import { EXIT_BAD_INPUT, EXIT_USAGE, ReplayError } from './replay-error.ts';

/** Where the command writes (the shape of replay-command.ts's ReplayOutput). */
interface Output {
  readonly out: (text: string) => void;
}

/** The child's exit code for a bug (EX_SOFTWARE), as opposed to bad input or usage. */
export const EXIT_INTERNAL = 70;

/** The child process that replays a trace through the (asynchronous) service path. */
const TRACE_MAIN = fileURLToPath(new URL('./jobset-trace-main.ts', import.meta.url));
const TRACE_TIMEOUT_MS = 5 * 60_000;

/**
 * `jobfold replay` for JobSet inputs; undefined when FILE is no JobSet input. Problems throw a
 * ReplayError, as the Job replay's do. A scenario is played here (the JobSet fold is
 * synchronous); a trace goes through the service's asynchronous ingest and reconcile, so it is
 * played by a child process, and `replayCommand` stays synchronous for every input.
 */
export function replayJobSet(args: ReplayArgs, output: Output): number | undefined {
  const input = loadJobSetReplayInput(args.file);
  if (input === undefined) return undefined;
  if (input.kind === 'jobset-scenario') {
    if (Object.keys(args.gates).length > 0) {
      throw new ReplayError('--gate sets a Job fold gate; a JobSet scenario holds child Job statuses only', EXIT_USAGE);
    }
    const run = replayJobSetScenario(input.scenario, args.at);
    output.out(renderJobSetReplay(run, args, { file: args.file, kind: 'jobset-scenario', id: input.scenario.id }));
    return 0;
  }
  checkLine(input.trace, args.at);
  const child = spawnSync(process.execPath, [TRACE_MAIN, ...toArgv(args)], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: TRACE_TIMEOUT_MS,
  });
  if (child.status === 0) {
    output.out(child.stdout.replace(/\n$/, ''));
    return 0;
  }
  const why = child.error?.message ?? child.stderr.trim();
  if (child.status === EXIT_BAD_INPUT || child.status === EXIT_USAGE) throw new ReplayError(why, child.status);
  if (child.status === EXIT_INTERNAL) throw new Error(why);
  throw new Error(`the trace replay stopped (${child.signal ?? `exit ${child.status}`}): ${why}`);
}

/** Replays a JobSet trace through the service and renders it: what the child process prints. */
export async function replayJobSetTrace(args: ReplayArgs): Promise<string> {
  const input = loadJobSetReplayInput(args.file);
  if (input?.kind !== 'jobset-trace') throw new ReplayError(`${args.file}: not a JobSet trace`, EXIT_BAD_INPUT);
  checkLine(input.trace, args.at);
  const config = { ...DEFAULT_FOLD_CONFIG, gates: { ...DEFAULT_FOLD_CONFIG.gates, ...args.gates } };
  const run = await playJobSetTrace(input.trace, { config, stopAfterLine: args.at });
  return renderJobSetReplay(run, args, { file: args.file, kind: 'jobset-trace', id: undefined });
}

/** The description, or the `--json` report. */
export function renderJobSetReplay(run: JobSetReplayRun, args: Pick<ReplayArgs, 'json'>, source: JobSetReplaySource): string {
  const decisions = run.log.flatMap(({ seq, event }) => (isDecision(event) ? [{ seq, event }] : []));
  const explanation = explainJobSet(run.state, decisions);
  return args.json ? printJson(jobSetReplayReport(run, explanation, source)) : describe(jobSetReplayDescription(run, explanation, source));
}

const OBSERVATIONS: ReadonlySet<string> = new Set(['JobSetObserved', 'JobSetDeleted', 'JobObserved', 'JobDeleted']);
const isDecision = (event: JobSetEvent): event is JobSetDecisionEvent => !OBSERVATIONS.has(event.type);

function checkLine(trace: JobSetTrace, at: number | undefined): void {
  if (at !== undefined && (at < 1 || at > trace.lineCount)) {
    throw new ReplayError(`--at ${at}: the file has lines 1-${trace.lineCount}`, EXIT_USAGE);
  }
}

/** The parsed options as a command line again, for the child process. */
function toArgv(args: ReplayArgs): string[] {
  const argv = [args.file];
  if (args.json) argv.push('--json');
  if (args.at !== undefined) argv.push('--at', String(args.at));
  for (const [name, on] of Object.entries(args.gates)) argv.push('--gate', `${name}=${on}`);
  return argv;
}
