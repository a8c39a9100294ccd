import { copySentCounts, missingSentCounts, noteSentCount, sentCountUnlogged, waitForSentCounts, type CarriedCounts } from '../k8s/sent-counts.ts';
import { formatTime, parseTime } from '../k8s/time.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from './constants.ts';
import type { ChildJobView, FinishCount, JobSetState } from './state.ts';

// Issue 21, "no harmful command from a transient view", for JobSets jobfold runs. Upstream's
// JobSet controller decides on its Job informer's cache: one watch, so what it sees of a JobSet's
// Jobs is a prefix of the cluster's history. The JobSet's log gets no such prefix: a Job's
// success can still be on its way while another's failure of the same second has arrived, and
// the JobSet restarts, deleting the Job that succeeded. The forwarder numbers the events it sends
// about a JobSet's Jobs (`jobSetSeq`); each child status reaching the log carries the counts its
// Job's log folded for it (shared/job/child-job-status.ts), each child deletion its own. While
// the log lacks a count sent before the newest it holds, a JobSet jobfold runs decides nothing
// (no creation, deletion, restart, suspension or resumption, no outcome), as a Job jobfold runs
// waits for its pods' (shared/job/pod-view-gap.ts); it decides as soon as the count arrives, and
// after upstream's expectation timeout at the latest (shared/k8s/sent-counts.ts), so a lost event
// never wedges the JobSet. A JobSet the cluster's controller runs does not wait: its decisions
// are computed, not sent, and the cluster has acted on its own view already.

/** The fold's part: the counts a child status or deletion carries, noted at its time. */
export function noteChildCounts(state: JobSetState, carried: CarriedCounts | undefined, at: string): Pick<JobSetState, 'childCounts'> | undefined {
  if (carried === undefined) return undefined;
  let counts = copySentCounts(state.childCounts);
  const ms = parseTime(at);
  for (const count of carried.counts) counts = noteSentCount(counts, carried.epoch, count, ms);
  return { childCounts: counts };
}

/**
 * The count of the first status that showed the Job finished as it is now (kept from the view
 * before while it shows the same finish; the newest count a status carries: it is as of that one).
 */
export function finishCount(previous: ChildJobView | undefined, finished: ChildJobView['finished'], carried: CarriedCounts | undefined): { finishedCount?: FinishCount } {
  if (finished === undefined) return {};
  if (previous?.finished === finished && previous.finishedCount !== undefined) return { finishedCount: previous.finishedCount };
  return carried === undefined ? {} : { finishedCount: { epoch: carried.epoch, count: Math.max(...carried.counts) } };
}

/** Whether the log lacks one of these counts: the entry is logged even when its snapshot is stale. */
export function childCountsUnlogged(state: JobSetState, carried: CarriedCounts | undefined): boolean {
  return carried !== undefined && carried.counts.some((count) => sentCountUnlogged(state.childCounts, carried.epoch, count));
}

/** Child Job events sent before the newest the log holds and not in it yet, and since when. */
export function missingChildJobEvents(state: JobSetState): { readonly count: number; readonly since: number } | undefined {
  return missingSentCounts(state.childCounts);
}

/**
 * decide's question: the time to reconcile again (RFC 3339) while a JobSet jobfold runs must not
 * act because its view of its Jobs lacks an event sent before one it holds; undefined: it acts.
 */
export function waitForChildJobEvents(state: JobSetState, managedBy: string | undefined, now: string): string | undefined {
  if (managedBy !== JOBFOLD_JOBSET_CONTROLLER_NAME) return undefined;
  const until = waitForSentCounts(state.childCounts, parseTime(now));
  return until === undefined ? undefined : formatTime(until + 1);
}
