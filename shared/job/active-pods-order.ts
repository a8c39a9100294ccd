import type { PodRecord } from './pod-record.ts';

const PHASE_ORDER: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * Upstream `controller.ActivePods` ordering, least advanced first: unscheduled before
 * scheduled, Pending < Unknown < Running, not ready before ready, ready more recently first,
 * more container restarts first, newer first. Deletions take pods from the front.
 */
export function byLeastAdvanced(a: PodRecord, b: PodRecord): number {
  if (a.assigned !== b.assigned) return a.assigned ? 1 : -1;
  const phase = (PHASE_ORDER[a.phase] ?? 0) - (PHASE_ORDER[b.phase] ?? 0);
  if (phase !== 0) return phase;
  if (a.ready !== b.ready) return a.ready ? 1 : -1;
  if (a.ready && b.ready && a.readySince !== b.readySince) {
    return afterOrZero(a.readySince, b.readySince) ? -1 : 1;
  }
  if (a.maxRestarts !== b.maxRestarts) return b.maxRestarts - a.maxRestarts;
  if (a.creationTimestamp !== b.creationTimestamp) {
    return afterOrZero(a.creationTimestamp, b.creationTimestamp) ? -1 : 1;
  }
  return 0;
}

/** Upstream `afterOrZero`: a missing time sorts first, otherwise the later time does. */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined;
  return t1 > t2;
}
