import type { JobSetCommandView, JobSetSpecView, JobSetView } from '../../functions/query/views.ts';
import type { JobSetExplanation, JobSetStatus } from '../../shared/jobset/index.ts';
import type { ConditionFields } from '../../shared/read-model/explanation.ts';
import type { IssuedJobSetCommand } from '../replay/replay-run.ts';
import { earlierCommands, podFailureRuleText } from './job.ts';
import { field, lines, section, table, type Block } from './text.ts';

/**
 * A JobSet as `jobfold describe` and `jobfold replay` show it: the view the API serves (or a
 * replay builds the same way), where it comes from, its child Jobs, the commands issued and the
 * explanation.
 */
export interface JobSetDescription {
  readonly kind: 'JobSet';
  /** The cluster is unknown for a JobSet scenario (the JobSet fold alone). */
  readonly jobSet: Omit<JobSetView['jobSet'], 'clusterId'> & { readonly clusterId: string | undefined };
  /** Where the description comes from: `Replayed: FILE (…)`, or `Log: N entries, …`. */
  readonly origin: readonly [label: string, text: string];
  readonly spec: JobSetSpecView | null;
  readonly status: Pick<JobSetStatus, 'restarts' | 'restartsCountTowardsMax' | 'replicatedJobsStatus'> & {
    readonly terminalState: string;
    readonly conditions: readonly ConditionFields[];
  };
  readonly childJobs: ChildJobs;
  readonly commands: JobSetCommands;
  /** Undefined when nothing was replayed. */
  readonly explanation: JobSetExplanation | undefined;
}

/** A child Job; a trace's replay knows its status and why it failed (its own log's explanation). */
export interface ChildJobLine {
  readonly name: string;
  readonly replicatedJob?: string | undefined;
  readonly jobIndex?: number | undefined;
  readonly restartAttempt?: number | undefined;
  readonly status?: string;
  readonly failureReason?: string;
  readonly why?: string | undefined;
}

export interface ChildJobs {
  /** `Child Jobs`, or what the list covers (`… (every restart attempt, as their own logs tell)`). */
  readonly title: string;
  readonly jobs: readonly ChildJobLine[];
}

/** A replay's commands (a trace's say whether they left jobfold), or the log's from `commandsFrom` on. */
export type JobSetCommands =
  | { readonly from: 'replay'; readonly issued: readonly IssuedJobSetCommand[] }
  | { readonly from: 'log'; readonly commands: readonly JobSetCommandView[]; readonly commandsFrom: number };

/** `kubectl describe jobset`'s body, plus the child Jobs and the commands jobfold issued (the frame: print/index.ts). */
export function jobSetDescription(description: JobSetDescription): Block[] {
  const { jobSet, spec, status } = description;
  const blocks: Block[] = [];
  if (spec !== null) blocks.push(...specBlocks(spec));
  const max = spec?.failurePolicy?.maxRestarts;
  const counted = `${status.restartsCountTowardsMax} counted towards maxRestarts${max === undefined ? '' : ` ${max}`}`;
  blocks.push(field('Restarts', `${status.restarts} (${counted})`), field('Terminal State', status.terminalState || '<none>'));
  if (status.replicatedJobsStatus.length > 0) {
    const rows = status.replicatedJobsStatus.map((r) => [r.name, ...[r.ready, r.succeeded, r.failed, r.active, r.suspended].map(String)]);
    blocks.push(table('Replicated Jobs Status', ['Name', 'Ready', 'Succeeded', 'Failed', 'Active', 'Suspended'], rows));
  }
  const conditions = status.conditions.map((c) => [c.type, c.status, c.reason, c.lastTransitionTime, c.message]);
  blocks.push(table('Conditions', ['Type', 'Status', 'Reason', 'Last Transition', 'Message'], conditions));
  blocks.push(childJobBlock(description.childJobs), ...commandBlocks(description.commands, jobSet));
  return blocks;
}

/**
 * The spec as `kubectl describe jobset` would summarise it: replicated jobs (with each
 * template's pod failure policy, whose rule names make the Job failure reasons), and the
 * startup, failure and success policies after admission defaulting.
 */
function specBlocks(spec: JobSetSpecView): Block[] {
  const replicated = spec.replicatedJobs.flatMap((rjob) => {
    const counts = [`parallelism ${rjob.parallelism}`, `completions ${rjob.completions ?? '<unset>'}`, rjob.completionMode, `backoffLimit ${rjob.backoffLimit}`];
    const rules = (rjob.podFailurePolicy?.rules ?? []).map((rule, index) => `  pod failure policy ${podFailureRuleText(rule, index)}`);
    const dependsOn = rjob.dependsOn.length === 0 ? [] : [`  depends on ${rjob.dependsOn.map((d) => `${d.name} ${d.status}`).join(', ')}`];
    return [`${rjob.name}: ${rjob.replicas} replicas (group ${rjob.groupName}), ${counts.join(', ')}`, ...dependsOn, ...rules];
  });
  const blocks: Block[] = [];
  if (spec.managedBy !== null) blocks.push(field('Managed By', spec.managedBy));
  if (spec.suspend) blocks.push(field('Suspend', 'true'));
  blocks.push(section('Replicated Jobs', lines(replicated)), field('Startup Policy', spec.startupPolicy.startupPolicyOrder));
  const policy = spec.failurePolicy;
  if (policy === null) {
    blocks.push(field('Failure Policy', '<none> (the first Job failure fails the JobSet)'));
  } else {
    blocks.push(field('Failure Policy', `maxRestarts ${policy.maxRestarts}, restartStrategy ${policy.restartStrategy}`));
    blocks.push(...lines(policy.rules.map((rule, index) => `  ${failurePolicyRuleText(rule, index)}`)));
  }
  const { operator, targetReplicatedJobs: targets } = spec.successPolicy;
  const over = targets.length > 0 ? `[${targets.join(', ')}]` : `[${spec.replicatedJobs.map((r) => r.name).join(', ')}] (all replicated jobs)`;
  blocks.push(field('Success Policy', `${operator} over ${over}`));
  const { coordinator, ttlSecondsAfterFinished: ttl } = spec;
  if (coordinator !== null) blocks.push(field('Coordinator', `${coordinator.replicatedJob} job index ${coordinator.jobIndex}, pod index ${coordinator.podIndex}`));
  if (ttl !== null) blocks.push(field('TTL', `ttlSecondsAfterFinished ${ttl} (deleted ${ttl}s after it finishes)`));
  return blocks;
}

type FailurePolicyRuleView = NonNullable<JobSetSpecView['failurePolicy']>['rules'][number];

/** `rule 1 "failurePolicyRule1": RestartJobSet on reasons [PodFailurePolicy_ExitCode3] in [simulations]`. */
function failurePolicyRuleText(rule: FailurePolicyRuleView, index: number): string {
  const on: string[] = [];
  if (rule.onJobFailureReasons.length > 0) on.push(`reasons [${rule.onJobFailureReasons.join(', ')}]`);
  if (rule.onJobFailureMessagePatterns.length > 0) on.push(`messages matching [${rule.onJobFailureMessagePatterns.join(', ')}]`);
  const when = on.length === 0 ? 'any Job failure' : on.join(' and ');
  const where = rule.targetReplicatedJobs.length === 0 ? '' : ` in [${rule.targetReplicatedJobs.join(', ')}]`;
  return `rule ${index} "${rule.name}": ${rule.action} on ${when}${where}`;
}

/** The child Jobs; their status and failure reason when known, and why each failed one failed. */
function childJobBlock({ title, jobs }: ChildJobs): Block {
  if (jobs.length === 0) return field('Child Jobs', '<none>');
  const withStatus = jobs.some((job) => job.status !== undefined);
  const rows = jobs.map((job) => [
    job.name,
    job.replicatedJob ?? '<none>',
    job.jobIndex === undefined ? '-' : String(job.jobIndex),
    job.restartAttempt === undefined ? '-' : String(job.restartAttempt),
    ...(withStatus ? [job.status ?? '-', job.failureReason || '-'] : []),
  ]);
  const header = ['Name', 'Replicated Job', 'Index', 'Attempt', ...(withStatus ? ['Status', 'Failure Reason'] : [])];
  const failed = jobs.filter((job) => job.why !== undefined);
  const why = failed.map((job) => `${job.name} (attempt ${job.restartAttempt ?? '-'}): ${job.why}`);
  return section(title, [
    table(undefined, header, rows),
    ...(why.length === 0 ? [] : [section("Why they failed (event #N = position in the Job's log)", lines(why))]),
  ]);
}

function commandBlocks(commands: JobSetCommands, jobSet: JobSetDescription['jobSet']): Block[] {
  if (commands.from === 'replay') return [computedCommands(commands.issued)];
  const blocks = [table('Commands', ['Seq', 'Type', 'Job'], commands.commands.map((c) => [String(c.seq), c.type, c.name]))];
  if (commands.commandsFrom > 1) blocks.push(earlierCommands('jobset', { ...jobSet, clusterId: jobSet.clusterId ?? '' }, commands.commandsFrom));
  return blocks;
}

/**
 * A replay's commands, one row per reconcile time and kind:
 * `2026-01-01T00:02:00Z  DeleteJob  4  yes  x-0, x-1, x-2, x-3`. For a trace, `Sent` says whether
 * the command left jobfold (see shared/contract/outbound.ts) or was only logged.
 */
function computedCommands(commands: readonly IssuedJobSetCommand[]): Block {
  const withSent = commands.some((issued) => issued.dispatched !== undefined);
  const groups = new Map<string, IssuedJobSetCommand[]>();
  for (const issued of commands) {
    const { command } = issued;
    const attempt = command.type === 'CreateJob' ? `/${command.restartAttempt}` : '';
    const key = `${issued.at}/${command.type}${attempt}/${issued.dispatched}`;
    groups.set(key, [...(groups.get(key) ?? []), issued]);
  }
  const rows = [...groups.values()].map((group) => {
    const first = group[0] as IssuedJobSetCommand;
    const { command } = first;
    const names = group.map((issued) => issued.command.name).join(', ');
    const details = command.type === 'CreateJob' ? `restart attempt ${command.restartAttempt}: ${names}` : names;
    const sent = first.dispatched === undefined ? [] : [first.dispatched ? 'yes' : 'no (logged only)'];
    return [first.at, command.type, String(group.length), ...sent, details];
  });
  return table('Commands', ['At', 'Command', 'Count', ...(withSent ? ['Sent'] : []), 'Jobs'], rows);
}
