import type { JobEvent } from '../../shared/job/index.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../shared/job/index.ts';
import { DEFAULT_FOLD_CONFIG, type FoldConfig } from '../../shared/job/index.ts';
import type { JobSetLogEntry } from '../../shared/whatif/index.ts';
import { playJobScenario } from '../scenario/play-job-scenario.ts';
import { loadJobSetReplayInput } from '../replay/jobset-input.ts';
import { playJobSetTrace } from '../replay/jobset-play-trace.ts';
import { replayJobSetScenario } from '../replay/jobset-scenario.ts';
import { loadReplayInput } from '../replay/load-input.ts';
import { playJsonl } from '../replay/play-jsonl.ts';

/** A record from a FILE: the log `jobfold replay` would build (a Job's or a JobSet's). */
export type RecordedFile =
  | { readonly kind: 'Job'; readonly log: readonly JobEvent[]; readonly config: FoldConfig; readonly title: string }
  | { readonly kind: 'JobSet'; readonly log: readonly JobSetLogEntry[]; readonly title: string };

/**
 * Reads FILE as `jobfold replay` does and plays it: that replay is the record. A JobSet trace
 * is played through the service on the in-memory store, as `jobfold replay` plays it, so its
 * log holds the child Jobs' statuses as jobfold computed them.
 */
export async function recordFromFile(file: string): Promise<RecordedFile> {
  const jobSet = loadJobSetReplayInput(file);
  if (jobSet !== undefined) {
    const run = jobSet.kind === 'jobset-scenario'
      ? replayJobSetScenario(jobSet.scenario)
      : await playJobSetTrace(jobSet.trace, { config: DEFAULT_FOLD_CONFIG });
    const meta = run.state.jobSet?.metadata;
    const name = meta?.name ? `${meta.namespace ?? 'default'}/${meta.name}` : file;
    return { kind: 'JobSet', log: run.log, title: `What-if for JobSet ${name} (${file})` };
  }
  const input = loadReplayInput(file);
  const run = input.kind === 'scenario' ? playJobScenario(input.scenario) : playJsonl(input.events, { gates: JOBFOLD_DEFAULT_GATES });
  const identity = run.state.identity;
  const name = identity ? `${identity.namespace}/${identity.name}` : file;
  return { kind: 'Job', log: run.log, config: run.state.config, title: `What-if for Job ${name} (${file})` };
}
