import { IndexSet, parseIndexes } from '../indexes/index-set.ts';
import { JOBFOLD_CONTROLLER_NAME } from './constants.ts';
import type { JobState } from './state.ts';

// Upstream counts a pod's outcome in the sync after it happens, so every outcome that happened
// before the Job finished is in its final status. An observation can arrive after jobfold
// decided the Job finished although it happened before, on the cluster's clock (EventBridge
// does not order): the final status then counts it too, so that it does not depend on arrival
// order. One at the very instant jobfold finished the Job counts too: the cluster's sync at that
// instant read every event of it (basics__parallel-work-queue-job: two successes of one instant,
// the Job completed on the first to arrive). Conditions stay as decided (they only move
// forward), and an outcome that happened after the decision is not counted, as upstream no
// longer syncs a finished Job. Jobs jobfold runs are exempt: there jobfold's syncs are the
// controller's, and what it had not seen when it finished the Job it had not counted.
// The instant is jobfold's clock when it finished the Job: the newest it had read, which can lie
// past the cluster's own finish when the evidence that finished it arrived after newer events.

/** The counts an observation may change, taken before folding it. */
export interface CountsBefore {
  readonly succeeded: number;
  readonly failed: number;
  readonly completedIndexes: IndexSet;
  readonly failedIndexes: IndexSet;
}

/** The counts before an observation at `at`, when it happened before the Job finished (or at that instant) and arrived after; else undefined. */
export function countsBeforeLateOutcome(state: JobState, at: number): CountsBefore | undefined {
  if (state.finishedInstant === undefined || at > state.finishedInstant) return undefined;
  return countsBeforeFinalCount(state);
}

/**
 * Once jobfold finished the Job, the counts before a count the final status must take in (an
 * outcome upstream counted before the Job finished: a late one, or a pod whose finalizer was
 * removed before it ended, observe-pod.ts countStrippedLive); else undefined.
 */
export function countsBeforeFinalCount(state: JobState): CountsBefore | undefined {
  if (state.finalStatus === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return undefined;
  const { status } = state;
  return { succeeded: status.succeeded, failed: status.failed, completedIndexes: status.completedIndexes.clone(), failedIndexes: status.failedIndexes.clone() };
}

/** Adds what the observation counted to the final status. */
export function countLateOutcome(state: JobState, before: CountsBefore): void {
  const final = state.finalStatus;
  if (final === undefined) return;
  const { status, settings } = state;
  const completions = settings?.completions ?? 0;
  const indexed = settings?.indexed ?? false;
  const completed = indexed ? added(parseIndexes(final.completedIndexes, completions), before.completedIndexes, status.completedIndexes) : undefined;
  const failedIndexes =
    final.failedIndexes === null ? undefined : added(parseIndexes(final.failedIndexes, completions), before.failedIndexes, status.failedIndexes);
  state.finalStatus = {
    ...final,
    succeeded: completed ? completed.size : final.succeeded + Math.max(0, status.succeeded - before.succeeded),
    failed: final.failed + Math.max(0, status.failed - before.failed),
    ...(completed ? { completedIndexes: completed.toString() } : {}),
    ...(failedIndexes ? { failedIndexes: failedIndexes.toString() } : {}),
  };
}

/** `into` with the indexes `after` holds and `before` did not. */
function added(into: IndexSet, before: IndexSet, after: IndexSet): IndexSet {
  if (before.equals(after)) return into;
  for (const index of after) if (!before.has(index)) into.add(index);
  return into;
}
