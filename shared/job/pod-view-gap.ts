import type { ObjectSequence } from '../k8s/object-sequence.ts';
import { EXPECTATIONS_TIMEOUT_MS, JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
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
// Job). A Job jobfold does not run has only the termination of its lingering pods sent
// (contract/outbound.ts, isDispatched), so for it the wait holds a new outcome and those
// terminations: a pod whose `Succeeded` is in the hole would otherwise be deleted as lingering.

/** What the log holds of the forwarder's per-Job count of pod events in its newest pod epoch. */
export interface PodCounts {
  readonly epoch: number;
  /** Every count up to this one is in the log. */
  through: number;
  /** Counts beyond `through + 1` in the log, as sorted, disjoint, non-adjacent [from, to] runs. */
  ahead: [number, number][];
  /** When a count first went missing (the fold's clock, epoch ms); set while `ahead` is not empty. */
  missingSince: number | undefined;
}

/** A pod event sent for this Job, with its count (observe-pod's callers in evolve, one place). */
export function notePodCount(state: JobState, sequence: ObjectSequence | undefined, at: number): void {
  const count = sequence?.jobSeq;
  if (sequence === undefined || count === undefined) return;
  let counts = state.podCounts;
  if (counts === undefined || sequence.epoch > counts.epoch) {
    counts = { epoch: sequence.epoch, through: 0, ahead: [], missingSince: undefined };
    state.podCounts = counts;
  }
  if (sequence.epoch < counts.epoch || count <= counts.through) return;
  // Missing for longer than upstream waits on an expectation: lost, not late. Given up on.
  if (counts.missingSince !== undefined && at - counts.missingSince > EXPECTATIONS_TIMEOUT_MS) {
    counts.through = (counts.ahead.at(-1) as [number, number])[1];
    counts.ahead = [];
    counts.missingSince = undefined;
    if (count <= counts.through) return;
  }
  insert(counts, count);
  if (counts.ahead.length > 0 && counts.ahead[0]?.[0] === counts.through + 1) {
    counts.through = (counts.ahead.shift() as [number, number])[1];
  }
  if (counts.ahead.length === 0) counts.missingSince = undefined;
  else counts.missingSince ??= at;
}

function insert(counts: PodCounts, count: number): void {
  if (count === counts.through + 1) {
    counts.through = count;
    return;
  }
  const runs = counts.ahead;
  let i = 0;
  while (i < runs.length && (runs[i] as [number, number])[1] < count - 1) i++;
  const run = runs[i];
  if (run === undefined || run[0] > count + 1) {
    runs.splice(i, 0, [count, count]);
    return;
  }
  if (count >= run[0] && count <= run[1]) return; // already in the log
  if (count === run[1] + 1) {
    run[1] = count;
    const next = runs[i + 1];
    if (next !== undefined && next[0] === count + 1) {
      run[1] = next[1];
      runs.splice(i + 1, 1);
    }
  } else run[0] = count;
}

/**
 * Whether the log lacks this pod event's count: then it is logged even when it says nothing
 * new of its pod (an older version arriving late), or the count would stay missing.
 */
export function podCountUnlogged(state: JobState, sequence: ObjectSequence | undefined): boolean {
  const count = sequence?.jobSeq;
  if (sequence === undefined || count === undefined) return false;
  const counts = state.podCounts;
  if (counts === undefined || sequence.epoch > counts.epoch) return true;
  if (sequence.epoch < counts.epoch || count <= counts.through) return false;
  return !counts.ahead.some(([from, to]) => count >= from && count <= to);
}

/** Pod events sent before the newest the log holds and not in it yet, and since when (undefined: none). */
export function missingPodEvents(state: JobState): { readonly count: number; readonly since: number } | undefined {
  const counts = state.podCounts;
  if (counts === undefined || counts.missingSince === undefined || counts.ahead.length === 0) return undefined;
  let held = 0;
  for (const [from, to] of counts.ahead) held += to - from + 1;
  return { count: (counts.ahead.at(-1) as [number, number])[1] - counts.through - held, since: counts.missingSince };
}

/**
 * decide's question: true while the Job must not act on its pods because its view of them lacks
 * an event the forwarder sent before one it holds; the Job is woken when the wait runs out.
 * `managing` (creating, deleting as excess, deciding for a Job jobfold runs) waits only for a Job
 * jobfold runs; `terminating` (an outcome and its lingering pods' terminations) for every Job.
 */
export function waitForMissingPodEvents(sync: Sync, to: 'managing' | 'terminating'): boolean {
  if (to === 'managing' && sync.state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME) return false;
  const missing = missingPodEvents(sync.state);
  if (missing === undefined) return false;
  const until = missing.since + EXPECTATIONS_TIMEOUT_MS;
  if (sync.now > until) return false;
  wakeAt(sync, until + 1);
  return true;
}
