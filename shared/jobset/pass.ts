import type { JobSetCommand } from './commands.ts';
import { changesConditions, type ConditionUpdate } from './conditions.ts';
import type { JobSetDecisionEvent } from './decision-events.ts';
import { evolve } from './evolve.ts';
import type { JobSetState } from './state.ts';

/**
 * One reconcile in progress. Upstream mutates the JobSet status step by step and writes it once
 * at the end; here every decision is recorded as an event and folded at once, so later steps of
 * the same pass see earlier ones (e.g. `JobSetCompleted` overriding a `JobsReady` written before).
 * Child Job buckets are taken once at the start, as upstream lists them once.
 */
export interface Pass {
  readonly now: string;
  /** The state the pass started from; its position keys the command ids. */
  readonly start: JobSetState;
  /** The start state with this pass's decisions folded in. */
  state: JobSetState;
  readonly events: JobSetDecisionEvent[];
  readonly commands: JobSetCommand[];
  /** When the controller must look again if nothing happens before (`RequeueAfter`). */
  wakeAt: string | undefined;
}

export function startPass(state: JobSetState, now: string): Pass {
  return { now, start: state, state, events: [], commands: [], wakeAt: undefined };
}

/** Records a decision and folds it into the pass's working state. */
export function record(pass: Pass, event: JobSetDecisionEvent): void {
  pass.events.push(event);
  pass.state = evolve(pass.state, event);
}

/** `setCondition`: records a `JobSetConditionChanged` only when the write changes something. */
export function writeCondition(pass: Pass, condition: ConditionUpdate, tippedBy: number): void {
  if (!changesConditions(pass.state.conditions, condition)) return;
  record(pass, { type: 'JobSetConditionChanged', at: pass.now, condition, tippedBy });
}

/** A key for command ids: the JobSet uid, or its namespaced name when the uid is unknown. */
export function jobSetKey(state: JobSetState): string {
  const metadata = state.jobSet?.metadata;
  return metadata?.uid ?? `${metadata?.namespace ?? ''}/${metadata?.name ?? ''}`;
}
