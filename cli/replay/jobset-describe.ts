import { printableLines } from '../../shared/k8s/printable.ts';
import { formatJobSetExplanation, type JobSetExplanation } from '../../shared/jobset/explain.ts';
import { jobSetStatus } from '../../shared/jobset/status.ts';
import { describeJobSetCommands } from './jobset-describe-commands.ts';
import { describeJobSetSpec } from './jobset-describe-spec.ts';
import type { ChildJobRow, JobSetReplayRun, JobSetReplaySource } from './jobset-run.ts';
import { field, formatTable } from './table.ts';

/**
 * The replayed JobSet as `kubectl describe jobset` would show it — spec, restarts, replicated
 * jobs status, conditions — plus its child Jobs (with why each failed), the commands jobfold
 * issued and the explanation of each condition and decision.
 */
export function describeJobSet(run: JobSetReplayRun, explanation: JobSetExplanation, source: JobSetReplaySource): string {
  const { state } = run;
  const jobSet = state.jobSet;
  const status = jobSetStatus(state);
  const what = source.kind === 'jobset-scenario' ? `JobSet scenario ${source.id}` : 'JobSet trace';
  const lines = [
    field('Name', jobSet?.metadata.name ?? '<unknown>'),
    field('Namespace', jobSet?.metadata.namespace ?? 'default'),
    ...(run.clusterId === undefined ? [] : [field('Cluster', run.clusterId)]),
    field('Uid', jobSet?.metadata.uid ?? '<unknown>'),
    field('Replayed', `${source.file} (${what}): ${run.reconciles} reconciles, JobSet log of ${run.log.length} events`),
  ];
  if (jobSet !== undefined) {
    if (jobSet.spec.managedBy !== undefined) lines.push(field('Managed By', jobSet.spec.managedBy));
    if (jobSet.spec.suspend) lines.push(field('Suspend', 'true'));
    lines.push(...describeJobSetSpec(jobSet.spec));
  }
  const max = jobSet?.spec.failurePolicy?.maxRestarts;
  const counted = `${status.restartsCountTowardsMax} counted towards maxRestarts${max === undefined ? '' : ` ${max}`}`;
  lines.push(field('Restarts', `${status.restarts} (${counted})`));
  lines.push(field('Terminal State', status.terminalState || '<none>'));
  if (status.replicatedJobsStatus.length > 0) {
    const rows = status.replicatedJobsStatus.map((r) => [r.name, ...[r.ready, r.succeeded, r.failed, r.active, r.suspended].map(String)]);
    lines.push('Replicated Jobs Status:', ...formatTable(['Name', 'Ready', 'Succeeded', 'Failed', 'Active', 'Suspended'], rows));
  }
  lines.push(...describeConditions(explanation));
  lines.push(...describeChildJobs(run.childJobs, source));
  lines.push(...describeJobSetCommands(run.commands));
  if (explanation.rejection.length === 0 && run.log.length === 0) lines.push('Explanation:        <nothing replayed>');
  else lines.push('Explanation:', formatJobSetExplanation(explanation, '  '));
  return printableLines(lines.join('\n'));
}

function describeConditions(explanation: JobSetExplanation): string[] {
  if (explanation.conditions.length === 0) return [field('Conditions', '<none>')];
  const rows = explanation.conditions.map((c) => [c.type, c.status, c.reason, c.lastTransitionTime, c.message]);
  return ['Conditions:', ...formatTable(['Type', 'Status', 'Reason', 'Last Transition', 'Message'], rows)];
}

/** Scenario: the Jobs the controller believes exist. Trace: every child Job's own log. */
function describeChildJobs(jobs: readonly ChildJobRow[], source: JobSetReplaySource): string[] {
  const label = source.kind === 'jobset-trace' ? 'Child Jobs (every restart attempt, as their own logs tell):' : 'Child Jobs:';
  if (jobs.length === 0) return [field('Child Jobs', '<none>')];
  const rows = jobs.map((job) => [
    job.name,
    job.replicatedJob ?? '<none>',
    job.jobIndex === undefined ? '-' : String(job.jobIndex),
    job.restartAttempt === undefined ? '-' : String(job.restartAttempt),
    job.status,
    job.failureReason || '-',
  ]);
  const lines = [label, ...formatTable(['Name', 'Replicated Job', 'Index', 'Attempt', 'Status', 'Failure Reason'], rows)];
  const failed = jobs.filter((job) => job.why !== undefined);
  if (failed.length > 0) {
    lines.push("  Why they failed (event #N = position in the Job's log):");
    for (const job of failed) lines.push(`    ${job.name} (attempt ${job.restartAttempt ?? '-'}): ${job.why}`);
  }
  return lines;
}
