import type { JobEvent } from './evolve.ts';
import type { PodRecord } from './pod-record.ts';
import type { JobState } from './state.ts';

// Upstream counts pods once per sync, on the informer's snapshot: what a pod looked like in
// between two syncs never counts. The fold counts as observations arrive, and a run of
// observations sharing one observedAt is what one sync reads (decide-at-each-position.ts), so a
// count taken from a pod's state *before* the last one of the run must yield to that last one.
// Only counts of a pod that was not terminal yet can be overtaken (a terminal phase is final):
//  - the Job is failing, so a running pod it still tracks counts as failed;
//  - without Failed-only replacement, a terminating pod counts as failed.
// If the same run then shows the pod Failed under an Ignore rule, Succeeded, or without its
// finalizer, the sync would have counted it that way (or not at all), so the count is taken back
// and the newest state counted. A decision ends the run: what the sync counted stays counted.

/** What a count taken in this run changed besides `failed`, so it can be taken back. */
export interface RunCount {
  /** The finish time the count added to the recreation backoff's failures, if it added one. */
  readonly failureTime?: number;
}

/** Starts a new run when the event is a decision or an observation of another time. */
export function enterRun(state: JobState, event: JobEvent): void {
  const at = 'observedAt' in event ? event.observedAt : undefined;
  if (at !== undefined && at === state.run.at) return;
  state.run.at = at;
  if (state.run.counts.size > 0) state.run.counts = new Map();
}

/** Remembers that this run counted the pod as failed while it was not terminal yet. */
export function countedBeforeTerminal(state: JobState, pod: PodRecord, count: RunCount): void {
  state.run.counts.set(pod.uid, count);
}

/**
 * Before a newer observation of the pod is folded: takes back a count this run took from an
 * earlier state of the pod, so the newer state is counted as the sync would count it.
 */
export function revokeRunCount(state: JobState, pod: PodRecord): void {
  const count = state.run.counts.get(pod.uid);
  if (count === undefined) return;
  state.run.counts.delete(pod.uid);
  if (pod.counted === 'failed') state.status.failed -= 1;
  pod.counted = 'none';
  if (count.failureTime !== undefined) {
    const times = state.backoff.failureTimes;
    const at = times.lastIndexOf(count.failureTime);
    if (at >= 0) times.splice(at, 1);
  }
}
