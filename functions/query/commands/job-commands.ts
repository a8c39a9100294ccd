import type * as z from 'zod';
import type { LogEntry, StreamId } from '../../../shared/log/event-store.ts';
import { entryEvent } from '../../../shared/job/index.ts';
import { evolve } from '../../../shared/job/index.ts';
import { restoreSnapshot, type JobSnapshot } from '../../../shared/job/index.ts';
import { initialState, type JobState } from '../../../shared/job/index.ts';
import type { QueryDeps } from '../http.ts';
import { issuedCommands, issuesCommands } from '../issued-commands.ts';
import type { CommandGroup, CommandSource } from './commands-page.ts';
import type { PagedJobCommandSchema } from './commands-schemas.ts';

// The Job's commands as the commands list pages them: each decision's commands exactly as the
// Job view shows them (issued-commands.ts), with the decision's type, and for pod commands the
// slice of its pods a page holds (`podsFrom`, `podsOf`). What the cluster later reported
// (`observed`) is left out: it is read from every entry after the decision, which a page that
// reads a bounded window of the log cannot do; the Job view has it for its recent commands.

export type PagedJobCommand = z.output<typeof PagedJobCommandSchema>;

export function jobCommandSource(managedBy: string | undefined, jobUid: string): CommandSource<PagedJobCommand> {
  return {
    isCommand: issuesCommands,
    group(entry: LogEntry): CommandGroup<PagedJobCommand> {
      const decision = entryEvent(entry);
      const [issued] = issuedCommands([decision], managedBy, jobUid);
      if (issued === undefined) throw new Error(`log entry ${entry.seq} (${entry.type}) issues no command`);
      const { observed: _observed, ...command } = issued as typeof issued & { observed?: unknown };
      const base = { ...command, decision: decision.type };
      if (command.type !== 'TerminatePod' && command.type !== 'RemovePodFinalizer') {
        return { size: 1, slice: () => base as PagedJobCommand };
      }
      const pods = command.pods;
      return {
        size: Math.max(1, pods.length),
        slice: (from, to) => ({ ...base, pods: pods.slice(from, to), podsFrom: from, podsOf: pods.length }) as PagedJobCommand,
      };
    },
  };
}

/**
 * `spec.managedBy`, which says whether a decision's commands were dispatched (isDispatched). The
 * API server refuses to change it (and so does the fold, validation/update.ts), so the first
 * spec the fold accepts tells it for good: the newest snapshot's spec; when that snapshot holds
 * none yet (or there is none), the entries after it, folded up to the first accepted spec — a
 * tail the writer's snapshot cadence bounds, whose first entry nearly always holds it.
 */
export async function jobManagedBy(deps: Pick<QueryDeps, 'store' | 'config'>, stream: StreamId): Promise<string | undefined> {
  const snapshot = await deps.store.loadSnapshot(stream);
  const state = snapshot ? restoreSnapshot(snapshot.state as JobSnapshot) : initialState(deps.config);
  const accepted = (s: JobState) => s.settings && { managedBy: s.settings.managedBy };
  const known = accepted(state);
  if (known) return known.managedBy;
  for (let after = snapshot?.seq ?? 0; ;) {
    const { entries } = await deps.store.read(stream, { afterSeq: after, limit: TAIL_READ });
    for (const entry of entries) {
      evolve(state, entryEvent(entry));
      const found = accepted(state);
      if (found) return found.managedBy;
    }
    if (entries.length < TAIL_READ) return undefined;
    after = entries.at(-1)!.seq;
  }
}

/** Entries per read of the tail; the first one nearly always holds the spec. */
const TAIL_READ = 100;
