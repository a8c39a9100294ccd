import { scanLogs, type LogScanPage, type LogScanQuery } from './dynamodb-log-scan.ts';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ArchivedPod } from '../../shared/job/index.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import type { ChangeFeed, ChangePage, ChangeQuery } from '../../shared/log/change-feed.ts';
import { logChanges } from './dynamodb-change-feed.ts';
import { checkCommit, checkLimit, checkSnapshotSeq } from '../../shared/log/event-store-limits.ts';
import { VersionConflictError } from '../../shared/log/event-store.ts';
import type {
  CommitInput, CommitResult, EventStore, FindJobQuery, FleetRow, JobPage, JobSummary,
  ListJobsQuery, LogStart, OutboxItem, ReadOptions, ReadResult, Snapshot, SnapshotQuery, StreamId,
} from '../../shared/log/event-store.ts';
import { commitTransaction } from './dynamodb-commit.ts';
import { readEntries, readHead, readTip } from './dynamodb-log-reads.ts';
import { markPublished, pendingOutbox, pendingOutboxItems, saveOutboxProgress } from './dynamodb-outbox.ts';
import { loadAllArchivedPods, loadArchivedPods, saveArchivedPods } from './dynamodb-pod-archive.ts';
import { loadEventIds, saveEventIds } from './dynamodb-event-ids.ts';
import { claimUid } from './dynamodb-uid-claims.ts';
import type { EventIdSegment } from '../../shared/log/event-id-index.ts';
import { fleetRows, summariesOf } from './dynamodb-fleet-rows.ts';
import { findJob, listJobs } from './dynamodb-projection.ts';
import { loadSnapshot, loadStart, saveSnapshot } from './dynamodb-snapshots.ts';
import { MeteredTable } from './metered-table.ts';
import type { CapacityTotals, MeterOptions } from './metered-table.ts';
import { DEFAULT_TABLE_NAME, keys } from './table-layout.ts';

// The EventStore on one DynamoDB table (layout: table-layout.ts). The same code runs against
// DynamoDB and DynamoDB Local; only the client's endpoint differs.
//   commit      dynamodb-commit.ts      one TransactWriteItems: log pages (log-page-codec.ts), outbox;
//               one page without commands is a PutItem; the summary is put after either
//   read        dynamodb-log-reads.ts   pages and the one-entry items older versions wrote alike, as one LogEntry[]
//   snapshot    dynamodb-snapshots.ts   kept at its seq, put after the commit, chunked when large
//   outbox      dynamodb-outbox.ts      sparse keys-only index of pending commands
//   fleet view  dynamodb-projection.ts  summary item in four sparse indexes, put after its commit
//   fleet rows  dynamodb-fleet-rows.ts  the fleet index scanned in parallel, for the counts
//   pod archive dynamodb-pod-archive.ts one item per settled pod, batch puts
//   change feed dynamodb-change-feed.ts every log item in a sparse index by time recorded
//   event ids   dynamodb-event-ids.ts   the log's eventId fingerprints, a segment per snapshot
//   uid claims  dynamodb-uid-claims.ts  which namespace's log holds a (cluster, uid)
// Choices, made for write units (1 WCU = one write of ≤ 1 KB; 2 inside a transaction):
// - No head item. The log item's key is its seq, so a conditional put cannot overwrite a seq,
//   and the head is read with a strongly consistent Query (reads cost a fifth of writes).
// - A batch's entries share compressed log pages: a pod event costs a fraction of a WCU.
// - Commits are transactions (atomic entries + outbox under the head condition); the summary,
//   a projection like the snapshot, is put after its commit (1 WCU + 1 per index entry instead
//   of 2 + 2), never over a later position's (dynamodb-projection.ts putSummary).
// - Snapshots are written after the commit (1 WCU/KB instead of 2) and never ahead of it.
// - Summary indexes project only what filters read; an update that keeps the condition type
//   writes no index.
// Capacity: every request asks for ConsumedCapacity; read `capacity` or pass onConsumedCapacity.

export type DynamoDbEventStoreOptions = MeterOptions & { client: DynamoDBClient; tableName?: string };

export class DynamoDbEventStore implements EventStore, PodArchive, ChangeFeed {
  readonly #table: MeteredTable;

  constructor(options: DynamoDbEventStoreOptions) {
    this.#table = new MeteredTable(options.client, options.tableName ?? DEFAULT_TABLE_NAME, options);
  }

  /** Capacity consumed by this store's requests so far. */
  get capacity(): CapacityTotals {
    return this.#table.totals;
  }

  async read(stream: StreamId, options: ReadOptions = {}): Promise<ReadResult> {
    checkLimit(options.limit);
    const pk = keys.stream(stream);
    const { entries, firstSightings, head: seen } = await readEntries(this.#table, pk, Math.max(0, options.afterSeq ?? 0), options.limit);
    const last = entries.at(-1);
    // A read that reached the log's last item saw the head, as did a short page; otherwise read it.
    const short = options.limit === undefined || entries.length < options.limit;
    const head = seen ?? (last && (short || options.skipHead === true) ? last.seq : await readHead(this.#table, pk));
    return { entries, head, ...(firstSightings.length > 0 ? { podFirstSightings: firstSightings } : {}) };
  }

  async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    checkCommit(input);
    if (input.snapshot) checkSnapshotSeq(input.snapshot, input.expectedHead + input.entries.length);
    const pk = keys.stream(stream);
    // A commit that names the head's hash skips reading the head: its first page is put at
    // expectedHead + 1 only if nothing is there, so a moved head still fails the commit.
    const tip = input.expectedHeadHash !== undefined
      ? { head: input.expectedHead, hash: input.expectedHeadHash }
      : await readTip(this.#table, pk);
    if (tip.head !== input.expectedHead) throw new VersionConflictError(stream, input.expectedHead, tip.head);
    const result = await commitTransaction(this.#table, stream, input, tip);
    const order = new Map(input.entries.map((e, i) => [e.eventId, i]));
    const duplicates = result.duplicates.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    const { snapshot } = input;
    const snapshotSaved = snapshot !== undefined && snapshot.seq <= result.head && (await saveSnapshot(this.#table, pk, snapshot));
    return { ...result, duplicates, snapshotSaved };
  }

  loadSnapshot(stream: StreamId, options: SnapshotQuery = {}): Promise<Snapshot | undefined> {
    return loadSnapshot(this.#table, keys.stream(stream), options.atOrBefore);
  }

  loadStart(stream: StreamId): Promise<LogStart> {
    return loadStart(this.#table, keys.stream(stream));
  }

  pendingOutbox(limit: number): Promise<OutboxItem[]> {
    return pendingOutbox(this.#table, limit);
  }

  pendingOutboxItems(commandIds: readonly string[]): Promise<OutboxItem[]> {
    return pendingOutboxItems(this.#table, commandIds);
  }

  saveOutboxProgress(commandId: string, progress: number): Promise<void> {
    return saveOutboxProgress(this.#table, commandId, progress);
  }

  markPublished(commandIds: string[], publishedAt: string): Promise<void> {
    return markPublished(this.#table, commandIds, publishedAt);
  }

  listJobs(query: ListJobsQuery): Promise<JobPage> {
    return listJobs(this.#table, query);
  }

  /** Every stored log in one pass, a segment of a parallel scan at a time (the fleet what-if). */
  scanLogs(query: LogScanQuery): Promise<LogScanPage> {
    return scanLogs(this.#table, query);
  }

  findJob(query: FindJobQuery): Promise<JobSummary | undefined> {
    // When a log began: the first entry's recordedAt (one point read, for objects the name rule cannot otherwise tell apart).
    return findJob(this.#table, query, async (summary) => (await this.read(summary, { limit: 1, skipHead: true })).entries[0]?.recordedAt);
  }

  fleetRows(kind?: StreamId['kind']): Promise<FleetRow[]> {
    return fleetRows(this.#table, kind);
  }

  getSummaries(streams: readonly StreamId[]): Promise<JobSummary[]> {
    return summariesOf(this.#table, streams);
  }

  saveArchivedPods(stream: StreamId, pods: readonly ArchivedPod[]): Promise<void> {
    return saveArchivedPods(this.#table, keys.stream(stream), pods);
  }

  loadArchivedPods(stream: StreamId, uids: readonly string[]): Promise<ArchivedPod[]> {
    return loadArchivedPods(this.#table, keys.stream(stream), uids);
  }

  loadAllArchivedPods(stream: StreamId): Promise<ArchivedPod[]> {
    return loadAllArchivedPods(this.#table, keys.stream(stream));
  }

  logChanges(query: ChangeQuery): Promise<ChangePage> {
    return logChanges(this.#table, query);
  }

  saveEventIds(stream: StreamId, segment: EventIdSegment): Promise<void> {
    return saveEventIds(this.#table, keys.stream(stream), segment);
  }

  loadEventIds(stream: StreamId): Promise<EventIdSegment[]> {
    return loadEventIds(this.#table, keys.stream(stream));
  }

  claimUid(stream: StreamId): Promise<string> {
    return claimUid(this.#table, stream);
  }
}
