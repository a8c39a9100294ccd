import type { JobState } from './state.ts';
import { podClass, type PodRecord } from './pod-record.ts';

/**
 * The running counts a pod contributes to: active, ready, terminating, restarts, and for
 * Indexed Jobs the per-index bookkeeping. `evolve` calls `leave` before changing a record and
 * `enter` after, so every count stays exact in O(1) per event.
 */
export function enter(state: JobState, pod: PodRecord): void {
  apply(state, pod, +1);
}

export function leave(state: JobState, pod: PodRecord): void {
  apply(state, pod, -1);
}

function apply(state: JobState, pod: PodRecord, sign: 1 | -1): void {
  const counts = state.counts;
  if (!pod.gone && (pod.phase === 'Running' || pod.phase === 'Pending')) {
    counts.restartsOfRunningPods += sign * pod.restartCount;
  }
  const cls = podClass(pod);
  const completions = state.settings?.completions ?? 0;
  const indexed = state.settings?.indexed ?? false;
  const validIndex = pod.index >= 0 && pod.index < completions;
  if (cls === 'active') {
    counts.active += sign;
    if (pod.ready) counts.ready += sign;
    if (indexed) {
      if (validIndex) bumpIndex(state, pod.index, sign);
      else if (sign > 0) state.invalidActive.add(pod.uid);
      else state.invalidActive.delete(pod.uid);
    }
  } else if (cls === 'terminating') {
    counts.terminating += sign;
    if (indexed && validIndex) bump(state.terminatingByIndex, pod.index, sign);
  }
}

function bumpIndex(state: JobState, index: number, sign: 1 | -1): void {
  const count = bump(state.activeByIndex, index, sign);
  if (count > 1) state.duplicatedIndexes.add(index);
  else state.duplicatedIndexes.delete(index);
}

function bump(map: Map<number, number>, index: number, sign: 1 | -1): number {
  const count = (map.get(index) ?? 0) + sign;
  if (count > 0) map.set(index, count);
  else map.delete(index);
  return count;
}

/** Rebuilds every aggregate from the pod records, after the spec (completions) changed. */
export function rebuildAggregates(state: JobState): void {
  state.counts = { active: 0, ready: 0, terminating: 0, restartsOfRunningPods: 0 };
  state.activeByIndex.clear();
  state.duplicatedIndexes.clear();
  state.invalidActive.clear();
  state.terminatingByIndex.clear();
  for (const pod of state.pods.values()) enter(state, pod);
}
