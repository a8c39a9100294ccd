import { entryHash, GENESIS_HASH } from './hash-chain.ts';
import { checkCommit, checkLimit, checkSnapshotSeq, jsonCopy } from './event-store-limits.ts';
import type { ArchivedPod } from '../job/snapshot.ts';
import { decodeArchivedPods, encodeArchivedPods } from '../job/archive-codec.ts';
import { VersionConflictError } from './event-store.ts';
import type {
  CommitInput, CommitResult, EventStore, FindJobQuery, FleetRow, JobPage, JobSummary,
  ListJobsQuery, LogEntry, LogStart, NewEntry, OutboxItem, ReadOptions, ReadResult, Snapshot, SnapshotQuery, StreamId,
} from './event-store.ts';
import type { PodArchive } from './pod-archive.ts';
import { shownByName } from './name-rule.ts';
import { MAX_CHANGES_PER_PAGE, type ChangeFeed, type ChangePage, type ChangeQuery, type LogChange } from './change-feed.ts';
import type { EventIdSegment } from './event-id-index.ts';

type StreamRecord = {
  entries: LogEntry[];
  archivedPods: Map<string, ArchivedPod>;
  /** Event-id segments (shared/log/event-id-index.ts) by their last position. */
  idSegments: Map<number, EventIdSegment>;
  /** Seqs a paged commit marked as a pod's first sighting (outside the entries and their hashes). */
  firstSightings: Set<number>;
  /** Kept at their positions, never replaced. */
  snapshots: Map<number, Snapshot>;
  summary?: JobSummary;
};

/**
 * The reference EventStore (and PodArchive), kept in process memory: the semantics the DynamoDB store is tested
 * against, and the store of unit tests and the replay CLI. Values are copied through JSON on
 * the way in and out, as they would be by a real store.
 */
export class InMemoryEventStore implements EventStore, PodArchive, ChangeFeed {
  readonly #streams = new Map<string, StreamRecord>();
  readonly #outbox = new Map<string, OutboxItem>();
  /** (kind, cluster, uid) → the namespace whose log holds it. */
  readonly #uidClaims = new Map<string, string>();
  /** One per stored log item, as DynamoDB stores them: an entry, or a paged commit's entries. */
  readonly #changes: LogChange[] = [];

  async read(stream: StreamId, options: ReadOptions = {}): Promise<ReadResult> {
    checkLimit(options.limit);
    const { entries, firstSightings } = this.#record(stream);
    const from = Math.max(0, options.afterSeq ?? 0);
    const to = Math.min(entries.length, options.limit === undefined ? entries.length : from + options.limit);
    const marked: number[] = [];
    for (let seq = from + 1; seq <= to; seq++) if (firstSightings.has(seq)) marked.push(seq);
    return { entries: jsonCopy(entries.slice(from, to)), head: entries.length, ...(marked.length > 0 ? { podFirstSightings: marked } : {}) };
  }

  async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    checkCommit(input);
    if (input.snapshot) checkSnapshotSeq(input.snapshot, input.expectedHead + input.entries.length);
    const record = this.#record(stream);
    if (record.entries.length !== input.expectedHead) {
      throw new VersionConflictError(stream, input.expectedHead, record.entries.length);
    }
    const storedHash = record.entries.at(-1)?.hash ?? GENESIS_HASH;
    if (input.expectedHeadHash !== undefined && input.expectedHeadHash !== storedHash) {
      throw new Error(`expectedHeadHash ${input.expectedHeadHash} is not the chain hash at ${input.expectedHead} (${storedHash})`);
    }
    if (input.entryHashes !== undefined) checkEntryHashes(input, storedHash);
    const result = this.#appendPaged(record, input.entries, input.recordedAt, new Set(input.podFirstSightings));
    const appended = result.appended.map((entry) => entry.seq);
    if (appended.length > 0) this.#changed(stream, appended[0]!, appended.at(-1)!, input.recordedAt);

    for (const command of input.outbox) {
      if (this.#outbox.has(command.commandId)) continue;
      this.#outbox.set(command.commandId, jsonCopy({ ...command, stream }));
    }
    if (input.summary) record.summary = jsonCopy({ ...input.summary, ...identity(stream) });
    const head = record.entries.length;
    const { snapshot } = input;
    // Never ahead of the log (duplicates can leave the head short); the first one at a seq stays.
    const snapshotSaved = snapshot !== undefined && snapshot.seq <= head && !record.snapshots.has(snapshot.seq);
    if (snapshotSaved) record.snapshots.set(snapshot.seq, snapshot.json === undefined ? jsonCopy(snapshot) : { seq: snapshot.seq, state: JSON.parse(snapshot.json) });
    return { head, ...result, snapshotSaved };
  }

  async loadSnapshot(stream: StreamId, options: SnapshotQuery = {}): Promise<Snapshot | undefined> {
    const limit = options.atOrBefore ?? Number.POSITIVE_INFINITY;
    let newest: Snapshot | undefined;
    for (const snapshot of this.#record(stream).snapshots.values()) {
      if (snapshot.seq <= limit && snapshot.seq > (newest?.seq ?? -1)) newest = snapshot;
    }
    return newest === undefined ? undefined : jsonCopy(newest);
  }

  async loadStart(stream: StreamId): Promise<LogStart> {
    const snapshot = await this.loadSnapshot(stream);
    return { ...(snapshot ? { snapshot } : {}), empty: this.#record(stream).entries.length === 0 };
  }

  async pendingOutbox(limit: number): Promise<OutboxItem[]> {
    checkLimit(limit);
    const pending = [...this.#outbox.values()].filter((item) => item.publishedAt === undefined);
    pending.sort((a, b) => compare(a.createdAt, b.createdAt) || compare(a.commandId, b.commandId));
    return jsonCopy(pending.slice(0, limit));
  }

  async pendingOutboxItems(commandIds: readonly string[]): Promise<OutboxItem[]> {
    const items = [...new Set(commandIds)].map((id) => this.#outbox.get(id));
    return jsonCopy(items.filter((item): item is OutboxItem => item !== undefined && item.publishedAt === undefined));
  }

  async saveOutboxProgress(commandId: string, progress: number): Promise<void> {
    const item = this.#outbox.get(commandId);
    if (item && item.publishedAt === undefined && progress > (item.progress ?? 0)) item.progress = progress;
  }

  async markPublished(commandIds: string[], publishedAt: string): Promise<void> {
    for (const commandId of commandIds) {
      const item = this.#outbox.get(commandId);
      if (item && item.publishedAt === undefined) item.publishedAt = publishedAt;
    }
  }

  async listJobs(query: ListJobsQuery): Promise<JobPage> {
    checkLimit(query.limit);
    const matching = this.#summaries()
      .filter((s) => query.kind === undefined || s.kind === query.kind)
      .filter((s) => query.clusterId === undefined || s.clusterId === query.clusterId)
      .filter((s) => query.namespace === undefined || s.namespace === query.namespace)
      .filter((s) => query.condition === undefined || s.latestCondition?.type === query.condition)
      .sort((a, b) => compareKeys(orderKey(b), orderKey(a)));
    const after = query.cursor === undefined ? undefined : parseCursor(query.cursor);
    const rest = after === undefined ? matching : matching.filter((s) => compareKeys(orderKey(s), after) < 0);
    const items = rest.slice(0, query.limit);
    const last = items.at(-1);
    const more = rest.length > items.length && last !== undefined;
    const cursors = items.map((s) => JSON.stringify(orderKey(s)));
    return { items: jsonCopy(items), after: cursors, ...(more ? { cursor: JSON.stringify(orderKey(last)) } : {}) };
  }

  async findJob(query: FindJobQuery): Promise<JobSummary | undefined> {
    const found = this.#summaries()
      .filter((s) => s.kind === query.kind && s.clusterId === query.clusterId)
      .filter((s) => s.namespace === query.namespace && s.name === query.name)
      .filter((s) => query.uid === undefined || s.uid === query.uid);
    const shown = await shownByName(found, async (summary) => this.#streams.get(streamKey(summary))?.entries[0]?.recordedAt);
    return shown === undefined ? undefined : jsonCopy(shown);
  }

  async fleetRows(kind?: StreamId['kind']): Promise<FleetRow[]> {
    return this.#summaries()
      .filter((s) => kind === undefined || s.kind === kind)
      .sort((a, b) => compareKeys(orderKey(b), orderKey(a)))
      .map(({ kind, clusterId, namespace, uid, createdAt, latestCondition: c, stalled, refusedUpdate }) => ({
        kind, clusterId, namespace, uid, createdAt, stalled: stalled !== undefined, refusedUpdate: refusedUpdate !== undefined,
        ...(c ? { latestCondition: { type: c.type, status: c.status, ...(c.reason === undefined ? {} : { reason: c.reason }) } } : {}),
      }));
  }

  async getSummaries(streams: readonly StreamId[]): Promise<JobSummary[]> {
    return jsonCopy(streams.flatMap((stream) => this.#streams.get(streamKey(stream))?.summary ?? []));
  }

  async saveArchivedPods(stream: StreamId, pods: readonly ArchivedPod[]): Promise<void> {
    const { archivedPods } = this.#record(stream);
    // Kept as a store keeps them: through their stored form (job/archive-codec.ts), so a field
    // that form loses shows in every fold that restores from this store.
    for (const pod of decodeArchivedPods(jsonCopy(encodeArchivedPods(pods)))) archivedPods.set(pod.uid, pod);
  }

  async claimUid(stream: StreamId): Promise<string> {
    const key = `${stream.kind}#${stream.clusterId}#${stream.uid}`;
    const holder = this.#uidClaims.get(key) ?? stream.namespace;
    this.#uidClaims.set(key, holder);
    return holder;
  }

  async saveEventIds(stream: StreamId, segment: EventIdSegment): Promise<void> {
    this.#record(stream).idSegments.set(segment.to, { from: segment.from, to: segment.to, bytes: segment.bytes.slice() });
  }

  async loadEventIds(stream: StreamId): Promise<EventIdSegment[]> {
    return [...this.#record(stream).idSegments.values()].sort((a, b) => a.to - b.to).map((s) => ({ ...s, bytes: s.bytes.slice() }));
  }

  async loadArchivedPods(stream: StreamId, uids: readonly string[]): Promise<ArchivedPod[]> {
    const { archivedPods } = this.#record(stream);
    return jsonCopy([...new Set(uids)].flatMap((uid) => archivedPods.get(uid) ?? []));
  }

  async loadAllArchivedPods(stream: StreamId): Promise<ArchivedPod[]> {
    return jsonCopy([...this.#record(stream).archivedPods.values()]);
  }

  async logChanges(query: ChangeQuery): Promise<ChangePage> {
    checkLimit(query.limit);
    if (query.limit > MAX_CHANGES_PER_PAGE) throw new RangeError(`limit must be at most ${MAX_CHANGES_PER_PAGE}`);
    const after = query.cursor === undefined ? undefined : parseChangeCursor(query.cursor);
    const matching = this.#changes
      .filter((c) => c.stream.kind === query.kind && c.stream.clusterId === query.clusterId)
      .filter((c) => Date.parse(c.recordedAt) >= query.sinceMs)
      .map((change) => ({ change, key: changeKey(change) }))
      .filter(({ key }) => after === undefined || compareKeys(key, after) > 0)
      .sort((a, b) => compareKeys(a.key, b.key));
    const page = matching.slice(0, query.limit);
    const last = page.at(-1);
    return {
      changes: jsonCopy(page.map(({ change }) => change)),
      ...(matching.length > page.length && last !== undefined ? { cursor: JSON.stringify(last.key) } : {}),
    };
  }

  #changed(stream: StreamId, firstSeq: number, lastSeq: number, recordedAt: string): void {
    // A copy of the stream's ids (all strings): the caller's object may change after the call.
    const { kind, clusterId, namespace, uid } = stream;
    this.#changes.push({ stream: { kind, clusterId, namespace, uid }, firstSeq, lastSeq, recordedAt });
  }

  // Like DynamoDB's log pages: no markers, so only repeats within the call are caught (the
  // writer stores an eventId once against the whole log). A mark goes with the entry at its
  // index; one on a repeat left out is dropped with it.
  #appendPaged(record: StreamRecord, entries: NewEntry[], recordedAt: string, marks: ReadonlySet<number>): { appended: LogEntry[]; duplicates: string[] } {
    const result: { appended: LogEntry[]; duplicates: string[] } = { appended: [], duplicates: [] };
    const seen = new Set<string>();
    for (const [i, entry] of entries.entries()) {
      if (seen.has(entry.eventId)) {
        result.duplicates.push(entry.eventId);
        continue;
      }
      seen.add(entry.eventId);
      const logged = this.#push(record, entry, recordedAt);
      if (marks.has(i)) record.firstSightings.add(logged.seq);
      result.appended.push(logged);
    }
    return result;
  }

  #push(record: StreamRecord, entry: NewEntry, recordedAt: string): LogEntry {
    const { eventId, type, observedAt, body } = entry;
    const logged = jsonCopy({ eventId, type, observedAt, body, seq: record.entries.length + 1, recordedAt });
    const stored = { ...logged, hash: entryHash(record.entries.at(-1)?.hash ?? GENESIS_HASH, logged) };
    record.entries.push(stored);
    return jsonCopy(stored);
  }

  #record(stream: StreamId): StreamRecord {
    const key = streamKey(stream);
    let record = this.#streams.get(key);
    if (record === undefined) {
      record = { entries: [], archivedPods: new Map(), idSegments: new Map(), firstSightings: new Set(), snapshots: new Map() };
      this.#streams.set(key, record);
    }
    return record;
  }

  #summaries(): JobSummary[] {
    return [...this.#streams.values()].flatMap((r) => (r.summary === undefined ? [] : [r.summary]));
  }
}

function streamKey(stream: StreamId): string {
  return JSON.stringify([stream.kind, stream.clusterId, stream.namespace, stream.uid]);
}

function identity(stream: StreamId): Pick<JobSummary, 'kind' | 'clusterId' | 'namespace' | 'uid'> {
  return { kind: stream.kind, clusterId: stream.clusterId, namespace: stream.namespace, uid: stream.uid };
}

// The listing order of the port: createdAt, then uid, then the rest of the identity.
function orderKey(s: JobSummary): string[] {
  return [s.createdAt, s.uid, s.kind, s.clusterId, s.namespace];
}

function parseCursor(cursor: string): string[] {
  try {
    const parsed: unknown = JSON.parse(cursor);
    if (Array.isArray(parsed) && parsed.every((part) => typeof part === 'string')) return parsed;
  } catch {
    // reported below
  }
  throw new RangeError('invalid listJobs cursor');
}

// The feed's order: time recorded, then namespace, uid and position (as DynamoDB's index sorts).
function changeKey(change: LogChange): string[] {
  const ms = String(Date.parse(change.recordedAt)).padStart(15, '0');
  return [ms, change.stream.namespace, change.stream.uid, String(change.firstSeq).padStart(12, '0')];
}

function parseChangeCursor(cursor: string): string[] {
  try {
    const parsed: unknown = JSON.parse(cursor);
    if (Array.isArray(parsed) && parsed.length === 4 && parsed.every((part) => typeof part === 'string')) return parsed;
  } catch {
    // reported below
  }
  throw new RangeError('invalid logChanges cursor');
}

function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const order = compare(a[i] ?? '', b[i] ?? '');
    if (order !== 0) return order;
  }
  return 0;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The caller's hashes are what a store that trusts them stores (functions/adapters/
 * dynamodb-commit.ts): each must be the chain hash of its entry, as this store would chain it.
 */
function checkEntryHashes(input: CommitInput, storedHash: string): void {
  const { entryHashes = [], entries, recordedAt, expectedHead } = input;
  if (new Set(entries.map((e) => e.eventId)).size !== entries.length) return;
  let prev = storedHash;
  entries.forEach(({ eventId, type, observedAt, body }, i) => {
    prev = entryHash(prev, jsonCopy({ eventId, type, observedAt, body, seq: expectedHead + 1 + i, recordedAt }));
    if (entryHashes[i] !== prev) throw new Error(`entryHashes[${i}] ${entryHashes[i]} is not the chain hash of seq ${expectedHead + 1 + i} (${prev})`);
  });
}
