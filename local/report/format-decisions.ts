import type { DeliveredEntry } from '../bus/bus-rules.ts';
import type { JobDecisions } from './job-decisions.ts';

/**
 * The decisions as a newcomer reads them: per Job (cluster/namespace/name), its conditions with
 * reason and message, the pod counts, and the commands its cluster received, grouped.
 */
export function formatDecisions(jobs: readonly JobDecisions[]): string {
  const clusters = new Set(jobs.map((j) => j.clusterId));
  const lines = [`Decided: ${plural(jobs.length, 'Job')} in ${plural(clusters.size, 'cluster')}`];
  for (const job of jobs) {
    const { status } = job;
    const finished = status.conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
    const outcome = finished ? `${finished.type} (${finished.reason})` : status.conditions.at(-1)?.type ?? 'running';
    lines.push('', `${job.clusterId}/${job.namespace}/${job.name}  →  ${outcome}`);
    const counts = `active ${status.active}, succeeded ${status.succeeded}, failed ${status.failed}, terminating ${status.terminating}`;
    const indexes = [
      status.completedIndexes ? `completedIndexes "${status.completedIndexes}"` : '',
      status.failedIndexes ? `failedIndexes "${status.failedIndexes}"` : '',
    ].filter(Boolean).join(', ');
    lines.push(`  pods: ${counts}${indexes ? `; ${indexes}` : ''}`);
    for (const c of status.conditions) {
      lines.push(`  ${c.type.padEnd(18)} ${c.status.padEnd(5)} ${c.reason.padEnd(26)} ${c.message}`);
    }
    lines.push(...formatCommands(job.commands));
  }
  return lines.join('\n');
}

/** Commands grouped by type and reason: `Pod Termination Requested ×3 (JobFinishing, SuccessPolicy): a, b, c`. */
export function formatCommands(commands: readonly DeliveredEntry[]): string[] {
  if (commands.length === 0) return ['  commands: none'];
  const groups = new Map<string, string[]>();
  for (const command of commands) {
    const { cause, reason, podName, index } = command.detail as Record<string, unknown>;
    const why = [cause, reason].filter((s) => typeof s === 'string' && s !== '').join(', ');
    const key = `${command.detailType}${why ? ` (${why})` : ''}`;
    const target = typeof podName === 'string' ? podName : typeof index === 'number' ? `index ${index}` : '';
    groups.set(key, [...(groups.get(key) ?? []), target]);
  }
  return [...groups].map(([key, targets]) => {
    const names = targets.filter(Boolean);
    return `  command: ${key} ×${targets.length}${names.length > 0 ? `: ${names.join(', ')}` : ''}`;
  });
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
