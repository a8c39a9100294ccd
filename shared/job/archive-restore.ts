import type { StreamId } from '../log/event-store.ts';
import type { PodArchive } from '../log/pod-archive.ts';
import type { JobEvent } from './evolve.ts';
import { podsToLookUp } from './first-sightings.ts';
import { finishWalkReadsArchive } from './finish-walk.ts';
import { walksEveryPod } from './interim-instants.ts';
import { outcomeReadsArchivedInstants, restoreArchived, type ArchivedPod } from './snapshot.ts';
import type { JobState } from './state.ts';

// What a fold from a snapshot puts back from the pod archive before it folds the tail: the
// writer's cold load (decider.ts) and the query API's fold to a log position
// (functions/query/job-state-at.ts) both ask here, so the rule is one.
//
// The archive holds each pod as it settled for good, which may be after the snapshot's position
// (the query folds from older snapshots too): a pod first seen after the snapshot (its listing
// order `seq` >= the snapshot's `nextPodSeq`) is left for the tail to create, so the fold sees it
// exactly as it was then.

/**
 * What comes after the restore: `decide` (the writer decides at each position of the tail; for a
 * Job with a success policy a decision reads every pod's instant: finish-condition.ts firstMet,
 * outcome-correction.ts correctOutcome, suspension-order.ts), `decide-whole` (the writer decides
 * again a batch whose decisions read every pod: interim-instants.ts readsEveryPod), or `fold` (a
 * reader only folds the tail, and reads every pod's instant only where an interim condition was
 * logged without the instants it notes: interim-instants.ts walksEveryPod, an older log).
 */
export type AfterRestore = 'decide' | 'decide-whole' | 'fold';

/**
 * Restores the archived pods the state needs before `tail`, and returns them, whether they are
 * the whole archive, for a `fold` the state with `tail` already folded if the finish-walk check
 * folded it on a copy (`folded`), and whether one of them was stored by a save after the snapshot
 * (`newerThanSnapshot`: a pod archived at or before the snapshot whose form changed later, and was
 * archived again, pod-record.ts storedAs). Such a form is ahead of the snapshot: it may count what
 * the snapshot's counts do not, and a fold to a position before that save must not take it (the
 * query then folds from the start, functions/query/job-state-at.ts). The writer loads the newest
 * snapshot, after every save but one a crash cut short. The rule for the pods restored:
 * - every archived pod when what follows reads every pod's instants: the writer deciding for a
 *   Job whose outcome reads them (snapshot.ts outcomeReadsArchivedInstants) or a batch whose
 *   decisions do (`decide-whole`), a fold whose tail walks every pod. The fold then holds the
 *   instants a fold of the whole log holds (issues 20, 21), whenever snapshots were taken;
 * - else the pods `tail` names that the snapshot lacks, except those whose first mention is
 *   marked as their first sighting (first-sightings.ts): those cannot be in the archive as of
 *   the snapshot, and on a big Job nearly every pod a tail names is new.
 * The whole archive of a 100,000-pod Job is ~600-900 read units, the named pods of the query
 * bench's tails ~26.
 */
export async function restoreForTail(
  archive: Pick<PodArchive, 'loadArchivedPods' | 'loadAllArchivedPods'>,
  stream: StreamId,
  state: JobState,
  tail: readonly JobEvent[],
  firstSightings: ReadonlySet<number>,
  after: AfterRestore,
): Promise<{ restored: ArchivedPod[]; whole: boolean; newerThanSnapshot: boolean; folded?: JobState }> {
  let whole = after === 'decide-whole' || (after === 'decide' && outcomeReadsArchivedInstants(state)) || tail.some((event) => walksEveryPod(state, event));
  const position = state.position;
  const restored: ArchivedPod[] = [];
  let newerThanSnapshot = false;
  const restore = (archived: readonly ArchivedPod[]): void => {
    const before = archived.filter((pod) => pod.seq < state.nextPodSeq && !state.pods.has(pod.uid));
    if (before.some((pod) => (pod.archivedAt ?? 0) > position)) newerThanSnapshot = true;
    restoreArchived(state, before);
    restored.push(...before);
  };
  let folded: JobState | undefined;
  if (!whole) {
    const missing = podsToLookUp(state, tail, firstSightings);
    if (missing.length > 0) restore(await archive.loadArchivedPods(stream, missing));
    // Only now: the named pods' first sightings count (finish-walk.ts).
    ({ readsArchive: whole, folded } = finishWalkReadsArchive(state, tail));
  }
  if (whole) {
    restore(await archive.loadAllArchivedPods(stream));
    // Every archived pod is in the state: the next snapshot's archive is its own settled pods.
    state.archivedPodsUntil = -Infinity;
  }
  // A reader that only folds may take the tail the check folded on a copy (`fold` only: the
  // writer decides at each position of it).
  return { restored, whole, newerThanSnapshot, ...(after === 'fold' && folded !== undefined ? { folded } : {}) };
}
