import type { StreamId } from '../log/event-store.ts';
import type { PodArchive } from '../log/pod-archive.ts';
import { evolve, type JobEvent } from './evolve.ts';
import { finishWalkCheck, finishWalkReadsArchive, foldUnlessWalkReadsArchive, scanTail } from './finish-walk.ts';
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
 * What comes after the restore, for the writer: `decide` (it decides at each position of the
 * tail; for a Job with a success policy a decision reads every pod's instant:
 * finish-condition.ts firstMet, outcome-correction.ts correctOutcome, suspension-order.ts) or
 * `decide-whole` (it decides again a batch whose decisions read every pod:
 * interim-instants.ts readsEveryPod). A reader that only folds asks foldFromSnapshot.
 */
export type AfterRestore = 'decide' | 'decide-whole';

/**
 * Restores the archived pods the state needs before `tail`, and returns them, whether they are
 * the whole archive, and whether one of them was stored by a save after the snapshot
 * (`newerThanSnapshot`: a pod archived at or before the snapshot whose form changed later, and was
 * archived again, pod-record.ts storedAs). Such a form is ahead of the snapshot: it may count what
 * the snapshot's counts do not, and a fold to a position before that save must not take it (the
 * query then folds from the start, functions/query/job-state-at.ts). The writer loads the newest
 * snapshot, after every save but one a crash cut short. The rule for the pods restored:
 * - every archived pod when what follows reads every pod's instants: the writer deciding for a
 *   Job whose outcome reads them (snapshot.ts outcomeReadsArchivedInstants) or a batch whose
 *   decisions do (`decide-whole`), a fold whose tail walks every pod (interim-instants.ts
 *   walksEveryPod: an interim condition logged without the instants it notes, an older log) or
 *   walks archived pods against the cluster's finish (finish-walk.ts). The fold then holds the
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
): Promise<{ restored: ArchivedPod[]; whole: boolean; newerThanSnapshot: boolean }> {
  const restorer = new Restorer(archive, stream, state);
  const scan = scanTail(state, tail, firstSightings);
  let whole = after === 'decide-whole' || outcomeReadsArchivedInstants(state) || scan.walksEveryPod;
  if (!whole) {
    await restorer.named(scan.lookUp);
    // Only now: the named pods' first sightings count (finish-walk.ts). Checked on a copy: the
    // writer decides at each position of the tail on the state itself.
    whole = finishWalkReadsArchive(state, tail, scan);
  }
  if (whole) await restorer.whole();
  return { restored: restorer.restored, whole, newerThanSnapshot: restorer.newerThanSnapshot };
}

/**
 * A reader's fold of `tail` on `state` restored from a snapshot: the archived pods restoreForTail's
 * rule puts back, then the tail, folded in place. `folded`: the state holds the tail folded;
 * `newer-than-snapshot`: an archived pod's form was stored after the snapshot (restoreForTail),
 * nothing folded; `walk-read-archive`: a finish walk of the tail read archived pods the state
 * lacked (finish-walk.ts), the state is spent, and the fold starts again from the snapshot with
 * `whole` (rare: the query bench's folds across the finish never do). Checking as it folds, not
 * on a copy first, saves the copy (~10 ms of every query across a Job's finish at 100,000 pods).
 */
export async function foldFromSnapshot(
  archive: Pick<PodArchive, 'loadArchivedPods' | 'loadAllArchivedPods'>,
  stream: StreamId,
  state: JobState,
  tail: readonly JobEvent[],
  firstSightings: ReadonlySet<number>,
  whole: boolean,
): Promise<'folded' | 'newer-than-snapshot' | 'walk-read-archive'> {
  const restorer = new Restorer(archive, stream, state);
  const scan = whole ? undefined : scanTail(state, tail, firstSightings);
  let check: 'none' | 'whole' | 'fold' = scan === undefined || scan.walksEveryPod ? 'whole' : 'none';
  if (scan !== undefined && check === 'none') {
    await restorer.named(scan.lookUp);
    check = finishWalkCheck(state, scan);
  }
  if (check === 'whole') await restorer.whole();
  if (restorer.newerThanSnapshot) return 'newer-than-snapshot';
  if (check === 'fold') return foldUnlessWalkReadsArchive(state, tail) ? 'folded' : 'walk-read-archive';
  for (const event of tail) evolve(state, event);
  return 'folded';
}

/** Puts archived pods back on a state restored from a snapshot, noting what it put back. */
class Restorer {
  readonly restored: ArchivedPod[] = [];
  newerThanSnapshot = false;
  private readonly archive: Pick<PodArchive, 'loadArchivedPods' | 'loadAllArchivedPods'>;
  private readonly stream: StreamId;
  private readonly state: JobState;
  /** The snapshot's position: a pod archived after it is ahead of the snapshot. */
  private readonly position: number;

  constructor(archive: Pick<PodArchive, 'loadArchivedPods' | 'loadAllArchivedPods'>, stream: StreamId, state: JobState) {
    this.archive = archive;
    this.stream = stream;
    this.state = state;
    this.position = state.position;
  }

  /** The pods the tail names that the snapshot lacks and may hold (finish-walk.ts scanTail). */
  async named(missing: readonly string[]): Promise<void> {
    if (missing.length > 0) this.restore(await this.archive.loadArchivedPods(this.stream, missing));
  }

  /** Every archived pod: the next snapshot's archive is then the state's own settled pods. */
  async whole(): Promise<void> {
    this.restore(await this.archive.loadAllArchivedPods(this.stream));
    this.state.archivedPodsUntil = -Infinity;
  }

  private restore(archived: readonly ArchivedPod[]): void {
    const { state } = this;
    const before = archived.filter((pod) => pod.seq < state.nextPodSeq && !state.pods.has(pod.uid));
    if (before.some((pod) => (pod.archivedAt ?? 0) > this.position)) this.newerThanSnapshot = true;
    restoreArchived(state, before);
    this.restored.push(...before);
  }
}
