import type { Decision, JobCommand } from '../../shared/job/index.ts';
import type { JobSetCommand, JobSetDecisionEvent } from '../../shared/jobset/index.ts';

// The log holds decisions, not commands: each command is logged as the decision that issued
// it, and the query API reads the commands back from those decisions (the Job view, the JobSet
// view, the commands list, the history's `command` category). The one table per kind of which
// decision issues which command.

/**
 * A table from decision types to command types that names every command type: a command added
 * to its kind's union without the decision it is logged as fails typecheck here (the table is
 * then asked for a `missing` field naming it).
 */
const everyCommand =
  <DecisionType extends string, Command extends string>() =>
  <const Table extends { readonly [Type in DecisionType]?: Command }>(
    table: Table & ([Exclude<Command, Table[keyof Table]>] extends [never] ? unknown : { readonly missing: Exclude<Command, Table[keyof Table]> }),
  ): Table =>
    table;

/** The decision each Job command is logged as. */
export const JOB_COMMAND_OF_DECISION = everyCommand<Decision['type'], JobCommand['type']>()({
  PodsTerminationRequested: 'TerminatePod',
  PodCreationsRequested: 'CreatePod',
  JobStatusSent: 'UpdateJobStatus',
  PodFinalizersRemovalRequested: 'RemovePodFinalizer',
});

/** The decision each JobSet command is logged as. */
export const JOBSET_COMMAND_OF_DECISION = everyCommand<JobSetDecisionEvent['type'], JobSetCommand['type']>()({
  CreateJobIssued: 'CreateJob',
  DeleteJobIssued: 'DeleteJob',
  SuspendJobIssued: 'SuspendJob',
  ResumeJobIssued: 'ResumeJob',
  JobSetDeletionRequested: 'DeleteJobSet',
});
