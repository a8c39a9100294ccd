import { parseTime } from '../k8s/time.ts';
import { EXPECTATIONS_TIMEOUT_MS, JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { isUnfinished, outcomeSeenAt, podClass, type PodRecord } from './pod-record.ts';
import type { JobState } from './state.ts';
import type { JobStatusView } from './status.ts';

// Issue 21: when the cluster wrote a Job's terminal condition, and which pods it never saw.
// Upstream's syncJob writes Complete/Failed once its criterion is met, its expectations are met
// and no pod its informer lists is terminating (`enactJobFinished`), and never syncs a finished
// Job again: a pod first seen after that instant was neither waited for nor counted. jobfold can
// read such a pod before the evidence that finished the Job (EventBridge does not order): it then
// holds every pod in one view, where the cluster's order showed the later ones only after the
// finish. The pods tell the instant apart, on the cluster's clock: from the criterion's
// (criterion-instants.ts), or, when the Job had run before it, from the end of the expectations
// its controller may still have held then (a pod it created before the criterion, seen first
// after it, was waited for: EXPECTATIONS_TIMEOUT_MS); pushed past by each pod seen by then that
// was still unfinished, until it ended (the Job waited for it, and saw what came meanwhile). A
// pod every observation of which is after that instant is the cluster's "after the finish": it
// holds nothing back, the failing sync does not count it, it is not active or terminating in the
// final status, and an outcome of it arriving after the finish is not counted there. What jobfold
// counted of it before the evidence arrived (its own outcome) is left out of the final status
// when the Job finishes (late-outcome.ts takeOutUnseenCounts), as upstream never counted it.
// One whose observation from before the instant arrives later counts as before (late-outcome.ts
// settleAfterFinish, outcome-correction.ts reopenFinish). Jobs jobfold runs are exempt: its
// syncs are the controller's, and what it saw it waited for.

/**
 * The instant the cluster finished the Job, given its criterion's instant `metAt`: undefined
 * while a pod seen by then is still unfinished in the view (the Job waits for it). Pods without
 * a first-seen instant (records older than the field) count as seen. O(pods) and a sort of the
 * pods seen after the floor: only while finishing, with a criterion instant known. A waiting Job
 * is asked at every sync while its pods terminate one by one: the walk remembers every pod it
 * found holding the Job (state.finishHolders), and the next asks end at the first that still
 * holds, so each pod is walked past once per refill, not once per sync (else quadratic).
 */
export function clusterFinishInstant(state: JobState, metAt: number): number | undefined {
  let finishedAt = finishFloor(state, metAt);
  const floor = finishedAt;
  if (stillHeld(state, floor)) return undefined;
  const later: PodRecord[] = [];
  const holders: string[] = [];
  // One pass for the pods seen by the floor: any unfinished one holds the Job.
  for (const [key, pod] of state.pods) {
    if (pod.controlledBy !== undefined) continue;
    if (seenAfter(pod, floor)) later.push(pod);
    else if (isUnfinished(pod)) holders.push(key);
    else finishedAt = Math.max(finishedAt, endedAt(pod));
  }
  if (holders.length > 0) {
    state.finishHolders = holders;
    return undefined;
  }
  // Those seen after it, in the order the cluster saw them, while the Job still waited.
  later.sort((a, b) => (a.firstSeenAt ?? 0) - (b.firstSeenAt ?? 0));
  for (const pod of later) {
    if ((pod.firstSeenAt ?? 0) > finishedAt) break;
    if (isUnfinished(pod)) return undefined;
    finishedAt = Math.max(finishedAt, endedAt(pod));
  }
  return finishedAt;
}

/**
 * The instant a fold of the events in the cluster's order finished the Job: its criterion's
 * instant, pushed past by each pod seen by then still unfinished then, to when its outcome was
 * seen (and by those seen meanwhile). jobfold's clock when it finished the Job is that instant
 * only when the events arrived in that order; one that read newer events first finished it later
 * on its clock, and took outcomes that happened between the two as late ones (late-outcome.ts).
 * Undefined without a criterion's instant, or while a pod of that view is unfinished. O(pods)
 * and a sort of those seen after the criterion, once per finish.
 */
export function finishedInClusterOrder(state: JobState): number | undefined {
  const metAt = state.outcomeMetAt;
  if (metAt === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return undefined;
  let finishedAt = metAt;
  const later: PodRecord[] = [];
  for (const pod of state.pods.values()) {
    if (pod.controlledBy !== undefined) continue;
    if (seenAfter(pod, metAt)) later.push(pod);
    else if (isUnfinished(pod)) return undefined;
    else finishedAt = Math.max(finishedAt, outcomeEndedAt(pod));
  }
  later.sort((a, b) => (a.firstSeenAt ?? 0) - (b.firstSeenAt ?? 0));
  for (const pod of later) {
    if ((pod.firstSeenAt ?? 0) > finishedAt) break;
    if (isUnfinished(pod)) return undefined;
    finishedAt = Math.max(finishedAt, outcomeEndedAt(pod));
  }
  return finishedAt;
}

/** When the pod's outcome was seen, else (gone without one) when it was last seen. */
const outcomeEndedAt = (pod: PodRecord): number => outcomeSeenAt(pod) ?? endedAt(pod);

/**
 * Whether a pod the last walk found holding the Job still does (its current record: seen by the
 * floor, unfinished, not jobfold's). Those that no longer do are dropped for good: one that holds
 * again later is found by the next walk, which runs once none is left.
 */
function stillHeld(state: JobState, floor: number): boolean {
  const holders = state.finishHolders;
  while (holders.length > 0) {
    const pod = state.pods.get(holders[holders.length - 1] as string);
    if (pod !== undefined && pod.controlledBy === undefined && !seenAfter(pod, floor) && isUnfinished(pod)) return true;
    holders.pop();
  }
  return false;
}

const seenAfter = (pod: PodRecord, floor: number): boolean => pod.firstSeenAt !== undefined && pod.firstSeenAt > floor;

/**
 * Whether a pod of the view can be one the cluster never saw before it finished the Job (its
 * criterion met at `metAt`): without one, a Job with a pod terminating waits, with no walk of
 * its pods (decide asks at every sync while a failing Job's pods terminate).
 */
export function mayHoldUnseenPods(state: JobState, metAt: number): boolean {
  return state.newestPodFirstSeen > finishFloor(state, metAt);
}

/**
 * Whether a finished pod may push the instant the cluster finished the Job past its floor (it
 * ended after it: clusterFinishInstant waited for it), once the criterion's instant is known. A
 * fold from a snapshot holds only the archived pods its tail names: such a pod, archived, was
 * missing there, and the finish (and which pods the cluster never saw) differed from a replay's
 * (snapshot property, named-only restore). So it stays in the snapshot (snapshot.ts isSettled):
 * the pods a finishing Job waited for past the expectations' timeout, a few.
 */
export function mayExtendClusterFinish(state: JobState, pod: PodRecord): boolean {
  const metAt = state.outcomeMetAt;
  if (metAt === undefined || pod.controlledBy !== undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return false;
  return endedAt(pod) > finishFloor(state, metAt);
}

/** A pod record first seen at `at` joined the state (created, or restored from a snapshot or the archive). */
export function notePodFirstSeen(state: JobState, at: number | undefined): void {
  if (at !== undefined && at > state.newestPodFirstSeen) state.newestPodFirstSeen = at;
}

/**
 * The earliest the cluster can have finished the Job: the criterion's instant when it was met
 * before the Job's start (its first sync chose the outcome and created nothing), else the end of
 * the expectations its controller may have held then (pods created before, not seen yet). Met at
 * the very instant of the start, the first sync may have created pods before it read the
 * evidence (one instant, several syncs): those were awaited too.
 */
function finishFloor(state: JobState, metAt: number): number {
  const start = state.status.startTime;
  return start !== undefined && metAt < parseTime(start) ? metAt : metAt + EXPECTATIONS_TIMEOUT_MS;
}

/** Until when the cluster may have waited for the finished pod: its latest observation, or its outcome's instants. */
function endedAt(pod: PodRecord): number {
  return Math.max(pod.lastSeenAt ?? -Infinity, pod.finishedTrackedAt ?? -Infinity, pod.strippedAt ?? -Infinity, pod.deletionTimestamp ?? -Infinity);
}

/** Whether the cluster, having finished the Job at `finishedAt`, never saw the pod before. */
export const unseenBy = (pod: PodRecord, finishedAt: number): boolean =>
  pod.controlledBy === undefined && pod.firstSeenAt !== undefined && pod.firstSeenAt > finishedAt;

/**
 * For a Job jobfold does not run whose criterion's instant is known and that holds for no pod:
 * the instant the cluster finished it, to tell the pods it never saw (unseenBy). Else undefined.
 */
export function finishedOnCluster(state: JobState): number | undefined {
  const metAt = state.outcomeMetAt;
  if (metAt === undefined || state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return undefined;
  return clusterFinishInstant(state, metAt);
}

/**
 * The final status without what the pods the cluster never saw before it finished the Job at
 * `finishedAt` add to `active`, `ready` and `terminating` (the finishing sync terminated them,
 * and the cluster's order shows them only after the finish). What jobfold counted of them
 * before is taken out apart (late-outcome.ts takeOutUnseenCounts), and the failing sync did not
 * count them (counting.ts recountAll).
 */
export function withoutUnseenPods(state: JobState, status: JobStatusView, finishedAt: number, leftOutBy?: number): JobStatusView {
  let { active, ready, terminating } = status;
  for (const pod of state.pods.values()) {
    // `leftOutBy`: a later finish instant whose unseen pods the status left out already.
    if (!unseenBy(pod, finishedAt) || (leftOutBy !== undefined && unseenBy(pod, leftOutBy))) continue;
    const cls = podClass(pod);
    if (cls === 'active') {
      active -= 1;
      if (pod.ready) ready -= 1;
    } else if (cls === 'terminating') terminating -= 1;
  }
  return { ...status, active: Math.max(0, active), ready: Math.max(0, ready), terminating: Math.max(0, terminating) };
}
