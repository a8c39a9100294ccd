import { leave, enter } from './aggregates.ts';
import { rejudgeIndexes } from './counting.ts';
import { EXPECTATIONS_TIMEOUT_MS } from '../k8s/job-controller.ts';
import { isTerminalPhase, type PodRecord } from './pod-record.ts';
import { revokeRunCount } from './run.ts';
import { entryAt } from './cluster-clock.ts';
import type { JobState } from './state.ts';

// Upstream's manageJob deletes the active pods beyond `parallelism` (`deleteJobPods`), and
// removes each one's tracking finalizer before the DELETE: a pod deleted as excess is never
// counted, neither failed nor succeeded. jobfold decides that excess itself when it reads the
// lowered parallelism (manage-pods.ts), so the deletion answers its own termination. But the
// update can arrive after the deletions it caused, or after evidence from later on the
// cluster's clock (a work queue's first success, after which nothing is excess): jobfold then
// never decides the excess, and the deletions, seen before anything said how the pods ended,
// would count as upstream's `isPodFailed` counts a deleted pod (observe-pod.ts inferOutcome).
//
// So the fold keeps the Job's parallelism over the cluster's clock, one entry per change, and
// a pod deleted without an outcome while a lowering was being enacted — at or after the
// observation that lowered parallelism, before the next change and within the expectations
// timeout of it (the controller deletes the excess in the syncs right after the update) — is
// taken as one of its excess deletions, as many as the lowering made excess at most. Whichever
// of the update and the deletions arrives first: a deletion counted failed before the update
// arrived is taken back when it does (conditions already decided on that count stay).

/** The Job's parallelism (and completions) from an instant on the cluster's clock (epoch ms). */
export interface ParallelismAt {
  readonly at: number;
  readonly parallelism: number;
  /**
   * Elastic Indexed Jobs: the completions in force, by which a pod's failure counts (counting.ts
   * countableIndex). Absent in entries kept before it was (the spec's completions stands in).
   */
  readonly completions?: number;
  /** Pods whose deletion is taken as this lowering's excess deletion (at most the lowering). */
  readonly excused: string[];
}

/** Entries kept: the newest changes (a Job's parallelism changes a few times in its life). */
const MAX_CHANGES = 16;

/** Whether `parallelism` and `completions` at `at` are news to the Job's history (noteParallelism would record them). */
export function tellsParallelism(state: JobState, at: number, parallelism: number, completions: number | undefined): boolean {
  const before = state.parallelismChanges[entryAt(state.parallelismChanges, at)];
  return before?.at !== at && (before?.parallelism !== parallelism || before.completions !== completions);
}

/**
 * Notes a Job observation's parallelism and completions at its instant (stale ones too: the
 * history is ordered by the cluster's clock, not by arrival), then takes back the failures
 * counted for deletions a lowering now shows excess. Returns whether it was news.
 */
export function noteParallelism(state: JobState, at: number, parallelism: number, completions: number | undefined): boolean {
  if (!tellsParallelism(state, at, parallelism, completions)) return false;
  const changes = state.parallelismChanges;
  const i = entryAt(changes, at) + 1;
  changes.splice(i, 0, { at, parallelism, completions, excused: [] });
  // The next entry may now repeat this one: the change was made at this one's instant, and the
  // excess deletions it excused are this one's. It stays in the timeline: a change arriving
  // later may fall between them (elastic-indexed__scale-down-then-up, the raise, then the first
  // spec, then the lowering between them, arrived: merged, the lowering lasted to the end).
  const next = changes[i + 1];
  if (next !== undefined && sameSpec(next, changes[i] as ParallelismAt)) {
    (changes[i] as ParallelismAt).excused.push(...next.excused);
    next.excused.length = 0;
  }
  if (changes.length > MAX_CHANGES) changes.splice(0, changes.length - MAX_CHANGES);
  excuseInferredDeletions(state);
  return true;
}

/**
 * Whether a pod deleted at `at`, before anything said how it ended, was deleted as excess by a
 * lowering of parallelism (and is then recorded as one of its excess deletions).
 */
export function deletedAsExcess(state: JobState, pod: PodRecord, at: number): boolean {
  const changes = state.parallelismChanges;
  const { first: i, next } = changeInForce(changes, entryAt(changes, at));
  const excess = lowering(state, i);
  if (excess === undefined) return false;
  const change = changes[i] as ParallelismAt;
  if (at > change.at + EXPECTATIONS_TIMEOUT_MS || (next !== undefined && at >= next.at)) return false;
  if (change.excused.includes(pod.uid)) return true;
  if (change.excused.length >= excess) return false;
  change.excused.push(pod.uid);
  return true;
}

const sameSpec = (a: ParallelismAt, b: ParallelismAt): boolean => a.parallelism === b.parallelism && a.completions === b.completions;

/** The run of entries repeating the one at `i` (noteParallelism keeps them): its first, the change, and the next entry that differs. */
function changeInForce(changes: readonly ParallelismAt[], i: number): { readonly first: number; readonly next: ParallelismAt | undefined } {
  const entry = changes[i];
  if (entry === undefined) return { first: i, next: changes[i + 1] };
  let first = i;
  while (first > 0 && sameSpec(changes[first - 1] as ParallelismAt, entry)) first--;
  let next = i + 1;
  while (next < changes.length && sameSpec(changes[next] as ParallelismAt, entry)) next++;
  return { first, next: changes[next] };
}

/** The Job's parallelism at an instant on the cluster's clock (its first known before any change). */
export function parallelismAt(state: JobState, at: number): number {
  const changes = state.parallelismChanges;
  return changes[Math.max(0, entryAt(changes, at))]?.parallelism ?? state.settings?.parallelism ?? 1;
}

/** The Job's completions at an instant on the cluster's clock (its first known before any change; else the spec's). */
export function completionsAt(state: JobState, at: number): number {
  const changes = state.parallelismChanges;
  return changes[Math.max(0, entryAt(changes, at))]?.completions ?? state.settings?.completions ?? 0;
}

/**
 * The fewest completions in force from an instant on the cluster's clock to now (the spec's
 * included): an index completed then stays completed only below it (counting.ts).
 */
export function completionsSince(state: JobState, at: number): number {
  const changes = state.parallelismChanges;
  let fewest = state.settings?.completions ?? 0;
  for (let i = Math.max(0, entryAt(changes, at)); i < changes.length; i++) {
    const completions = (changes[i] as ParallelismAt).completions;
    if (completions !== undefined && completions < fewest) fewest = completions;
  }
  return fewest;
}

/** How many pods the change at `i` made excess, if it lowered parallelism. */
function lowering(state: JobState, i: number): number | undefined {
  const change = state.parallelismChanges[i];
  const before = state.parallelismChanges[i - 1];
  if (change === undefined || before === undefined || change.parallelism >= before.parallelism) return undefined;
  return before.parallelism - change.parallelism;
}

/** Pods counted failed by their deletion (state.inferred) that a lowering made excess: not counted after all. */
function excuseInferredDeletions(state: JobState): void {
  for (const uid of [...state.inferred.keys()]) {
    const pod = state.pods.get(uid);
    if (pod === undefined || !pod.gone || pod.strippedLive === true || isTerminalPhase(pod.phase) || pod.deletionTimestamp === undefined) continue;
    if (!deletedAsExcess(state, pod, pod.deletionTimestamp)) continue;
    leave(state, pod);
    rejudgeIndexes(state, revokeRunCount(state, uid, state.inferred), uid);
    enter(state, pod);
  }
}
