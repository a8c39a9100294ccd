import type {
  CommitInput, CommitResult, EventStore, FindJobQuery, FleetRow, JobPage, JobSummary, ListJobsQuery,
  OutboxItem, ReadOptions, ReadResult, Snapshot, SnapshotQuery, StreamId,
} from '../../shared/app/event-store.ts';
import type { PodArchive } from '../../shared/app/pod-archive.ts';
import type { ArchivedPod } from '../../shared/job/snapshot.ts';
import type { EventIdSegment } from '../../shared/decide/event-id-index.ts';

// The table's stream, in process: the store tells what its writes mean downstream, with the
// filter of the CDK's event source mapping (cdk/constructs/stream-consumers.ts): a commit with
// outbox items wakes the publisher with their ids (the records' keys). Every handler writes
// through this store, so the writer, timers and tests trigger alike.

export interface StreamRecords {
  readonly publish: (commandIds: readonly string[]) => void;
}

export class StreamedStore implements EventStore, PodArchive {
  readonly #inner: EventStore & PodArchive;
  readonly #records: StreamRecords;

  constructor(inner: EventStore & PodArchive, records: StreamRecords) {
    this.#inner = inner;
    this.#records = records;
  }

  async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    const result = await this.#inner.commit(stream, input);
    if (input.outbox.length > 0) this.#records.publish(input.outbox.map((command) => command.commandId));
    return result;
  }

  read(stream: StreamId, options?: ReadOptions): Promise<ReadResult> {
    return this.#inner.read(stream, options);
  }

  loadSnapshot(stream: StreamId, options?: SnapshotQuery): Promise<Snapshot | undefined> {
    return this.#inner.loadSnapshot(stream, options);
  }

  pendingOutbox(limit: number): Promise<OutboxItem[]> {
    return this.#inner.pendingOutbox(limit);
  }

  pendingOutboxItems(commandIds: readonly string[]): Promise<OutboxItem[]> {
    return this.#inner.pendingOutboxItems(commandIds);
  }

  saveOutboxProgress(commandId: string, progress: number): Promise<void> {
    return this.#inner.saveOutboxProgress(commandId, progress);
  }

  markPublished(commandIds: string[], publishedAt: string): Promise<void> {
    return this.#inner.markPublished(commandIds, publishedAt);
  }

  listJobs(query: ListJobsQuery): Promise<JobPage> {
    return this.#inner.listJobs(query);
  }

  findJob(query: FindJobQuery): Promise<JobSummary | undefined> {
    return this.#inner.findJob(query);
  }

  fleetRows(kind?: StreamId['kind']): Promise<FleetRow[]> {
    return this.#inner.fleetRows(kind);
  }

  getSummaries(streams: readonly StreamId[]): Promise<JobSummary[]> {
    return this.#inner.getSummaries(streams);
  }

  saveArchivedPods(stream: StreamId, pods: readonly ArchivedPod[]): Promise<void> {
    return this.#inner.saveArchivedPods(stream, pods);
  }

  loadArchivedPods(stream: StreamId, uids: readonly string[]): Promise<ArchivedPod[]> {
    return this.#inner.loadArchivedPods(stream, uids);
  }

  saveEventIds(stream: StreamId, segment: EventIdSegment): Promise<void> {
    return this.#inner.saveEventIds(stream, segment);
  }

  loadEventIds(stream: StreamId): Promise<EventIdSegment[]> {
    return this.#inner.loadEventIds(stream);
  }

  claimUid(stream: StreamId): Promise<string> {
    return this.#inner.claimUid(stream);
  }
}
