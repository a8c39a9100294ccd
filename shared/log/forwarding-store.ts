import type {
  CommitInput, CommitResult, EventStore, FindJobQuery, FleetRow, JobPage, JobSummary, ListJobsQuery,
  LogStart, OutboxItem, ReadOptions, ReadResult, Snapshot, SnapshotQuery, StreamId,
} from './event-store.ts';
import type { PodArchive } from './pod-archive.ts';
import type { ArchivedPod } from '../job/snapshot.ts';
import type { EventIdSegment } from './event-id-index.ts';

/**
 * A store that passes every call to another: the base of the stores that add something around
 * some calls (the local stream's wake-ups in local/runtime/streamed-store.ts, a test's crashes
 * in test/support/service-harness.ts) and override only those.
 */
export class ForwardingStore implements EventStore, PodArchive {
  protected readonly inner: EventStore & PodArchive;

  constructor(inner: EventStore & PodArchive) {
    this.inner = inner;
  }

  commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    return this.inner.commit(stream, input);
  }

  read(stream: StreamId, options?: ReadOptions): Promise<ReadResult> {
    return this.inner.read(stream, options);
  }

  loadSnapshot(stream: StreamId, options?: SnapshotQuery): Promise<Snapshot | undefined> {
    return this.inner.loadSnapshot(stream, options);
  }

  loadStart(stream: StreamId): Promise<LogStart> {
    return this.inner.loadStart(stream);
  }

  pendingOutbox(limit: number): Promise<OutboxItem[]> {
    return this.inner.pendingOutbox(limit);
  }

  pendingOutboxItems(commandIds: readonly string[]): Promise<OutboxItem[]> {
    return this.inner.pendingOutboxItems(commandIds);
  }

  saveOutboxProgress(commandId: string, progress: number): Promise<void> {
    return this.inner.saveOutboxProgress(commandId, progress);
  }

  markPublished(commandIds: string[], publishedAt: string): Promise<void> {
    return this.inner.markPublished(commandIds, publishedAt);
  }

  listJobs(query: ListJobsQuery): Promise<JobPage> {
    return this.inner.listJobs(query);
  }

  findJob(query: FindJobQuery): Promise<JobSummary | undefined> {
    return this.inner.findJob(query);
  }

  fleetRows(kind?: StreamId['kind']): Promise<FleetRow[]> {
    return this.inner.fleetRows(kind);
  }

  getSummaries(streams: readonly StreamId[]): Promise<JobSummary[]> {
    return this.inner.getSummaries(streams);
  }

  saveArchivedPods(stream: StreamId, pods: readonly ArchivedPod[]): Promise<void> {
    return this.inner.saveArchivedPods(stream, pods);
  }

  loadArchivedPods(stream: StreamId, uids: readonly string[]): Promise<ArchivedPod[]> {
    return this.inner.loadArchivedPods(stream, uids);
  }

  loadAllArchivedPods(stream: StreamId): Promise<ArchivedPod[]> {
    return this.inner.loadAllArchivedPods(stream);
  }

  saveEventIds(stream: StreamId, segment: EventIdSegment): Promise<void> {
    return this.inner.saveEventIds(stream, segment);
  }

  loadEventIds(stream: StreamId): Promise<EventIdSegment[]> {
    return this.inner.loadEventIds(stream);
  }

  claimUid(stream: StreamId): Promise<string> {
    return this.inner.claimUid(stream);
  }
}
