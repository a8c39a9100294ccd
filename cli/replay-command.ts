import { printableLines } from '../shared/k8s/printable.ts';
import { explainJob, JOBFOLD_DEFAULT_GATES } from '../shared/job/index.ts';
import { describe, printJson } from './print/index.ts';
import { playJobScenario, scenarioGates } from './scenario/play-job-scenario.ts';
import { jobReplayDescription } from './replay/describe.ts';
import { replayJobSet } from './replay/jobset-replay.ts';
import { loadReplayInput, type ReplayInput } from './replay/load-input.ts';
import { progress } from './progress.ts';
import { playJsonl } from './replay/play-jsonl.ts';
import { parseReplayArgs, type ReplayArgs } from './replay/replay-args.ts';
import { EXIT_BAD_INPUT, EXIT_USAGE, ReplayError } from './replay/replay-error.ts';
import { REPLAY_HELP } from './replay/replay-help.ts';
import { JOBSET_REPLAY_HELP } from './replay/jobset-replay-help.ts';
import { replayReport } from './replay/replay-report.ts';
import type { ReplayRun, ReplaySource } from './replay/replay-run.ts';

export { REPLAY_HELP } from './replay/replay-help.ts';

/** Where the command writes: the console, or a test's buffers. */
export interface ReplayOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

const CONSOLE: ReplayOutput = { out: (text) => console.log(text), err: (text) => console.error(text) };

/** `jobfold replay FILE [--json] [--at N] [--gate NAME=BOOL]...`; returns the exit code. */
export function replayCommand(args: readonly string[], output: ReplayOutput = CONSOLE): number {
  try {
    const parsed = parseReplayArgs(args);
    if (parsed.help) {
      output.out(`${REPLAY_HELP}\n\n${JOBSET_REPLAY_HELP}`);
      return 0;
    }
    // A JobSet scenario or trace goes to the JobSet replay.
    const jobSet = replayJobSet(parsed, output);
    if (jobSet !== undefined) return jobSet;
    const input = loadReplayInput(parsed.file);
    const run = play(input, parsed);
    const source: ReplaySource = {
      file: parsed.file,
      kind: input.kind,
      id: input.kind === 'scenario' ? input.scenario.id : undefined,
    };
    const explanation = explainJob(run.state, run.log);
    output.out(
      parsed.json ? printJson(replayReport(run, explanation, source)) : describe(jobReplayDescription(run, explanation, source)),
    );
    return 0;
  } catch (error) {
    if (error instanceof ReplayError) {
      const hint = error.exitCode === EXIT_USAGE ? '\nRun "jobfold replay --help" for the input formats and options.' : '';
      output.err(`jobfold replay: ${printableLines(error.message)}${hint}`);
      return error.exitCode;
    }
    // A bug, not bad input: still one line, never a stack trace.
    output.err(`jobfold replay: internal error: ${printableLines((error as Error).message)}`);
    return EXIT_BAD_INPUT;
  }
}

const PROGRESS_FROM_EVENTS = 10_000;

function play(input: ReplayInput, args: ReplayArgs): ReplayRun {
  if (input.kind === 'scenario') {
    const { scenario } = input;
    if (args.at !== undefined && args.at >= scenario.events.length) {
      throw new ReplayError(`--at ${args.at}: the scenario has events 0-${scenario.events.length - 1}`, EXIT_USAGE);
    }
    const gates = { ...scenarioGates(scenario), ...args.gates };
    return playJobScenario(scenario, { gates, stopAfterEvent: args.at });
  }
  if (args.at !== undefined && (args.at < 1 || args.at > input.lineCount)) {
    throw new ReplayError(`--at ${args.at}: the file has lines 1-${input.lineCount}`, EXIT_USAGE);
  }
  // Large files show events/s and ETA on a terminal's stderr (nothing when piped).
  const shown = input.events.length >= PROGRESS_FROM_EVENTS ? progress('replay', input.events.length) : undefined;
  const run = playJsonl(input.events, {
    gates: { ...JOBFOLD_DEFAULT_GATES, ...args.gates }, stopAfterLine: args.at, ...(shown ? { onProgress: (n: number) => shown.update(n) } : {}),
  });
  shown?.end();
  return run;
}
