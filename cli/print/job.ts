import type { IssuedCommand } from '../../functions/query/issued-commands.ts';
import type { JobView } from '../../functions/query/views.ts';
import { IndexSet } from '../../shared/indexes/index-set.ts';
import { successRuleText, type Explanation, type JobCommand, type JobStatusView } from '../../shared/job/index.ts';
import type { PodFailurePolicyRule } from '../../shared/k8s/job.ts';
import type { ReplaySync } from '../replay/replay-run.ts';
import { field, line, lines, section, table, type Block } from './text.ts';

/**
 * A Job as `jobfold describe` and `jobfold replay` show it: the view the API serves (or a replay
 * builds the same way), where it comes from, the commands issued and the explanation.
 */
export interface JobDescription {
  readonly kind: 'Job';
  readonly view: Pick<JobView, 'job' | 'spec' | 'refusedUpdate' | 'stalled'> & { readonly status: JobStatusView };
  /** Where the description comes from: `Replayed: FILE (…)`, or `Log: N entries, …`. */
  readonly origin: readonly [label: string, text: string];
  readonly commands: JobCommands;
  readonly explanation: Explanation;
}

/**
 * The commands as their source knows them: a replay's per reconcile (what was computed, at what
 * time), or the log's per decision (with how far each got: `…/commands`, the Job view).
 */
export type JobCommands =
  | { readonly from: 'replay'; readonly syncs: readonly ReplaySync[] }
  | { readonly from: 'log'; readonly commands: readonly IssuedCommand[]; readonly commandsFrom: number };

/** `kubectl describe job`'s body, plus what jobfold knows: commands, refused updates (the frame: print/index.ts). */
export function jobDescription(description: JobDescription): Block[] {
  const { view, explanation } = description;
  const { job, spec, status } = view;
  const blocks: Block[] = [];
  if (spec) {
    blocks.push(
      field('Completion Mode', spec.completionMode), field('Parallelism', spec.parallelism),
      field('Completions', spec.completions ?? '<unset>'), field('Backoff Limit', spec.backoffLimit),
    );
    if (spec.backoffLimitPerIndex !== null) blocks.push(field('Backoff Limit Per Index', spec.backoffLimitPerIndex));
    if (spec.maxFailedIndexes !== null) blocks.push(field('Max Failed Indexes', spec.maxFailedIndexes));
    if (spec.activeDeadlineSeconds !== null) blocks.push(field('Active Deadline Seconds', `${spec.activeDeadlineSeconds}s`));
    if (spec.suspend) blocks.push(field('Suspend', 'true'));
    if (spec.managedBy !== null) blocks.push(field('Managed By', spec.managedBy));
    const success = spec.successPolicy?.rules ?? [];
    if (success.length > 0) blocks.push(section('Success Policy', lines(success.map((rule, i) => `rule ${i}: ${successRuleText(rule)}`))));
    const failure = spec.podFailurePolicy?.rules ?? [];
    if (failure.length > 0) blocks.push(section('Pod Failure Policy', lines(failure.map(podFailureRuleText))));
  }
  if (status.startTime) blocks.push(field('Start Time', status.startTime));
  if (status.completionTime) blocks.push(field('Completed At', status.completionTime));
  if (status.startTime && status.completionTime) {
    blocks.push(field('Duration', formatDuration(Date.parse(status.completionTime) - Date.parse(status.startTime))));
  }
  blocks.push(field('Pods Statuses', `${status.active} Active (${status.ready} Ready) / ${status.succeeded} Succeeded / ${status.failed} Failed / ${status.terminating} Terminating`));
  if (spec?.completionMode === 'Indexed') {
    blocks.push(field('Completed Indexes', status.completedIndexes || '<none>'), field('Failed Indexes', status.failedIndexes || '<none>'));
  }
  blocks.push(table('Conditions', ['Type', 'Status', 'Reason', 'Message'], explanation.conditions.map((c) => [c.type, c.status, c.reason, c.message])));
  blocks.push(...commandBlocks(description.commands, job));
  if (view.stalled) blocks.push(field('Stalled', `${view.stalled.error} (since ${view.stalled.since})`));
  if (view.refusedUpdate) {
    const { eventId, observedAt, errors } = view.refusedUpdate;
    blocks.push(
      line(`Refused Update: ${eventId} (observed ${observedAt}); the Job folds under its last valid spec`),
      ...errors.map((e) => line(`  ${e.message.startsWith(e.field) ? '' : `${e.field}: `}${e.message} (${e.type})`)),
    );
  }
  return blocks;
}

function commandBlocks(commands: JobCommands, job: JobDescription['view']['job']): Block[] {
  if (commands.from === 'replay') return [table('Commands', ['At', 'Command', 'Count', 'Details'], computedRows(commands.syncs))];
  const rows = commands.commands.map((c) => [String(c.seq), c.type, delivery(c), loggedDetail(c)]);
  const blocks = [table('Commands', ['Seq', 'Type', 'Delivery', 'Detail'], rows)];
  if (commands.commandsFrom > 1) blocks.push(earlierCommands('job', job, commands.commandsFrom));
  return blocks;
}

/** Where the commands decided before the view's window are: the listed ones start at `from`. */
export function earlierCommands(kind: 'job' | 'jobset', object: { clusterId: string; namespace: string; name: string; uid: string }, from: number): Block {
  return line(`  (only those decided at log position #${from} or later are shown; for every command: `
    + `jobfold commands ${kind} ${object.name} --cluster ${object.clusterId} -n ${object.namespace} --uid ${object.uid})`);
}

/** Pod names listed per row before "… N more" (`jobfold commands` lists each). */
const MAX_NAMES = 12;

function podNames(names: readonly string[]): string {
  const more = names.length > MAX_NAMES ? `, … ${names.length - MAX_NAMES} more` : '';
  return `${names.slice(0, MAX_NAMES).join(', ')}${more}`;
}

/**
 * A replay's commands, one row per reconcile and kind (and, for TerminatePod, cause and reason):
 * `2026-01-01T00:05:00Z  TerminatePod  9  JobFinishing (SuccessPolicy): mypod-1, …`.
 */
function computedRows(syncs: readonly ReplaySync[]): string[][] {
  const rows: string[][] = [];
  for (const sync of syncs) {
    const groups = new Map<string, JobCommand[]>();
    for (const command of sync.commands) {
      const key = command.type === 'TerminatePod' ? `${command.type}/${command.cause}/${command.reason}` : command.type;
      groups.set(key, [...(groups.get(key) ?? []), command]);
    }
    for (const commands of groups.values()) {
      const first = commands[0] as JobCommand;
      rows.push([sync.at, first.type, String(commands.length), computedDetail(first, commands)]);
    }
  }
  return rows;
}

function computedDetail(first: JobCommand, commands: readonly JobCommand[]): string {
  switch (first.type) {
    case 'CreatePod': {
      const indexes = commands.flatMap((c) => (c.type === 'CreatePod' && c.index !== undefined ? [c.index] : []));
      return indexes.length === 0 ? 'NonIndexed' : `indexes ${IndexSet.of(...indexes).toString()}`;
    }
    case 'TerminatePod': {
      const names = commands.flatMap((c) => (c.type === 'TerminatePod' ? [c.podName] : []));
      const why = first.reason === '' ? first.cause : `${first.cause} (${first.reason})`;
      return `${why}: ${podNames(names)}`;
    }
    case 'RemovePodFinalizer':
      return podNames(commands.flatMap((c) => (c.type === 'RemovePodFinalizer' ? [c.podName] : [])));
    case 'UpdateJobStatus': {
      const { status } = first;
      const conditions = status.conditions.map((c) => c.type).join(',') || 'none';
      return `active ${status.active}, succeeded ${status.succeeded}, failed ${status.failed}, conditions ${conditions}`;
    }
    default: {
      const exhaustive: never = first;
      return String(exhaustive);
    }
  }
}

/**
 * How far a logged command got, as far as the service knows: computed only, queued (in the
 * outbox; no acknowledgement comes back), and for pod commands the pods the cluster later
 * reported deleting or created with the command's id.
 */
function delivery(command: IssuedCommand): string {
  if (!command.dispatched) return 'computed only';
  if (command.type === 'UpdateJobStatus') return 'queued';
  const { count, of, lastSeq } = command.observed;
  const what = { TerminatePod: 'deleting', CreatePod: 'created', RemovePodFinalizer: 'without the finalizer' }[command.type];
  return count === 0 ? `queued, none seen ${what}` : `queued, ${count}/${of} seen ${what}${lastSeq === undefined ? '' : ` (#${lastSeq})`}`;
}

function loggedDetail(command: IssuedCommand): string {
  switch (command.type) {
    case 'TerminatePod':
      return `${command.reason}: ${podNames(command.pods.map((p) => p.name))}`;
    case 'CreatePod':
      return `${command.count} pod${command.count === 1 ? '' : 's'}${command.indexes ? ` (indexes ${command.indexes.join(',')})` : ''}`;
    case 'UpdateJobStatus':
      return `status ${command.hash.slice(0, 12)}`;
    case 'RemovePodFinalizer':
      return `remove ${command.pods.length === 1 ? 'the tracking finalizer' : 'tracking finalizers'}: ${podNames(command.pods.map((p) => p.name))}`;
  }
}

/** `rule 0 "ExitCode2": FailJob on exit code of main In [2]`: a Job's, or a JobSet template's. */
export function podFailureRuleText(rule: PodFailurePolicyRule, index: number): string {
  const name = rule.name === undefined ? '' : ` "${rule.name}"`;
  const action = rule.action ?? '<no action>';
  const exit = rule.onExitCodes;
  const on = exit
    ? `exit code of ${exit.containerName ?? 'any container'} ${exit.operator ?? ''} [${exit.values.join(',')}]`
    : `pod condition ${(rule.onPodConditions ?? []).map((c) => `${c.type}=${c.status ?? 'True'}`).join(' or ')}`;
  return `rule ${index}${name}: ${action} on ${on}`;
}

/** Go-style short duration: 5m35s, 1h2m, 42s. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s > 0 ? `${s}s` : ''}`;
  return m > 0 ? `${m}m${s}s` : `${s}s`;
}
