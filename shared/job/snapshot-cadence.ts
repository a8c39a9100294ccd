import type { JobState } from './state.ts';

/** The fewest entries between two snapshots (the reconcile's SNAPSHOT_EVERY). */
export const SNAPSHOT_EVERY = 50;

/**
 * The most entries between two snapshots while the Job's live pods are fewer than twice that:
 * what a cold load (a query's `status?at=`, explain, the Job view; the writer's reload) folds
 * after the snapshot at most, ~5,000 entries of pod events (a few MB of JSON).
 */
export const SNAPSHOT_GAP_MAX = 5000;

/**
 * Whether the writer stores a snapshot at `head`. A snapshot costs about its size in write
 * units (1 WCU per KB), and its size grows with the Job's live pods (~70 bytes each: a
 * 10,000-pod Job's is ~700 KB), so a fixed cadence would cost a big Job more per event than the
 * events themselves. The writer waits for max(`every`, pods / 2) entries: a snapshot's cost,
 * spread over the entries since the last one, is then at most ~140 bytes per entry however
 * big the Job. `pods` counts the pod records in memory, an upper bound of the live ones that
 * grows with every pod the Job ever had while the writer stays warm; so the wait is capped at
 * SNAPSHOT_GAP_MAX entries unless the live pods (active or terminating) alone need longer. A
 * 100,000-index Job running 1,000 pods at a time is then snapshotted every 5,000 entries
 * (~170 KB, ~0.03 WCU per entry) instead of every 50,000, and a cold load folds 5,000 entries
 * at most instead of 50,000.
 */
export function snapshotDue(state: JobState, head: number, snapshotSeq: number, every = SNAPSHOT_EVERY): boolean {
  const live = state.counts.active + state.counts.terminating;
  const wait = Math.min(Math.floor(state.pods.size / 2), Math.max(SNAPSHOT_GAP_MAX, Math.floor(live / 2)));
  return head - snapshotSeq >= Math.max(every, wait);
}
