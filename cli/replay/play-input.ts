import { DEFAULT_FOLD_CONFIG, JOBFOLD_DEFAULT_GATES, type FeatureGates } from '../../shared/job/index.ts';
import { progress } from '../progress.ts';
import { playJobLog, playJobScenario, scenarioGates } from '../scenario/play-job-scenario.ts';
import { playJobSetTrace } from './jobset-play-trace.ts';
import { replayJobSetScenario } from './replay-jobset-scenario.ts';
import type { ReplayInput } from './load-input.ts';
import { EXIT_USAGE, ReplayError } from './replay-error.ts';
import type { Replayed, ReplaySource } from './replay-run.ts';

/** What playing takes from the command line: the file, where to stop (`--at`), the Job fold's gates. */
export interface PlayArgs {
  readonly file: string;
  /** Scenario: event index (a Job's 0-based; a JobSet's 0 = its creation); JSONL: 1-based file line. */
  readonly at: number | undefined;
  readonly gates: Partial<FeatureGates>;
}

const PROGRESS_FROM_EVENTS = 10_000;

/**
 * Plays an input the way its kind is played: a Job scenario by the corpus's execution model, a
 * Job's JSONL reconciled once per group of events sharing an observedAt, a JobSet scenario as
 * the conformance runner plays it, a JobSet trace through the service's write loop on the
 * in-memory store (its child Jobs too). `jobfold replay` prints the result; `jobfold whatif`
 * refolds its log.
 */
export async function playInput(input: ReplayInput, args: PlayArgs): Promise<Replayed> {
  const source: ReplaySource = { file: args.file, kind: input.kind, id: 'scenario' in input ? input.scenario.id : undefined };
  switch (input.kind) {
    case 'scenario': {
      const { scenario } = input;
      if (args.at !== undefined && args.at >= scenario.events.length) {
        throw new ReplayError(`--at ${args.at}: the scenario has events 0-${scenario.events.length - 1}`, EXIT_USAGE);
      }
      const gates = { ...scenarioGates(scenario), ...args.gates };
      return { kind: 'Job', run: playJobScenario(scenario, { gates, stopAfterEvent: args.at }), source };
    }
    case 'jsonl': {
      checkLine(args.at, input.lineCount);
      const observations = input.events.filter((event) => event.line <= (args.at ?? Infinity)).map((event) => event.observation);
      // Large files show events/s and ETA on a terminal's stderr (nothing when piped).
      const shown = observations.length >= PROGRESS_FROM_EVENTS ? progress('replay', observations.length) : undefined;
      // Specs are validated, as the service does.
      const config = { gates: { ...JOBFOLD_DEFAULT_GATES, ...args.gates }, validateSpecs: true };
      const run = playJobLog(config, [], observations, shown && ((folded) => shown.update(folded)));
      shown?.end();
      return { kind: 'Job', run, source };
    }
    case 'jobset-scenario':
      if (Object.keys(args.gates).length > 0) {
        throw new ReplayError('--gate sets a Job fold gate; a JobSet scenario holds child Job statuses only', EXIT_USAGE);
      }
      return { kind: 'JobSet', run: replayJobSetScenario(input.scenario, args.at), source };
    case 'jobset-trace': {
      checkLine(args.at, input.lineCount);
      const config = { ...DEFAULT_FOLD_CONFIG, gates: { ...DEFAULT_FOLD_CONFIG.gates, ...args.gates } };
      return { kind: 'JobSet', run: await playJobSetTrace(input.trace, { config, stopAfterLine: args.at }), source };
    }
    default: {
      const exhaustive: never = input;
      throw new Error(`unknown replay input ${JSON.stringify(exhaustive)}`);
    }
  }
}

function checkLine(at: number | undefined, lineCount: number): void {
  if (at !== undefined && (at < 1 || at > lineCount)) {
    throw new ReplayError(`--at ${at}: the file has lines 1-${lineCount}`, EXIT_USAGE);
  }
}
