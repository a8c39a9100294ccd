import type { IssuedJobSetCommand } from './jobset-run.ts';
import { formatTable } from './table.ts';

/**
 * The commands jobfold issued for the JobSet, one row per reconcile time and kind:
 * `2026-01-01T00:02:00Z  DeleteJob  4  yes  x-0, x-1, x-2, x-3`. For a trace, `Sent` says whether
 * the command left jobfold (see shared/contract/jobset-outbound.ts) or was only logged.
 */
export function describeJobSetCommands(commands: readonly IssuedJobSetCommand[]): string[] {
  if (commands.length === 0) return ['Commands:           <none>'];
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
  const header = ['At', 'Command', 'Count', ...(withSent ? ['Sent'] : []), 'Jobs'];
  return ['Commands:', ...formatTable(header, rows)];
}
