import type { z } from 'zod';
import type { JobViewSchema } from '../../functions/query/schemas/job-schemas.ts';
import type { JobSetViewSchema } from '../../functions/query/jobsets/jobset-schemas.ts';
import { formatExplanation, type Explanation } from '../../shared/job/explain.ts';
import { successRuleText } from '../../shared/job/explain-sentences.ts';
import { formatJobSetExplanation, type JobSetExplanation } from '../../shared/jobset/explain.ts';
import { failureRuleText, formatDuration } from '../replay/describe-job.ts';
import { field, formatTable } from '../replay/table.ts';
import { ENDPOINT_HELP, OBJECT_OPTIONS, UsageError, clientFor, kindOf, objectPath, parse } from './client-options.ts';
import { human, machineOutput, parseOutput } from './render.ts';

type JobView = z.output<typeof JobViewSchema>;
type JobSetView = z.output<typeof JobSetViewSchema>;

export const DESCRIBE_HELP = `Usage: jobfold describe job|jobset NAME --cluster C [-n NS] [--uid UID] [-o json|yaml]

The Job or JobSet as \`kubectl describe\` shows it, from the service: spec, status, conditions,
the commands jobfold issued and the explanation of each condition (what \`jobfold replay\`
prints for a file). On a long log the commands are those of its last 5,000 entries, and it says
so: \`jobfold commands\` lists every one.

Options:
  --cluster C           the cluster it ran in (required)
  -n, --namespace NS    its namespace (default "default")
  --uid UID             that object, when the name was reused (default: the newest)
  -o FORMAT             json or yaml: the API's view and explanation as one object
${ENDPOINT_HELP}
  -h, --help            this help`;

export async function describeCommand(argv: readonly string[]): Promise<string> {
  const { values, positionals } = parse(argv, OBJECT_OPTIONS);
  if (values.help) return `${DESCRIBE_HELP}\n`;
  if (positionals.length > 2) throw new UsageError(`one object at a time: ${positionals.slice(2).join(' ')}`);
  const kind = kindOf(positionals[0], ['job', 'jobset']);
  const path = objectPath(kind, positionals[1], values.cluster, values.namespace);
  const format = parseOutput(values.output, ['table', 'json', 'yaml']);
  const client = clientFor(values.endpoint);
  const query = { uid: values.uid };
  const [view, explanation] = await Promise.all([client.get<unknown>(path, query), client.get<unknown>(`${path}/explain`, query)]);
  if (format === 'json' || format === 'yaml') return machineOutput({ view, explanation }, format);
  return kind === 'job'
    ? describeJobView(view as JobView, explanation as Explanation)
    : describeJobSetView(view as JobSetView, explanation as JobSetExplanation);
}

export function describeJobView(view: JobView, explanation: Explanation): string {
  const { job, spec, status } = view;
  const lines = [
    field('Name', job.name), field('Namespace', job.namespace), field('Cluster', job.clusterId), field('Uid', job.uid),
    field('Log', `${view.log.head} entries${view.log.lastRecordedAt ? `, last recorded ${view.log.lastRecordedAt}` : ''}${view.deleted ? ' (deleted in the cluster)' : ''}`),
  ];
  if (spec) {
    lines.push(field('Completion Mode', spec.completionMode), field('Parallelism', spec.parallelism),
      field('Completions', spec.completions ?? '<unset>'), field('Backoff Limit', spec.backoffLimit));
    if (spec.backoffLimitPerIndex !== null) lines.push(field('Backoff Limit Per Index', spec.backoffLimitPerIndex));
    if (spec.maxFailedIndexes !== null) lines.push(field('Max Failed Indexes', spec.maxFailedIndexes));
    if (spec.activeDeadlineSeconds !== null) lines.push(field('Active Deadline Seconds', `${spec.activeDeadlineSeconds}s`));
    if (spec.suspend) lines.push(field('Suspend', 'true'));
    if (spec.managedBy !== null) lines.push(field('Managed By', spec.managedBy));
    const success = spec.successPolicy?.rules ?? [];
    if (success.length > 0) lines.push('Success Policy:', ...success.map((rule, i) => `  rule ${i}: ${successRuleText(rule as never)}`));
    const failure = spec.podFailurePolicy?.rules ?? [];
    if (failure.length > 0) lines.push('Pod Failure Policy:', ...failure.map((rule, i) => `  ${failureRuleText(rule as never, i)}`));
  }
  if (status.startTime) lines.push(field('Start Time', status.startTime));
  if (status.completionTime) lines.push(field('Completed At', status.completionTime));
  if (status.startTime && status.completionTime) lines.push(field('Duration', formatDuration(Date.parse(status.completionTime) - Date.parse(status.startTime))));
  lines.push(field('Pods Statuses', `${status.active} Active (${status.ready} Ready) / ${status.succeeded} Succeeded / ${status.failed} Failed / ${status.terminating} Terminating`));
  if (spec?.completionMode === 'Indexed') {
    lines.push(field('Completed Indexes', status.completedIndexes || '<none>'), field('Failed Indexes', status.failedIndexes || '<none>'));
  }
  const conditions = explanation.conditions.map((c) => [c.type, c.status, c.reason, c.message]);
  lines.push(...(conditions.length === 0 ? [field('Conditions', '<none>')] : ['Conditions:', ...formatTable(['Type', 'Status', 'Reason', 'Message'], conditions)]));
  const commands = view.commands.map((c) => [String(c.seq), c.type, delivery(c), commandDetail(c)]);
  lines.push(...(commands.length === 0 ? [field('Commands', '<none>')] : ['Commands:', ...formatTable(['Seq', 'Type', 'Delivery', 'Detail'], commands)]));
  if (view.commandsFrom > 1) lines.push(earlierCommands('job', view.job, view.commandsFrom));
  if (view.stalled) lines.push(field('Stalled', `${view.stalled.error} (since ${view.stalled.since})`));
  if (view.refusedUpdate) {
    lines.push(`Refused Update: ${view.refusedUpdate.eventId} (observed ${view.refusedUpdate.observedAt}); the Job folds under its last valid spec`);
    lines.push(...view.refusedUpdate.errors.map((e) => `  ${e.message.startsWith(e.field) ? '' : `${e.field}: `}${e.message} (${e.type})`));
  }
  lines.push('Explanation:', formatExplanation(explanation, '  '));
  return `${human(lines.join('\n'))}\n`;
}

/** Where the commands decided before the view's window are: the listed ones start at `from`. */
function earlierCommands(kind: 'job' | 'jobset', object: { clusterId: string; namespace: string; name: string; uid: string }, from: number): string {
  return `  (only those decided at log position #${from} or later are shown; for every command: `
    + `jobfold commands ${kind} ${object.name} --cluster ${object.clusterId} -n ${object.namespace} --uid ${object.uid})`;
}

/**
 * How far a command got, as far as the service knows: computed only, queued (in the outbox; no
 * acknowledgement comes back), and for pod commands the pods the cluster later reported
 * deleting or created with the command's id.
 */
function delivery(command: JobView['commands'][number]): string {
  if (!command.dispatched) return 'computed only';
  if (command.type === 'UpdateJobStatus') return 'queued';
  const { count, of, lastSeq } = command.observed;
  const what = { TerminatePod: 'deleting', CreatePod: 'created', RemovePodFinalizer: 'without the finalizer' }[command.type];
  return count === 0 ? `queued, none seen ${what}` : `queued, ${count}/${of} seen ${what}${lastSeq === undefined ? '' : ` (#${lastSeq})`}`;
}

function commandDetail(command: JobView['commands'][number]): string {
  switch (command.type) {
    case 'TerminatePod': return `${command.reason}: ${podNames(command.pods)}`;
    case 'CreatePod': return `${command.count} pod${command.count === 1 ? '' : 's'}${command.indexes ? ` (indexes ${command.indexes.join(',')})` : ''}`;
    case 'UpdateJobStatus': return `status ${command.hash.slice(0, 12)}`;
    case 'RemovePodFinalizer': return `remove ${command.pods.length === 1 ? 'the tracking finalizer' : 'tracking finalizers'}: ${podNames(command.pods)}`;
  }
}

/** Pod names listed per command before "… N more", as `jobfold replay` lists them (`jobfold commands` lists each). */
const MAX_NAMES = 12;

function podNames(pods: readonly { name: string }[]): string {
  const more = pods.length > MAX_NAMES ? `, … ${pods.length - MAX_NAMES} more` : '';
  return `${pods.slice(0, MAX_NAMES).map((p) => p.name).join(', ')}${more}`;
}

export function describeJobSetView(view: JobSetView, explanation: JobSetExplanation): string {
  const { jobSet, spec, status } = view;
  const lines = [
    field('Name', jobSet.name), field('Namespace', jobSet.namespace), field('Cluster', jobSet.clusterId), field('Uid', jobSet.uid),
    field('Log', `${view.log.head} entries${view.deleted ? ' (deleted in the cluster)' : ''}`),
  ];
  if (spec) {
    const rows = spec.replicatedJobs.map((r) => [r.name, r.groupName, String(r.replicas), String(r.parallelism), String(r.completions ?? '<unset>')]);
    lines.push('Replicated Jobs:', ...formatTable(['Name', 'Group', 'Replicas', 'Parallelism', 'Completions'], rows));
    lines.push(field('Success Policy', `${spec.successPolicy.operator} of ${spec.successPolicy.targetReplicatedJobs.join(', ') || 'every replicated Job'}`));
    lines.push(field('Startup Policy', spec.startupPolicy.startupPolicyOrder));
    if (spec.failurePolicy) lines.push(field('Failure Policy', `maxRestarts ${spec.failurePolicy.maxRestarts}, ${spec.failurePolicy.restartStrategy}, ${spec.failurePolicy.rules.length} rules`));
  }
  lines.push(field('Restarts', `${status.restarts} (${status.restartsCountTowardsMax} counted towards maxRestarts)`));
  lines.push(field('Terminal State', status.terminalState || '<none>'));
  if (status.replicatedJobsStatus.length > 0) {
    const rows = status.replicatedJobsStatus.map((r) => [r.name, ...[r.ready, r.succeeded, r.failed, r.active, r.suspended].map(String)]);
    lines.push('Replicated Jobs Status:', ...formatTable(['Name', 'Ready', 'Succeeded', 'Failed', 'Active', 'Suspended'], rows));
  }
  const conditions = explanation.conditions.map((c) => [c.type, c.status, c.reason, c.lastTransitionTime, c.message]);
  lines.push(...(conditions.length === 0 ? [field('Conditions', '<none>')] : ['Conditions:', ...formatTable(['Type', 'Status', 'Reason', 'Last Transition', 'Message'], conditions)]));
  const children = view.childJobs.map((j) => [j.name, j.replicatedJob ?? '<none>', j.jobIndex === undefined ? '-' : String(j.jobIndex), j.restartAttempt === undefined ? '-' : String(j.restartAttempt)]);
  lines.push(...(children.length === 0 ? [field('Child Jobs', '<none>')] : ['Child Jobs:', ...formatTable(['Name', 'Replicated Job', 'Index', 'Attempt'], children)]));
  const commands = view.commands.map((c) => [String(c.seq), c.type, c.name]);
  lines.push(...(commands.length === 0 ? [field('Commands', '<none>')] : ['Commands:', ...formatTable(['Seq', 'Type', 'Job'], commands)]));
  if (view.commandsFrom > 1) lines.push(earlierCommands('jobset', view.jobSet, view.commandsFrom));
  lines.push('Explanation:', formatJobSetExplanation(explanation, '  '));
  return `${human(lines.join('\n'))}\n`;
}
