import { IndexSet } from '../indexes/index-set.ts';
import type { JobEvent } from './evolve.ts';
import type { JobState } from './state.ts';
import { parseTime } from '../k8s/time.ts';

// Upstream counts pods once per sync, on the informer's snapshot: what a pod looked like in
// between two syncs never counts. A run of observations sharing one observedAt is what one sync
// reads (decide-at-each-position.ts), and a pod's observation is counted by that sync, from the
// pod's newest facts (observe-pod.ts countAtSync). The rules that still count as an observation
// is folded (a deletion's inferred count, an observation of a finished Job, which no sync
// follows) must yield to a later observation of the same pod in the same run. Examples: a
// running pod counted as failed because the Job is failing, then seen Failed under an Ignore
// rule or Succeeded; a terminating pod counted as failed by its deletion, then seen Succeeded
// or without its finalizer. So the counting rules keep a journal of what each observation changed; a later
// observation of that pod in the run first undoes it, then is counted from the newest state.
// A decision ends the run: what the sync counted stays counted. What an observation of a
// terminal pod counts is final (the phase never changes again, and a finalizer removed later is
// the controller acknowledging that count), so those observations are not journaled.
// Within a run, `failed` may therefore go down; the status a sync writes never does.

/** One change the counting rules made, with what it takes to undo it. */
export type RunChange =
  | { readonly kind: 'counted'; readonly uid: string; readonly failureTime?: number }
  | { readonly kind: 'failedIndex'; readonly index: number }
  | { readonly kind: 'held'; readonly index: number; readonly uid: string; readonly countable: boolean }
  | { readonly kind: 'released'; readonly index: number; readonly uid: string; readonly countable: boolean };

export interface Run {
  /** The observedAt of the run; undefined after a decision. */
  at: string | undefined;
  /** Per pod, what this run's observations of it changed, oldest first. */
  changes: Map<string, RunChange[]>;
  /** The journal of the observation being counted, while it is. */
  open: RunChange[] | undefined;
}

export const newRun = (): Run => ({ at: undefined, changes: new Map(), open: undefined });

/**
 * Starts a new run when the event is a decision or an observation of another time;
 * `observedMs` is the observation's observedAt as epoch ms (evolve reads it once per event).
 */
export function enterRun(state: JobState, event: JobEvent, observedMs: number | undefined): void {
  if (!startsRun(state, event, observedMs)) return;
  state.run.at = 'observedAt' in event ? event.observedAt : undefined;
  if (state.run.changes.size > 0) state.run.changes = new Map();
}

/** Whether the event ends the run the fold is in (enterRun's test, without entering). */
export function startsRun(state: JobState, event: JobEvent, observedMs: number | undefined): boolean {
  const at = 'observedAt' in event ? event.observedAt : undefined;
  return !(at !== undefined && state.run.at !== undefined && (at === state.run.at || observedMs === parseTime(state.run.at)));
}

/**
 * Journals what the counting rules do for this pod's observation (see `journal`), in the run's
 * journal or another one (`into`: the counts a deletion inferred, observe-pod.ts).
 */
export function countingObservation(
  state: JobState,
  uid: string,
  journaled: boolean,
  count: () => void,
  into: Map<string, RunChange[]> = state.run.changes,
): void {
  if (!journaled) return count();
  const open: RunChange[] = [];
  state.run.open = open;
  try {
    count();
  } finally {
    state.run.open = undefined;
  }
  if (open.length > 0) into.set(uid, [...(into.get(uid) ?? []), ...open]);
}

/** Called by the counting rules for each change they make. */
export function journal(state: JobState, change: RunChange): void {
  state.run.open?.push(change);
}

/**
 * Before a newer observation of the pod is folded: undoes what this run's older ones changed.
 * Returns the indexes whose failure it took back (another pod may have failed them too).
 */
export function revokeRunCount(state: JobState, uid: string, from: Map<string, RunChange[]> = state.run.changes): number[] {
  const changes = from.get(uid);
  if (changes === undefined) return [];
  from.delete(uid);
  for (let i = changes.length - 1; i >= 0; i--) undo(state, changes[i] as RunChange);
  return changes.flatMap((c) => (c.kind === 'failedIndex' ? [c.index] : []));
}

function undo(state: JobState, change: RunChange): void {
  switch (change.kind) {
    case 'counted': {
      const pod = state.pods.get(change.uid);
      if (!pod) return;
      if (pod.counted === 'failed') state.status.failed -= 1;
      pod.counted = 'none';
      if (change.failureTime !== undefined) {
        const times = state.backoff.failureTimes;
        const at = times.lastIndexOf(change.failureTime);
        if (at >= 0) times.splice(at, 1);
      }
      return;
    }
    case 'failedIndex':
      state.status.failedIndexes = without(state.status.failedIndexes, change.index);
      return;
    case 'held':
      if (state.held.get(change.index) !== change.uid) return;
      state.held.delete(change.index);
      if (change.countable) state.heldCountable -= 1;
      return;
    case 'released':
      state.held.set(change.index, change.uid);
      if (change.countable) state.heldCountable += 1;
      return;
    default: {
      const exhaustive: never = change;
      throw new Error(`unknown run change ${JSON.stringify(exhaustive)}`);
    }
  }
}

function without(set: IndexSet, index: number): IndexSet {
  const intervals: (readonly [number, number])[] = [];
  for (const [first, last] of set.intervals()) {
    if (index < first || index > last) intervals.push([first, last]);
    else {
      if (first < index) intervals.push([first, index - 1]);
      if (index < last) intervals.push([index + 1, last]);
    }
  }
  return IndexSet.fromIntervals(intervals);
}
