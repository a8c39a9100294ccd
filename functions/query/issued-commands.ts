import type * as z from 'zod';
import { isDispatched, type DispatchedKind } from '../../shared/contract/outbound.ts';
import type { DecisionOf, PodRefData } from '../../shared/job/index.ts';
import { JOB_COMMAND_OF_DECISION } from './command-decisions.ts';
import type { PodDeleted } from '../../shared/job/index.ts';
import type { JobEvent } from '../../shared/job/index.ts';
import type { LogWindow } from './log-window.ts';
import { observedEffects, podEffectEntry, type PodEffectObserved } from './observed-effects.ts';
import type { IssuedCommandSchema } from './schemas/job-schemas.ts';

export type IssuedCommand = z.output<typeof IssuedCommandSchema>;

type CommandDecision = DecisionOf<keyof typeof JOB_COMMAND_OF_DECISION>;

const COMMAND_DECISIONS: ReadonlySet<string> = new Set(Object.keys(JOB_COMMAND_OF_DECISION));

/**
 * What the commands list reads of a log: the command decisions in full, the pods the cluster
 * reported as observedEffects reads them, and of any other entry its type. A JobEvent is one.
 */
export type CommandLogEvent =
  | CommandDecision
  | PodEffectObserved
  | PodDeleted
  | { readonly type: Exclude<JobEvent['type'], CommandDecision['type'] | 'PodObserved' | 'PodDeleted'>; readonly seq?: number | undefined };

/**
 * The entries of `window` as the commands list reads them (CommandLogEvent): an event the window
 * parsed already as it is, a decision or a pod deletion parsed, a pod observation read for its
 * effects only, and nothing of the others but their type.
 */
export function commandLog(window: LogWindow): CommandLogEvent[] {
  return window.entries.map((entry): CommandLogEvent => {
    const parsed = window.parsed(entry.seq);
    if (parsed !== undefined) return parsed;
    if (issuesCommands(entry.type) || entry.type === 'PodDeleted') return window.event(entry.seq)!;
    if (entry.type === 'PodObserved') return podEffectEntry(entry);
    return { type: entry.type as Exclude<JobEvent['type'], CommandDecision['type'] | 'PodObserved' | 'PodDeleted'>, seq: entry.seq };
  });
}

/** True for the decision types that issue commands to the cluster (one group each). */
export function issuesCommands(type: string): boolean {
  return COMMAND_DECISIONS.has(type);
}

/**
 * The commands jobfold issued, one group per logged decision, in log order: what `jobfold
 * replay` lists under Commands. `dispatched` applies the outbound contract's rule (isDispatched),
 * so a Job jobfold does not manage shows its pod creations as computed but never sent. Pod
 * commands carry `observed`: what the cluster later reported about their pods
 * (observed-effects.ts), the only sign of delivery the log holds. `log` may be a suffix of the
 * log, with `creationsBefore` the pods whose creation was requested before it.
 */
export function issuedCommands(log: readonly CommandLogEvent[], managedBy: string | undefined, jobUid: string, creationsBefore = 0): IssuedCommand[] {
  const result: IssuedCommand[] = [];
  const effects = observedEffects(log, jobUid, creationsBefore);
  const observed = (seq: number | undefined) => effects.get(seq ?? 0) ?? { count: 0, of: 0 };
  for (const event of log) {
    if (!issuesCommands(event.type)) continue;
    const decision = event as CommandDecision;
    const base = { seq: decision.seq ?? 0, at: decision.at, dispatched: isDispatched(commandKind(decision), managedBy) };
    switch (decision.type) {
      case 'PodsTerminationRequested':
        result.push({
          type: 'TerminatePod',
          ...base,
          cause: decision.cause,
          reason: decision.reason,
          message: decision.message,
          pods: podRefs(decision.pods),
          observed: observed(decision.seq),
        });
        break;
      case 'PodCreationsRequested':
        result.push({
          type: 'CreatePod',
          ...base,
          count: decision.count,
          ...(decision.indexes ? { indexes: decision.indexes } : {}),
          observed: observed(decision.seq),
        });
        break;
      case 'JobStatusSent':
        result.push({ type: 'UpdateJobStatus', ...base, hash: decision.hash });
        break;
      case 'PodFinalizersRemovalRequested':
        result.push({
          type: 'RemovePodFinalizer',
          ...base,
          pods: podRefs(decision.pods).map((pod, i) => (decision.causes?.[i] === undefined ? pod : { ...pod, cause: decision.causes[i] })),
          observed: observed(decision.seq),
        });
        break;
      default: {
        const _exhaustive: never = decision;
        return _exhaustive;
      }
    }
  }
  return result;
}

/** The pods a decision names; the fold writes index -1 for a pod without a completion index. */
function podRefs(pods: readonly PodRefData[]) {
  return pods.map(({ name, uid, index }) => ({ name, uid, ...(index !== undefined && index >= 0 ? { index } : {}) }));
}

/** What isDispatched reads of the decision's commands: their type, and a termination's cause. */
function commandKind(decision: CommandDecision): DispatchedKind {
  return decision.type === 'PodsTerminationRequested' ? { type: 'TerminatePod', cause: decision.cause } : { type: JOB_COMMAND_OF_DECISION[decision.type] };
}
