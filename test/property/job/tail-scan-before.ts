import { expect } from 'vitest';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import { parseTime } from '../../../shared/k8s/time.ts';
import { observedInstant } from '../../../shared/job/cluster-clock.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { podNamed } from '../../../shared/job/first-sightings.ts';
import { finishWalkCheck, foldUnlessWalkReadsArchive, scanTail } from '../../../shared/job/finish-walk.ts';
import { isInterimCondition, walksEveryPod } from '../../../shared/job/interim-instants.ts';
import { countAtSync } from '../../../shared/job/observe-pod.ts';
import { cloneState, restoreArchived, restoreSnapshot, type JobSnapshot } from '../../../shared/job/snapshot.ts';
import { clockSkewOf, type JobState } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { CLUSTER, JOB_UID } from '../../support/builders.ts';
import type { StoredLog } from './stored-log.ts';

// Issue 20: a fold from a snapshot read its tail three times before folding it (walksEveryPod,
// podsToLookUp, the finish-walk check's mayWalkArchive), and the check read every observation of
// a pod the state lacked; finish-walk.ts scanTail reads it once, each new pod's first mention
// only. Kept here as they were at a38c0dc (shared/job/first-sightings.ts, finish-walk.ts), so the
// stored-order property (stored-orders.property.spec.ts) can hold the one pass to their answers.

const STREAM: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: JOB_UID };

/** podsToLookUp at a38c0dc. */
function podsToLookUpBefore(state: JobState, tail: readonly JobEvent[], firstSightings: ReadonlySet<number>): string[] {
  const named = new Set<string>();
  const missing: string[] = [];
  for (const event of tail) {
    const uid = podNamed(event);
    if (uid === undefined || named.has(uid)) continue;
    named.add(uid);
    if (!state.pods.has(uid) && !firstSightings.has(event.seq ?? 0)) missing.push(uid);
  }
  return missing;
}

const FINISH_WALKS: ReadonlySet<string> = new Set(['Complete', 'Failed', 'FailureTarget']);
const isFinishWalk = (event: JobEvent): boolean =>
  event.type === 'CriterionMetEarlier' ||
  (event.type === 'JobConditionChanged' && event.condition.status === 'True' && FINISH_WALKS.has(event.condition.type));

/** mayWalkArchive at a38c0dc: every observation of a pod the state lacks counted. */
function mayWalkArchiveBefore(state: JobState, tail: readonly JobEvent[]): boolean {
  if (state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME) return false;
  const skew = clockSkewOf(state.config);
  let metAt: number | 'unknown' | undefined = state.outcomeMetAt;
  let newestFirstSeen = state.newestPodFirstSeen;
  const byIndex = state.settings?.indexed !== false;
  const readsArchive = (): boolean => {
    if (metAt === undefined) return false;
    if (metAt === 'unknown' || state.archivedPodsUntil === undefined) return true;
    return state.archivedPodsUntil > metAt || (byIndex && newestFirstSeen > metAt);
  };
  for (const event of tail) {
    const uid = podNamed(event);
    if (uid !== undefined) {
      if (!state.pods.has(uid) && 'observedAt' in event) newestFirstSeen = Math.max(newestFirstSeen, observedInstant(event, skew).at);
      continue;
    }
    if (event.type === 'CriterionMetEarlier') {
      metAt = parseTime(event.metAt);
      if (readsArchive()) return true;
    } else if (event.type === 'JobConditionChanged' && event.condition.status === 'True') {
      const { condition, evidence } = event;
      if (isInterimCondition(condition)) metAt = evidence.metAt === undefined ? 'unknown' : parseTime(evidence.metAt);
      if (!isFinishWalk(event)) continue;
      if (readsArchive()) return true;
    }
  }
  return false;
}

/** What a fold from the snapshot decided before the tail: the whole archive for a walk of every pod, else the finish-walk check. */
export type TailCheck = 'every-pod' | 'none' | 'whole' | 'fold';

/**
 * The query's fold to `seq` (stored-log.ts queryFold) from the newest snapshot at or before it,
 * asked before the tail is folded both ways: the one pass (scanTail, finishWalkCheck) and the
 * three loops as they were. Expects the same pods looked up and the same walk of every pod; the
 * same finish-walk check, or `none` where the loops said `fold` and the fold across the walks
 * reads no archived pod (the later observations they read cannot move a first sighting later),
 * with the same view. Returns both checks (undefined: no snapshot).
 */
export async function expectScanAsBefore(log: StoredLog, seq: number): Promise<{ before: TailCheck; now: TailCheck } | undefined> {
  const stored = log.snapshotAt(seq);
  if (stored === undefined) return undefined;
  const tail = log.entries.slice(stored.seq, seq);
  const restored = (): JobState => restoreSnapshot(JSON.parse(stored.snapshot) as JobSnapshot);
  const [before, now] = [restored(), restored()];
  const scan = scanTail(now, tail, log.firstSightings);
  const lookUp = podsToLookUpBefore(before, tail, log.firstSightings);
  const everyPod = tail.some((event) => walksEveryPod(before, event));
  expect({ seq, lookUp: scan.lookUp, everyPod: scan.walksEveryPod }).toEqual({ seq, lookUp, everyPod });
  if (everyPod) return { before: 'every-pod', now: 'every-pod' };
  // The named pods put back as archive-restore.ts Restorer puts them (seq before the snapshot's next).
  const archived = await log.archive.loadArchivedPods(STREAM, lookUp);
  for (const state of [before, now]) restoreArchived(state, archived.filter((pod) => pod.seq < state.nextPodSeq && !state.pods.has(pod.uid)));
  const checkBefore: TailCheck = !mayWalkArchiveBefore(before, tail) ? 'none' : before.archivedPodsUntil === undefined ? 'whole' : 'fold';
  const checkNow = finishWalkCheck(now, scan);
  if (checkNow !== checkBefore) {
    expect({ seq, checkBefore, checkNow }).toEqual({ seq, checkBefore: 'fold', checkNow: 'none' });
    // then the fold the loops asked for reads no archived pod, and the unchecked fold ends where it does
    const checked = cloneState(before);
    expect({ seq, foldedWithoutArchive: foldUnlessWalkReadsArchive(checked, tail) }).toEqual({ seq, foldedWithoutArchive: true });
    for (const event of tail) evolve(now, event);
    countAtSync(checked);
    countAtSync(now);
    expect({ seq, status: jobStatus(now) }).toEqual({ seq, status: jobStatus(checked) });
  }
  return { before: checkBefore, now: checkNow };
}
