import type { JobSetCommand } from './commands.ts';
import { decide } from './decide.ts';
import type { JobSetDecisionEvent } from './decision-events.ts';
import { evolve } from './evolve.ts';
import type { JobSetState } from './state.ts';

/** More passes than any JobSet needs: restart, delete, create, start up, suspend or resume. */
const MAX_PASSES = 64;

export interface Settled {
  readonly state: JobSetState;
  readonly events: readonly JobSetDecisionEvent[];
  readonly commands: readonly JobSetCommand[];
  readonly passes: number;
  /** False only if the pass limit was hit, which would be a bug in the decider. */
  readonly converged: boolean;
  /** When the settled JobSet must be reconciled again if nothing happens before. */
  readonly wakeAt: string | undefined;
}

/**
 * Reconciles at `now` until a pass decides nothing, folding each pass's decisions before the
 * next. In the cluster every status write and child-Job change requeues the JobSet; this is the
 * same loop run to its fixed point, so callers see the state a real controller settles into.
 */
export function settle(state: JobSetState, now: string): Settled {
  const events: JobSetDecisionEvent[] = [];
  const commands: JobSetCommand[] = [];
  let current = state;
  // Each child Job event kept aside is released by a pass of its own, and reconciled on (child-counts.ts).
  const limit = MAX_PASSES * (1 + (state.aheadOfHole?.length ?? 0));
  for (let passes = 1; passes <= limit; passes++) {
    const decision = decide(current, now);
    if (decision.events.length === 0 && decision.commands.length === 0) {
      return { state: current, events, commands, passes, converged: true, wakeAt: decision.wakeAt };
    }
    for (const event of decision.events) current = evolve(current, event);
    events.push(...decision.events);
    commands.push(...decision.commands);
  }
  return { state: current, events, commands, passes: limit, converged: false, wakeAt: undefined };
}
