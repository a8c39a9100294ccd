import { printableLines } from '../../shared/k8s/printable.ts';
import { formatExplanation, type Explanation } from '../../shared/job/explain.ts';
import { successRuleText } from '../../shared/job/explain-sentences.ts';
import type { PodFailurePolicyRule } from '../../shared/k8s/job.ts';
import { jobStatus } from '../../shared/job/status.ts';
import { describeCommands } from './describe-commands.ts';
import type { ReplayRun, ReplaySource } from './replay-run.ts';
import { field, formatTable } from './table.ts';

/**
 * The replayed Job as `kubectl describe job` would show it, plus the commands jobfold issued
 * and the explanation of each condition.
 */
export function describeJob(run: ReplayRun, explanation: Explanation, source: ReplaySource): string {
  const { state } = run;
  const identity = state.identity;
  const spec = state.spec;
  const settings = state.settings;
  const status = jobStatus(state);
  const lines: string[] = [];
  const what = source.kind === 'scenario' ? `scenario ${source.id}` : 'JSONL';
  lines.push(
    field('Name', identity?.name ?? '<unknown>'),
    field('Namespace', identity?.namespace ?? '<unknown>'),
    field('Cluster', identity?.clusterId ?? '<unknown>'),
    field('Uid', identity?.uid || '<unknown>'),
    field('Replayed', `${source.file} (${what}): ${run.syncs.length} reconciles, log of ${run.log.length} events`),
  );
  if (settings && spec) {
    lines.push(
      field('Completion Mode', settings.indexed ? 'Indexed' : 'NonIndexed'),
      field('Parallelism', settings.parallelism),
      field('Completions', settings.completions ?? '<unset>'),
      field('Backoff Limit', settings.backoffLimit),
    );
    if (settings.backoffLimitPerIndex !== undefined) lines.push(field('Backoff Limit Per Index', settings.backoffLimitPerIndex));
    if (settings.maxFailedIndexes !== undefined) lines.push(field('Max Failed Indexes', settings.maxFailedIndexes));
    if (settings.activeDeadlineSeconds !== undefined) lines.push(field('Active Deadline Seconds', `${settings.activeDeadlineSeconds}s`));
    if (settings.suspend) lines.push(field('Suspend', 'true'));
    if (settings.managedBy !== undefined) lines.push(field('Managed By', settings.managedBy));
    const success = spec.successPolicy?.rules ?? [];
    if (success.length > 0) lines.push('Success Policy:', ...success.map((rule, i) => `  rule ${i}: ${successRuleText(rule)}`));
    const failure = spec.podFailurePolicy?.rules ?? [];
    if (failure.length > 0) lines.push('Pod Failure Policy:', ...failure.map((rule, i) => `  ${failureRuleText(rule, i)}`));
  }
  if (status.startTime) lines.push(field('Start Time', status.startTime));
  if (status.completionTime) lines.push(field('Completed At', status.completionTime));
  if (status.startTime && status.completionTime) {
    lines.push(field('Duration', formatDuration(Date.parse(status.completionTime) - Date.parse(status.startTime))));
  }
  lines.push(
    field(
      'Pods Statuses',
      `${status.active} Active (${status.ready} Ready) / ${status.succeeded} Succeeded / ${status.failed} Failed / ${status.terminating} Terminating`,
    ),
  );
  if (settings?.indexed) {
    lines.push(field('Completed Indexes', status.completedIndexes || '<none>'));
    lines.push(field('Failed Indexes', status.failedIndexes || '<none>'));
  }
  lines.push(...describeConditions(explanation));
  lines.push(...describeCommands(run.syncs));
  lines.push('Explanation:', formatExplanation(explanation, '  '));
  return printableLines(lines.join('\n'));
}

function describeConditions(explanation: Explanation): string[] {
  if (explanation.conditions.length === 0) return [field('Conditions', '<none>')];
  const rows = explanation.conditions.map((c) => [c.type, c.status, c.reason, c.message]);
  return ['Conditions:', ...formatTable(['Type', 'Status', 'Reason', 'Message'], rows)];
}

/** `rule 0 "ExitCode2": FailJob on exit code of main In [2]`. */
export function failureRuleText(rule: PodFailurePolicyRule, index: number): string {
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
