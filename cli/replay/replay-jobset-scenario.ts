import { JobSetScenarioError, type JobSetScenario } from '../scenario/jobset-scenario.ts';
import { playJobSetScenario } from '../scenario/play-jobset-scenario.ts';
import type { ChildJobView } from '../../shared/jobset/index.ts';
import { EXIT_BAD_INPUT, EXIT_USAGE, ReplayError } from './replay-error.ts';
import type { ChildJobRow, JobSetReplayRun } from './replay-run.ts';

// `jobfold replay` of a JobSet scenario: the scenario played as the conformance runner plays it
// (cli/scenario/play-jobset-scenario.ts), shown as the replay shows a run.

/** Replays the scenario up to and including event `stopAfterEvent` (0 = the JobSet's creation). */
export function replayJobSetScenario(scenario: JobSetScenario, stopAfterEvent?: number): JobSetReplayRun {
  const last = stopAfterEvent ?? scenario.events.length;
  if (last > scenario.events.length) {
    throw new ReplayError(`--at ${last}: the scenario has events 0-${scenario.events.length}`, EXIT_USAGE);
  }
  let run;
  try {
    run = playJobSetScenario(scenario, last);
  } catch (error) {
    if (error instanceof JobSetScenarioError) throw new ReplayError(error.message, EXIT_BAD_INPUT);
    throw error;
  }
  const { state, log, syncs } = run;
  const childJobs = Object.values(state.children)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(childJobRow);
  const commands = syncs.flatMap(({ at, commands }) => commands.map((command) => ({ at, command, dispatched: undefined })));
  return { clusterId: undefined, state, log, commands, reconciles: syncs.length, childJobs };
}

/** The controller's view of a child Job as a row: what it believes exists, and in which state. */
function childJobRow(job: ChildJobView): ChildJobRow {
  const running = `Running (${job.active} active, ${job.ready} ready)`;
  const status = job.terminating
    ? 'Terminating'
    : job.finished ?? (job.suspend ? 'Suspended' : job.active > 0 || job.ready > 0 ? running : 'Created');
  return {
    name: job.name,
    uid: job.uid,
    replicatedJob: job.replicatedJob,
    jobIndex: job.jobIndex,
    restartAttempt: job.restartAttempt,
    status: job.terminating && job.finished !== undefined ? `${job.finished}, terminating` : status,
    failureReason: job.failure?.reason ?? '',
    why: undefined,
  };
}
