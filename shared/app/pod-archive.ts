import type { ArchivedPod } from '../job/snapshot.ts';
import type { StreamId } from './event-store.ts';

/**
 * Where a Job's settled pods live once they leave its snapshot (see shared/job/snapshot.ts):
 * written once per pod, read back only for the pods that new events name.
 */
export interface PodArchive {
  /** Stores settled pods; storing one again replaces it. */
  saveArchivedPods(stream: StreamId, pods: readonly ArchivedPod[]): Promise<void>;
  /** Returns the archived pods among `uids` (missing ones are simply absent). */
  loadArchivedPods(stream: StreamId, uids: readonly string[]): Promise<ArchivedPod[]>;
}
