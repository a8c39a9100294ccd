import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import type { IndexSet } from '../indexes/index-set.ts';
import type { JobState } from './state.ts';

// Upstream's ControllerExpectations for a Job: the pods its last sync created or deleted and has
// not seen yet. A sync waits for them (decide.ts expectationsSatisfied), and the sync that asked
// counts the creations as active. jobfold keeps them the same way, with one thing upstream never
// needs: the indexes its creations were for. Upstream's informer delivers a Job's pod events in
// the cluster's order, so its controller never asks for an index that a pod it has not seen yet
// already completed. jobfold's view can lack such a pod's older events (EventBridge does not
// order); once they arrive and complete (or fail) the index, the creation asked for it is moot:
// the cluster never made it. Counted still, it would keep one pod too many `active` and hold the
// Job's syncs back until the expectation timed out, where the cluster's order did neither
// (issue 21, the elastic generated histories' history-59). Only for a Job jobfold does not run,
// whose creations are computed: one jobfold runs sent its creation, the pod will be seen, and
// its syncs wait for it as upstream's do.

/** Upstream `addPod`: a new pod of the Job lowers its creation expectation, the one for its index first. */
export function creationSeen(state: JobState, index: number | undefined): void {
  const expectations = state.expectations;
  if (expectations.creations <= 0) return;
  expectations.creations -= 1;
  const indexes = expectations.indexes;
  if (indexes === undefined || indexes.length === 0) return;
  const at = index === undefined ? -1 : indexes.indexOf(index);
  const [removed] = indexes.splice(at >= 0 ? at : 0, 1);
  keepMootCount(state, indexes, removed as number);
}

/**
 * The creations still expected: those asked for an index the view has since seen completed or
 * failed are not. O(indexes), at most MAX_POD_CREATE_DELETE_PER_SYNC (500), and only while
 * creations are pending (in steady state a sync asks for the few pods that just finished). The
 * count of moot ones is remembered while nothing it reads changes (state.mootMemo): evolve asks at
 * every event (child-status-version.ts) and decide twice, while a big Job's creations stay
 * pending through its pods' first sightings (a writer's batch of 20,000 of them: 3 % of its CPU).
 */
export function expectedCreations(state: JobState): number {
  const { creations, indexes } = state.expectations;
  if (creations <= 0 || indexes === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return creations;
  const { completedIndexes, failedIndexes } = state.status;
  const known = knownMootCount(state, indexes);
  if (known !== undefined && known.length === indexes.length && readsAlike(known, state)) return creations - known.moot;
  let moot = 0;
  for (const index of indexes) if (isMoot(state, index)) moot += 1;
  state.mootMemo = { indexes, length: indexes.length, completed: completedIndexes, completedSize: completedIndexes.size, failed: failedIndexes, failedSize: failedIndexes.size, moot };
  return creations - moot;
}

const isMoot = (state: JobState, index: number): boolean => state.status.completedIndexes.has(index) || state.status.failedIndexes.has(index);

/** expectedCreations' count of moot indexes, and what it read (JobState.mootMemo; not persisted). */
export interface MootCount {
  /** The expectation's `indexes` it was counted over (compared by identity). */
  readonly indexes: readonly number[];
  readonly length: number;
  readonly completed: IndexSet;
  readonly completedSize: number;
  readonly failed: IndexSet;
  readonly failedSize: number;
  readonly moot: number;
}

/**
 * The count held for the expectation's `indexes`: a new array per creation decision
 * (apply-decision.ts), only shortened in place afterwards (creationSeen, which keeps the count),
 * so the same array at the same length holds the same indexes. An IndexSet only grows in place
 * (an index taken out makes a new set, counting.ts), so the same set at the same size holds the
 * same indexes. A memo of a pure count (it answers what the walk would), kept in the state
 * beside criterionMemo, not in a module-level map: nothing of it is persisted, and a state
 * restored or copied holds other arrays, so it counts afresh.
 */
const knownMootCount = (state: JobState, indexes: readonly number[]): MootCount | undefined =>
  state.mootMemo?.indexes === indexes ? state.mootMemo : undefined;

const readsAlike = (known: MootCount, state: JobState): boolean => {
  const { completedIndexes, failedIndexes } = state.status;
  return known.completed === completedIndexes && known.completedSize === completedIndexes.size && known.failed === failedIndexes && known.failedSize === failedIndexes.size;
};

/** creationSeen took `removed` out of `indexes`: a count still true before it stays true without it. */
function keepMootCount(state: JobState, indexes: readonly number[], removed: number): void {
  const known = knownMootCount(state, indexes);
  if (known === undefined || known.length !== indexes.length + 1 || !readsAlike(known, state)) return;
  state.mootMemo = { ...known, length: indexes.length, moot: known.moot - (isMoot(state, removed) ? 1 : 0) };
}
