import { printableLines } from '../shared/k8s/printable.ts';
import { explainJob } from '../shared/job/index.ts';
import { explainJobSet, isJobSetDecisionType, type JobSetDecisionEvent } from '../shared/jobset/index.ts';
import { describe, printJson } from './print/index.ts';
import { jobReplayDescription, jobSetReplayDescription } from './replay/describe.ts';
import { loadReplayInput } from './replay/load-input.ts';
import { playInput } from './replay/play-input.ts';
import { parseReplayArgs } from './replay/replay-args.ts';
import { EXIT_BAD_INPUT, EXIT_USAGE, ReplayError } from './replay/replay-error.ts';
import { REPLAY_HELP } from './replay/replay-help.ts';
import { jobSetReplayReport, replayReport } from './replay/replay-report.ts';
import type { Replayed } from './replay/replay-run.ts';

/** Where the command writes: the console, or a test's buffers. */
export interface ReplayOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

const CONSOLE: ReplayOutput = { out: (text) => console.log(text), err: (text) => console.error(text) };

/**
 * `jobfold replay FILE [--json] [--at N] [--gate NAME=BOOL]...`, for every kind and format:
 * arguments → input (told apart by content) → played as its kind plays → described or reported.
 * Resolves to the exit code.
 */
export async function replayCommand(args: readonly string[], output: ReplayOutput = CONSOLE): Promise<number> {
  try {
    const parsed = parseReplayArgs(args);
    if (parsed.help) {
      output.out(REPLAY_HELP);
      return 0;
    }
    const replayed = await playInput(loadReplayInput(parsed.file), parsed);
    output.out(printReplay(replayed, parsed.json));
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

/** The kind's explanation, then its description (`kubectl describe`'s manners) or its `--json` report. */
function printReplay(replayed: Replayed, json: boolean): string {
  switch (replayed.kind) {
    case 'Job': {
      const { run, source } = replayed;
      const explanation = explainJob(run.state, run.log);
      return json ? printJson(replayReport(run, explanation, source)) : describe(jobReplayDescription(run, explanation, source));
    }
    case 'JobSet': {
      const { run, source } = replayed;
      const decisions = run.log.flatMap(({ seq, event }) => (isJobSetDecisionType(event.type) ? [{ seq, event: event as JobSetDecisionEvent }] : []));
      const explanation = explainJobSet(run.state, decisions);
      return json ? printJson(jobSetReplayReport(run, explanation, source)) : describe(jobSetReplayDescription(run, explanation, source));
    }
    default: {
      const exhaustive: never = replayed;
      throw new Error(`unknown replay ${JSON.stringify(exhaustive)}`);
    }
  }
}
