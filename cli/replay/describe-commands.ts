import type { JobCommand } from '../../shared/job/commands.ts';
import { IndexSet } from '../../shared/indexes/index-set.ts';
import type { ReplaySync } from './replay-run.ts';
import { formatTable } from './table.ts';

/** Pod names listed per row before "… N more". */
const MAX_NAMES = 12;

/**
 * The commands jobfold issued, one row per sync and kind (and, for TerminatePod, cause and
 * reason): `2026-01-01T00:05:00Z  TerminatePod  9  JobFinishing (SuccessPolicy): mypod-1, …`.
 */
export function describeCommands(syncs: readonly ReplaySync[]): string[] {
  const rows: string[][] = [];
  for (const sync of syncs) {
    const groups = new Map<string, JobCommand[]>();
    for (const command of sync.commands) {
      const key = command.type === 'TerminatePod' ? `${command.type}/${command.cause}/${command.reason}` : command.type;
      groups.set(key, [...(groups.get(key) ?? []), command]);
    }
    for (const commands of groups.values()) {
      const first = commands[0] as JobCommand;
      rows.push([sync.at, first.type, String(commands.length), details(first, commands)]);
    }
  }
  if (rows.length === 0) return ['Commands:           <none>'];
  return ['Commands:', ...formatTable(['At', 'Command', 'Count', 'Details'], rows)];
}

function details(first: JobCommand, commands: readonly JobCommand[]): string {
  switch (first.type) {
    case 'CreatePod': {
      const indexes = commands.flatMap((c) => (c.type === 'CreatePod' && c.index !== undefined ? [c.index] : []));
      return indexes.length === 0 ? 'NonIndexed' : `indexes ${IndexSet.of(...indexes).toString()}`;
    }
    case 'TerminatePod': {
      const names = commands.flatMap((c) => (c.type === 'TerminatePod' ? [c.podName] : []));
      const shown = names.slice(0, MAX_NAMES).join(', ');
      const more = names.length > MAX_NAMES ? `, … ${names.length - MAX_NAMES} more` : '';
      const why = first.reason === '' ? first.cause : `${first.cause} (${first.reason})`;
      return `${why}: ${shown}${more}`;
    }
    case 'RemovePodFinalizer': {
      const names = commands.flatMap((c) => (c.type === 'RemovePodFinalizer' ? [c.podName] : []));
      const more = names.length > MAX_NAMES ? `, … ${names.length - MAX_NAMES} more` : '';
      return `${names.slice(0, MAX_NAMES).join(', ')}${more}`;
    }
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
