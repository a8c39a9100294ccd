import { copySentCounts, missingSentCounts, noteSentCount, sentCountUnlogged, waitForSentCounts, type CarriedCounts } from '../k8s/sent-counts.ts';
import { compareOrder, comparableVersion, type ObservationOrder } from '../k8s/object-sequence.ts';
import { compareTimes, formatTime, parseTime } from '../k8s/time.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from './constants.ts';
import type { ChildJobEventReleased } from './decision-events.ts';
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
//
// Upstream reconciles after each event of its prefix; seeing the events around a hole at once
// once it fills would skip the reconciles in between (a walk's StartupPolicyCompleted before the
// success that completed the JobSet). So the events that arrive ahead of a hole are kept aside,
// out of the view (`aheadOfHole`), and released one by one in their counts' order once it fills
// (or the wait runs out), each by a logged `ChildJobEventReleased` after a reconcile that decided
// nothing: the JobSet reconciles after each as the cluster's controller did.

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

/**
 * Whether a child Job event, its counts noted in `counted`, waits aside: a JobSet jobfold runs
 * lacks a count sent before it, or lacks one still with it noted (it fills a hole's lower end
 * only: folded at once, it would reach the view together with the events up to the last missing
 * count, in one reconcile), or holds aside a child event sent before it (released in order). The
 * event that fills a hole is folded at once when everything sent before it is in the view.
 */
export function holdsAheadOfHole(state: JobSetState, counted: JobSetState, event: { readonly jobSetSeq?: CarriedCounts | undefined }): boolean {
  const carried = event.jobSetSeq;
  if (carried === undefined || state.jobSet?.spec.managedBy !== JOBFOLD_JOBSET_CONTROLLER_NAME) return false;
  const newest = Math.max(...carried.counts);
  const first = (state.aheadOfHole ?? []).find(isChildEvent);
  if (first !== undefined && newestCount(first) < newest) return true;
  const counts = counted.childCounts;
  return counts !== undefined && carried.epoch === counts.epoch && (newest > counts.through || missingSentCounts(counts) !== undefined);
}

/**
 * Whether a JobSet observation waits aside too: one watch does not order it against the Jobs'
 * (no count), so it is released among them by its time, after the child events of the same
 * instant or earlier, as upstream's reconcile reads its Jobs' failures before the spec's suspension.
 */
export function holdsJobSetAside(state: JobSetState): boolean {
  if (state.jobSet?.spec.managedBy !== JOBFOLD_JOBSET_CONTROLLER_NAME) return false;
  return (state.aheadOfHole?.length ?? 0) > 0 || missingSentCounts(state.childCounts) !== undefined;
}

type HeldEvent = NonNullable<JobSetState['aheadOfHole']>[number];

const isChildEvent = (held: HeldEvent): boolean => held.event.type !== 'JobSetObserved';

const newestCount = (held: HeldEvent): number => (held.event.type === 'JobSetObserved' ? 0 : Math.max(...(held.event.jobSetSeq?.counts ?? [0])));

/**
 * `aheadOfHole` with one more event: child events in their counts' order, JobSet observations in
 * the cluster's (by resourceVersion, else as they came): a suspension delivered after the
 * resumption that followed it is released before it, and enacted, as the cluster's controller did.
 */
export function setAside(state: JobSetState, held: HeldEvent): Pick<JobSetState, 'aheadOfHole'> {
  const aside = [...(state.aheadOfHole ?? [])];
  const at = isChildEvent(held)
    ? aside.findIndex((other) => isChildEvent(other) && newestCount(other) > newestCount(held))
    : aside.findIndex((other) => !isChildEvent(other) && (compareOrder(orderOf(held), orderOf(other)) ?? 0) < 0);
  aside.splice(at === -1 ? aside.length : at, 0, held);
  return { aheadOfHole: aside };
}

const orderOf = ({ event }: HeldEvent): ObservationOrder => (event.type === 'JobSetObserved' ? { version: comparableVersion(event.jobSet.metadata.resourceVersion), sequence: event.sequence } : {});

/** Which event kept aside goes next: the first child event, or the first JobSet observation when it is earlier. */
export function nextAside(state: JobSetState): number | undefined {
  const aside = state.aheadOfHole ?? [];
  const child = aside.findIndex(isChildEvent);
  const jobSet = aside.findIndex((held) => !isChildEvent(held));
  if (child === -1 || jobSet === -1) return aside.length === 0 ? undefined : Math.max(child, jobSet);
  return compareTimes((aside[jobSet] as HeldEvent).event.at, (aside[child] as HeldEvent).event.at) < 0 ? jobSet : child;
}

/**
 * decide's last step for a JobSet jobfold runs: after a reconcile that decided nothing, the next
 * event kept aside is released, unless the JobSet still waits for a count.
 */
export function releaseNext(state: JobSetState, now: string): ChildJobEventReleased | undefined {
  const index = nextAside(state);
  const held = index === undefined ? undefined : state.aheadOfHole?.[index];
  if (held === undefined || waitForChildJobEvents(state, state.jobSet?.spec.managedBy, now) !== undefined) return undefined;
  const { event } = held;
  const name = event.type === 'JobObserved' ? event.job.metadata.name : event.type === 'JobDeleted' ? event.name : event.jobSet.metadata.name;
  return { type: 'ChildJobEventReleased', at: now, name, ...(event.type === 'JobSetObserved' ? {} : { count: newestCount(held) }), tippedBy: held.position };
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
