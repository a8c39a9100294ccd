import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
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
  indexes.splice(at >= 0 ? at : 0, 1);
}

/**
 * The creations still expected: those asked for an index the view has since seen completed or
 * failed are not. O(indexes), at most MAX_POD_CREATE_DELETE_PER_SYNC (500), and only while
 * creations are pending (in steady state a sync asks for the few pods that just finished).
 */
export function expectedCreations(state: JobState): number {
  const { creations, indexes } = state.expectations;
  if (creations <= 0 || indexes === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return creations;
  const { completedIndexes, failedIndexes } = state.status;
  let moot = 0;
  for (const index of indexes) if (completedIndexes.has(index) || failedIndexes.has(index)) moot += 1;
  return creations - moot;
}
