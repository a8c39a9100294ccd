import type { Explanation, JobCommand, JobStatusView } from '../../shared/job/index.ts';
import { jobStatus } from '../../shared/job/index.ts';
import { jobSetStatus, type JobSetCommand, type JobSetExplanation, type JobSetStatus } from '../../shared/jobset/index.ts';
import type { ChildJobRow, JobSetReplayRun, ReplayRun, ReplaySource } from './replay-run.ts';

// What `jobfold replay --json` prints, one object per input with stable field names: where it
// came from, the object, its status and conditions, every command issued with the time of the
// reconcile that issued it, the explanation, and the length of the log.

/** A Job's replay report. */
export interface ReplayReport {
  readonly source: ReplaySource;
  readonly job: Explanation['job'];
  readonly status: JobStatusView;
  readonly conditions: JobStatusView['conditions'];
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

/** A command as the JobSet report lists it: CreateJob without its manifest (the template is in the spec). */
export type ReportedJobSetCommand = (
  | Exclude<JobSetCommand, { type: 'CreateJob' }>
  | Omit<Extract<JobSetCommand, { type: 'CreateJob' }>, 'job'>
) & { readonly at: string; readonly dispatched?: boolean };

/** A JobSet's replay report: the Job report's fields, with the child Jobs; `dispatched` for traces. */
export interface JobSetReplayReport {
  readonly source: ReplaySource;
  readonly jobSet: JobSetExplanation['jobSet'];
  readonly status: JobSetStatus;
  readonly conditions: JobSetStatus['conditions'];
  readonly childJobs: readonly ChildJobRow[];
  readonly commands: readonly ReportedJobSetCommand[];
  readonly explanation: JobSetExplanation;
  readonly logLength: number;
}

export function jobSetReplayReport(run: JobSetReplayRun, explanation: JobSetExplanation, source: ReplaySource): JobSetReplayReport {
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
