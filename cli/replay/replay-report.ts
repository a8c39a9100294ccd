import type { Explanation } from '../../shared/job/explain.ts';
import type { JobCommand } from '../../shared/job/commands.ts';
import { jobStatus, type JobStatusView } from '../../shared/job/status.ts';
import type { ReplayRun, ReplaySource } from './replay-run.ts';

/** The `--json` output: one object, stable field names. */
export interface ReplayReport {
  readonly source: ReplaySource;
  readonly job: Explanation['job'];
  readonly status: JobStatusView;
  readonly conditions: JobStatusView['conditions'];
  /** Every command issued, in order, each with the time of the reconcile that issued it. */
  readonly commands: readonly (JobCommand & { readonly at: string })[];
  readonly explanation: Explanation;
  readonly logLength: number;
}

export function replayReport(run: ReplayRun, explanation: Explanation, source: ReplaySource): ReplayReport {
  const status = jobStatus(run.state);
  return {
    source,
    job: explanation.job,
    status,
    conditions: status.conditions,
    commands: run.syncs.flatMap((sync) => sync.commands.map((command) => ({ at: sync.at, ...command }))),
    explanation,
    logLength: run.log.length,
  };
}
