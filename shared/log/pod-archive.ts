import type { ArchivedPod } from '../job/snapshot.ts';
import type { StreamId } from './event-store.ts';
import type { EventIdSegment } from './event-id-index.ts';

/**
 * What the log writer keeps beside a Job's log (most of it written as its snapshots are):
 * - settled pods, once they leave the snapshot (see shared/job/snapshot.ts): written once per
 *   pod, read back only for the pods that new events name (a Job with a success policy: all of
 *   them, on a cold load);
 * - the log's eventIds (shared/log/event-id-index.ts), as segments of positions: read back whole on
 *   a cold load, so an eventId is stored once against the whole log.
 */
export interface PodArchive {
  /** Stores settled pods; storing one again replaces it. */
  saveArchivedPods(stream: StreamId, pods: readonly ArchivedPod[]): Promise<void>;
  /** Returns the archived pods among `uids` (missing ones are simply absent). */
  loadArchivedPods(stream: StreamId, uids: readonly string[]): Promise<ArchivedPod[]>;
  /**
   * Every archived pod of the stream: for a Job whose outcome reads the instants of all its
   * pods (shared/job/snapshot.ts outcomeReadsArchivedInstants), restored whole on a cold load.
   */
  loadAllArchivedPods(stream: StreamId): Promise<ArchivedPod[]>;
  /** Stores the fingerprints of positions `from + 1 … to` (storing a range again is harmless: the log does not change). */
  saveEventIds(stream: StreamId, segment: EventIdSegment): Promise<void>;
  /** The stored segments, ordered by `to` (they may overlap or leave gaps; the caller reads the log for those). */
  loadEventIds(stream: StreamId): Promise<EventIdSegment[]>;
  /**
   * Claims the object's uid in its cluster for the stream's namespace (an object is its
   * (cluster, uid): write/write-batch.ts claims it before a log's first entry). Returns the
   * namespace that holds it: the stream's own when the claim is new or its own, another one when
   * the uid is already another namespace's (the caller refuses the events). Safe under races.
   */
  claimUid(stream: StreamId): Promise<string>;
}
