import type { JobEvent } from '../../shared/job/evolve.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../shared/job/gates.ts';
import type { FoldConfig } from '../../shared/job/state.ts';
import { playJobScenario } from '../scenario/play-job-scenario.ts';
import { loadJobSetReplayInput } from '../replay/jobset-input.ts';
import { loadReplayInput } from '../replay/load-input.ts';
import { playJsonl } from '../replay/play-jsonl.ts';
import { EXIT_BAD_INPUT, ReplayError } from '../replay/replay-error.ts';

/** A Job's record from a FILE: the log `jobfold replay` would build, and its fold settings. */
export interface RecordedFile {
  readonly log: readonly JobEvent[];
  readonly config: FoldConfig;
  readonly title: string;
}

/** Reads FILE as `jobfold replay` does and plays it: that replay is the record. */
export function recordFromFile(file: string): RecordedFile {
  if (loadJobSetReplayInput(file) !== undefined) {
    throw new ReplayError(`${file}: a JobSet input; what-if replays Jobs (a JobSet what-if is not implemented yet)`, EXIT_BAD_INPUT);
  }
  const input = loadReplayInput(file);
  const run = input.kind === 'scenario' ? playJobScenario(input.scenario) : playJsonl(input.events, { gates: JOBFOLD_DEFAULT_GATES });
  const identity = run.state.identity;
  const name = identity ? `${identity.namespace}/${identity.name}` : file;
  return { log: run.log, config: run.state.config, title: `What-if for Job ${name} (${file})` };
}
