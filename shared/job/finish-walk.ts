import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { parseTime } from '../k8s/time.ts';
import { observedInstant } from './cluster-clock.ts';
import { podNamed } from './first-sightings.ts';
import { isInterimCondition, walksEveryPod } from './interim-instants.ts';
import { finishedInClusterOrder, finishedOnCluster, unseenBy } from './cluster-finish.ts';
import { evolve, type JobEvent } from './evolve.ts';
import { cloneState } from './snapshot.ts';
import { clockSkewOf, type JobState } from './state.ts';

// Issues 20, 21: same log => same answer, whatever snapshot a fold starts from. The finish of a
// Job jobfold does not run leaves out of its final status the pods the cluster saw only after it
// (late-outcome.ts leaveOutUnseenPods), at the finish and again when CriterionMetEarlier moves it
// back (finishMetEarlier): a walk of every pod, for the instant the cluster finished the Job and
// the one a fold in the cluster's order finished it (cluster-finish.ts), each pushed past the
// criterion's instant by the pods that ended after it, and for the pods the cluster did see at an
// unseen pod's index (takeOutUnseenCounts). A fold from a snapshot (the query API, a writer
// loaded cold) holds only the archived pods its tail names: a pod archived before the finish,
// first seen after it, was missing there (seed 99: the query counted its failure, 2 where the
// replay said 1). Restoring the whole archive for every fold that crosses such a walk cost ~850
// read units and ~2 s at 100,000 pods (the query bench's Job view, explain and status at the
// end, against 26.5 units), so it is restored only where an archived pod can take part: one
// seen after an instant the walk reached (the snapshot keeps the latest instant any archived pod
// was seen at, state.archivedPodsUntil; unknown for snapshots older than the field).

/**
 * What a fold from a snapshot reads of its tail before it folds it, in one pass (issue 20: the
 * query's fold of a 4,000-entry tail read it three times first, each loop one more V8 compiled
 * on the query's first calls): whether an event walks every pod (interim-instants.ts
 * walksEveryPod), the pods to look up in the archive, and what the finish-walk check reads.
 * Taken on the state as restored from the snapshot, before any archived pod is put back.
 */
export interface TailScan {
  /** An event of the tail walks every pod: the fold needs the whole archive. */
  readonly walksEveryPod: boolean;
  /**
   * The pods the tail names that the snapshot lacks, except where the tail's first mention of
   * the pod is marked as its first sighting (`firstSightings`: marked seqs, first-sightings.ts):
   * those cannot be in the archive as of the snapshot.
   */
  readonly lookUp: string[];
  /** The pods the tail names that the snapshot lacks, in the order of their first mention... */
  readonly newPods: string[];
  /** ...and the instant of that first mention: the pod's record is created there, first seen then (observe-pod.ts newRecord). */
  readonly newPodsSeenAt: number[];
  /**
   * The finish walks of the tail whose criterion's instant is known or read from the state
   * (`metAt`; none: no walk), each with how many of `newPods` the tail named before it. None
   * for a Job jobfold runs (it walks no pod against the cluster's finish).
   */
  readonly walks: { readonly newPods: number; readonly metAt: number | 'unknown' }[];
}

/** One pass over `tail` for a fold from `state`, a snapshot restored (TailScan). */
export function scanTail(state: JobState, tail: readonly JobEvent[], firstSightings: ReadonlySet<number>): TailScan {
  const lookUp: string[] = [];
  const newPods: string[] = [];
  const newPodsSeenAt: number[] = [];
  const walks: { newPods: number; metAt: number | 'unknown' }[] = [];
  let everyPod = false;
  const againstCluster = state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME;
  const skew = clockSkewOf(state.config);
  const named = new Set<string>();
  // undefined: no criterion's instant, no walk (cluster-finish.ts finishedOnCluster); 'unknown':
  // one the fold reads from the state, not from the log (an interim condition logged without it).
  let metAt: number | 'unknown' | undefined = state.outcomeMetAt;
  for (const event of tail) {
    const uid = podNamed(event);
    if (uid !== undefined) {
      if (named.has(uid)) continue;
      named.add(uid);
      if (state.pods.has(uid)) continue;
      if (!firstSightings.has(event.seq ?? 0)) lookUp.push(uid);
      if (againstCluster && 'observedAt' in event) {
        newPods.push(uid);
        newPodsSeenAt.push(observedInstant(event, skew).at);
      }
    } else if (event.type === 'CriterionMetEarlier') {
      if (!againstCluster) continue;
      const instant = parseTime(event.metAt);
      metAt = instant;
      walks.push({ newPods: newPods.length, metAt: instant });
    } else if (event.type === 'JobConditionChanged' && event.condition.status === 'True') {
      if (walksEveryPod(state, event)) everyPod = true;
      if (!againstCluster) continue;
      const { condition, evidence } = event;
      if (isInterimCondition(condition)) metAt = evidence.metAt === undefined ? 'unknown' : parseTime(evidence.metAt);
      if (isFinishWalk(event) && metAt !== undefined) walks.push({ newPods: newPods.length, metAt });
    }
  }
  return { walksEveryPod: everyPod, lookUp, newPods, newPodsSeenAt, walks };
}

/**
 * How a fold from a snapshot (`state`, the archived pods `scan.lookUp` named put back) tells
 * whether folding the tail walks, against the cluster's finish, archived pods it lacks: `none`
 * when the log tells it does not (mayWalkArchive, O(new pods + walks)); `whole` when the
 * snapshot does not tell its archived pods' instants (older than the field: conservative); else
 * `fold`: each walk is asked, as it is folded, whether its instants reached past every archived
 * pod (foldUnlessWalkReadsArchive; a criterion's instant the log does not tell, an interim
 * condition logged without it, is one the fold reads from the state).
 */
export function finishWalkCheck(state: JobState, scan: TailScan): 'none' | 'whole' | 'fold' {
  if (!mayWalkArchive(state, scan)) return 'none';
  return state.archivedPodsUntil === undefined ? 'whole' : 'fold';
}

/**
 * Folds `tail` on `state`, asking each finish walk whether it read archived pods the state lacks
 * (walkReadArchived). True when the whole tail is folded without; false at the first walk that
 * did: the state is then folded part-way, wrong, and must be dropped (the fold starts again from
 * the snapshot with the whole archive). A reader folds in place (functions/query/job-state-at.ts):
 * the walk that reads the archive is rare, and a copy of the state cost ~10 ms of every query
 * across a Job's finish at 100,000 pods.
 */
export function foldUnlessWalkReadsArchive(state: JobState, tail: readonly JobEvent[]): boolean {
  for (const event of tail) {
    evolve(state, event);
    if (isFinishWalk(event) && walkReadArchived(state)) return false;
  }
  return true;
}

/**
 * Whether folding `tail` on `state` walks archived pods it lacks (finishWalkCheck), the tail
 * folded on a copy where the log cannot tell: for the writer, which decides at each position of
 * the tail on the state itself.
 */
export function finishWalkReadsArchive(state: JobState, tail: readonly JobEvent[], scan: TailScan): boolean {
  const check = finishWalkCheck(state, scan);
  return check === 'whole' || (check === 'fold' && !foldUnlessWalkReadsArchive(cloneState(state), tail));
}

/**
 * The folds that walk every pod against the cluster's finish: Complete or Failed set,
 * CriterionMetEarlier, and FailureTarget, whose recount leaves out the pods the cluster never saw
 * (observe-pod.ts recountAll; seed 8: a snapshot archived the pod the cluster waited for, and the
 * query left a running pod uncounted, failed 0 where the replay said 1).
 */
const isFinishWalk = (event: JobEvent): boolean =>
  event.type === 'CriterionMetEarlier' ||
  (event.type === 'JobConditionChanged' && event.condition.status === 'True' && FINISH_WALKS.has(event.condition.type));
const FINISH_WALKS: ReadonlySet<string> = new Set(['Complete', 'Failed', 'FailureTarget']);

/**
 * After a walk folded on `state` without archived pods seen until `state.archivedPodsUntil`:
 * whether they would have changed it. Every archived pod is finished, and none was seen after
 * that instant: once the instant the cluster finished the Job and the one a fold in the
 * cluster's order finished it (cluster-finish.ts) reach it without them, each archived pod was
 * seen by both and ended by then, and moves neither (each walk only pushes its instant later,
 * and stops only at an unfinished pod); none is one the cluster never saw. Only an Indexed
 * Job's final status reads the pods seen at such a pod's index (late-outcome.ts
 * takeOutUnseenCounts): there a pod the fold holds first seen after the finish asks for them.
 * O(pods), as the walk it checks.
 */
function walkReadArchived(state: JobState): boolean {
  const until = state.archivedPodsUntil;
  if (until === undefined) return true;
  if (until === -Infinity) return false;
  const finishedAt = finishedOnCluster(state);
  if (finishedAt === undefined) return false;
  if (finishedAt < until) return true;
  const inOrder = finishedInClusterOrder(state);
  if (inOrder !== undefined && inOrder < until) return true;
  if (state.settings?.indexed === false) return false;
  for (const pod of state.pods.values()) if (unseenBy(pod, finishedAt)) return true;
  return false;
}

/**
 * Whether a finish walk of the tail may read archived pods the state lacks: at a walk, the
 * criterion's instant is unknown, or an archived pod was seen after it (archivedPodsUntil), or,
 * for an Indexed Job, a pod the fold holds then was first seen after it (walkReadArchived asks
 * for the pods seen at its index). The newest first sighting of a pod the fold holds: kept live
 * or restored by name (state.newestPodFirstSeen), or new in the tail, first seen at its first
 * mention (scanTail; a later observation only moves a pod's first sighting earlier,
 * pod-record.ts noteSeen). Before 2026-11-29 every observation of a pod the state lacked was
 * read, the latest of them (never before the first): `fold` where the first mentions tell `none`
 * (the query bench's Job view: stored-orders.property.spec.ts holds the pass to the loops' answers).
 */
function mayWalkArchive(state: JobState, scan: TailScan): boolean {
  if (scan.walks.length === 0) return false;
  const until = state.archivedPodsUntil;
  if (until === undefined) return true;
  // Only an Indexed Job's final status reads the pods seen at an unseen pod's index (takeOutUnseenCounts).
  const byIndex = state.settings?.indexed !== false;
  let newestFirstSeen = state.newestPodFirstSeen;
  let k = 0;
  for (const { newPods, metAt } of scan.walks) {
    if (metAt === 'unknown' || until > metAt) return true;
    if (!byIndex) continue;
    // A pod named by then that no restore put back: the tail creates it.
    for (; k < newPods; k++) if (!state.pods.has(scan.newPods[k] as string)) newestFirstSeen = Math.max(newestFirstSeen, scan.newPodsSeenAt[k] as number);
    if (newestFirstSeen > metAt) return true;
  }
  return false;
}
