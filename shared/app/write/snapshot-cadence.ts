import type { JobState } from '../../job/state.ts';

/** The fewest entries between two snapshots (the reconcile's SNAPSHOT_EVERY). */
export const SNAPSHOT_EVERY = 50;

/**
 * Whether the writer stores a snapshot at `head`. A snapshot costs about its size in write
 * units (1 WCU per KB), and its size grows with the Job's live pods (~70 bytes each: a
 * 10,000-pod Job's is ~700 KB), so a fixed cadence would cost a big Job more per event than the
 * events themselves. The writer waits for max(`every`, pods / 2) entries: a snapshot's cost,
 * spread over the entries since the last one, is then at most ~140 bytes per entry however
 * big the Job, and a cold load folds at most that many entries (pods / 2) after it. `pods`
 * counts the pod records in memory, an upper bound of the live ones.
 */
export function snapshotDue(state: JobState, head: number, snapshotSeq: number, every = SNAPSHOT_EVERY): boolean {
  return head - snapshotSeq >= Math.max(every, Math.floor(state.pods.size / 2));
}
