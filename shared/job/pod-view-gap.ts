import type { ObjectSequence } from '../k8s/object-sequence.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { missingSentCounts, noteSentCount, sentCountUnlogged, waitForSentCounts, type SentCounts } from '../k8s/sent-counts.ts';
import type { JobState } from './state.ts';
import { wakeAt, type Sync } from './sync.ts';

// Issue 21, "no harmful command from a transient view". Upstream's controller decides on its pod
// informer's cache: one watch, delivered in resourceVersion order, so what it sees of a Job's
// pods is always the cluster's history up to some point — never a newer event of one pod without
// an older event of another. EventBridge gives no such prefix: a pod's `Succeeded` can still be
// on its way while a later pod's creation has arrived, and manageJob, seeing the finished pod
// active, deletes a running one as excess and creates its replacement. The forwarder numbers
// the pod events it sends for each Job (`sequence.jobSeq`, within its pod epoch; docs/events.md,
// "Ordering"), so the log can tell when it lacks one sent before the newest it holds. While it
// does, a Job jobfold runs neither creates nor deletes pods, as upstream waits while its
// expectations are unsatisfied; it decides as soon as the missing events arrive, and after
// EXPECTATIONS_TIMEOUT_MS at the latest (an event refused at the door, or lost, never wedges the
// Job; the count bookkeeping is shared/k8s/sent-counts.ts, which JobSets use too). A Job jobfold does not run has only the termination of its lingering pods sent
// (contract/outbound.ts, isDispatched), so for it the wait holds a new outcome and those
// terminations: a pod whose `Succeeded` is in the hole would otherwise be deleted as lingering.

/** What the log holds of the forwarder's per-Job count of pod events in its newest pod epoch. */
export type PodCounts = SentCounts;

/** A pod event sent for this Job, with its count (observe-pod's callers in evolve, one place). */
export function notePodCount(state: JobState, sequence: ObjectSequence | undefined, at: number): void {
  const count = sequence?.jobSeq;
  if (sequence === undefined || count === undefined) return;
  state.podCounts = noteSentCount(state.podCounts, sequence.epoch, count, at);
}

/**
 * Whether the log lacks this pod event's count: then it is logged even when it says nothing
 * new of its pod (an older version arriving late), or the count would stay missing.
 */
export function podCountUnlogged(state: JobState, sequence: ObjectSequence | undefined): boolean {
  const count = sequence?.jobSeq;
  if (sequence === undefined || count === undefined) return false;
  return sentCountUnlogged(state.podCounts, sequence.epoch, count);
}

/** Pod events sent before the newest the log holds and not in it yet, and since when (undefined: none). */
export function missingPodEvents(state: JobState): { readonly count: number; readonly since: number } | undefined {
  return missingSentCounts(state.podCounts);
}

/**
 * decide's question: true while the Job must not act on its pods because its view of them lacks
 * an event the forwarder sent before one it holds; the Job is woken when the wait runs out.
 * `managing` (creating, deleting as excess, deciding for a Job jobfold runs) waits only for a Job
 * jobfold runs; `terminating` (an outcome and its lingering pods' terminations) for every Job.
 */
export function waitForMissingPodEvents(sync: Sync, to: 'managing' | 'terminating'): boolean {
  if (to === 'managing' && sync.state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME) return false;
  const until = waitForSentCounts(sync.state.podCounts, sync.now);
  if (until === undefined) return false;
  wakeAt(sync, until + 1);
  return true;
}
