import type { JobSetCommand } from '../../shared/jobset/commands.ts';
import type { JobSetExplanation } from '../../shared/jobset/explain.ts';
import { jobSetStatus, type JobSetStatus } from '../../shared/jobset/status.ts';
import type { ChildJobRow, JobSetReplayRun, JobSetReplaySource } from './jobset-run.ts';

/** A command as the report lists it: CreateJob without its manifest (the template is in the spec). */
export type ReportedJobSetCommand = (
  | Exclude<JobSetCommand, { type: 'CreateJob' }>
  | Omit<Extract<JobSetCommand, { type: 'CreateJob' }>, 'job'>
) & { readonly at: string; readonly dispatched?: boolean };

/** The `--json` output for a JobSet: one object, stable field names. */
export interface JobSetReplayReport {
  readonly source: JobSetReplaySource;
  readonly jobSet: JobSetExplanation['jobSet'];
  readonly status: JobSetStatus;
  readonly conditions: JobSetStatus['conditions'];
  readonly childJobs: readonly ChildJobRow[];
  /** Every command issued, in order, with the time of the reconcile that issued it. */
  readonly commands: readonly ReportedJobSetCommand[];
  readonly explanation: JobSetExplanation;
  readonly logLength: number;
}

export function jobSetReplayReport(
  run: JobSetReplayRun,
  explanation: JobSetExplanation,
  source: JobSetReplaySource,
): JobSetReplayReport {
  const status = jobSetStatus(run.state);
  const commands = run.commands.map(({ at, command, dispatched }): ReportedJobSetCommand => {
    const sent = dispatched === undefined ? {} : { dispatched };
    if (command.type !== 'CreateJob') return { at, ...command, ...sent };
    const { job: _manifest, ...rest } = command;
    return { at, ...rest, ...sent };
  });
  return {
    source,
    jobSet: explanation.jobSet,
    status,
    conditions: status.conditions,
    childJobs: run.childJobs,
    commands,
    explanation,
    logLength: run.log.length,
  };
}
