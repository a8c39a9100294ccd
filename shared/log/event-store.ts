// The event store port: one append-only log per Job (or JobSet), its snapshots, the outbox of
// commands decided from it, and the fleet projection. Implementations: in-memory-event-store.ts
// (reference) and functions/adapters/dynamodb-event-store.ts; test/integration/store runs one
// contract suite against both. Timestamps are RFC 3339 UTC strings compared as strings.

/** Which object a log belongs to; `uid` is the object's metadata.uid in that cluster. */
export type StreamId = {
  kind: 'Job' | 'JobSet';
  clusterId: string;
  namespace: string;
  uid: string;
};

/** An event to log. `eventId` is the caller's idempotency key; `body` must be JSON data. */
export type NewEntry = {
  eventId: string;
  type: string;
  observedAt: string;
  body: unknown;
};

/**
 * A stored event: `seq` is 1-based and gap-free within its stream. `hash` links it into the
 * stream's hash chain: entryHash(hash of seq − 1, or GENESIS_HASH for seq 1, this entry without
 * `hash`) (shared/log/hash-chain.ts). Entries stored before the chain have none.
 */
export type LogEntry = NewEntry & { seq: number; recordedAt: string; hash?: string };

/** A folded state as of `seq` (inclusive); `state` must be JSON data. */
export type Snapshot = {
  seq: number;
  state: unknown;
  /** `state`'s JSON text (toJson), when the writer has it already: a store measures and writes it instead of serialising the state again. */
  json?: string;
};

/** A command to publish once its commit has landed. `clusterId` is where it must run. */
export type NewCommand = {
  commandId: string;
  clusterId: string;
  detailType: string;
  detail: unknown;
  createdAt: string;
};

/**
 * A command in the outbox, with the stream whose commit produced it. `progress` counts the
 * item's events already accepted by the bus (see shared/publish), so a publisher that crashed
 * half-way through a large item resumes there.
 */
export type OutboxItem = NewCommand & { stream: StreamId; publishedAt?: string; progress?: number };

/** The condition the fleet view shows for an object, in batch/v1 words. */
export type SummaryCondition = {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
};

/** One row of the fleet view; `createdAt` orders the list and never changes for a uid. */
export type JobSummary = {
  kind: StreamId['kind'];
  clusterId: string;
  namespace: string;
  name: string;
  uid: string;
  latestCondition?: SummaryCondition;
  finishedAt?: string;
  createdAt: string;
  updatedAt: string;
  /** Set while the Job's reconcile fails on every retry (shared/decide/stall.ts). */
  stalled?: { error: string; since: string };
  /** The latest refused update of the Job (its last valid spec still applies). */
  refusedUpdate?: { eventId: string; errors: string[] };
  /** The object was deleted in its cluster (its history stays); a name shows a live object first (name-rule.ts). */
  deleted?: boolean;
};

/** The part of a summary a commit supplies; the identity comes from the stream. */
export type SummaryUpdate = Omit<JobSummary, 'kind' | 'clusterId' | 'namespace' | 'uid'>;

export type ReadOptions = {
  afterSeq?: number;
  limit?: number;
  /**
   * The caller ignores `head` (a point read): the store may then report the last seq it returns
   * instead of reading the head (on DynamoDB, one Query of the last log item fewer when the
   * read fills its limit). Default false.
   */
  skipHead?: boolean;
};
export type ReadResult = {
  entries: LogEntry[];
  head: number;
  /**
   * The seqs among `entries` that their commit marked as a pod's first sighting
   * (CommitInput.podFirstSightings), ascending; absent when none is.
   */
  podFirstSightings?: number[];
};
/** The newest snapshot, if any, and whether the log has no entry at all (EventStore.loadStart). */
export type LogStart = { snapshot?: Snapshot; empty: boolean };
/** `atOrBefore`: the newest snapshot with seq ≤ this position (default: the newest of all). */
export type SnapshotQuery = { atOrBefore?: number };

export type CommitInput = {
  expectedHead: number;
  recordedAt: string;
  entries: NewEntry[];
  outbox: NewCommand[];
  snapshot?: Snapshot;
  summary?: SummaryUpdate;
  /**
   * The chain hash at `expectedHead` as the caller knows it (GENESIS_HASH at
   * 0), so the store need not read the head before it writes: the commit's first item is
   * conditioned on the position after `expectedHead` (every item starts right after some head),
   * so the commit still fails with VersionConflictError when the head moved. A hash that is not
   * the one stored at `expectedHead` would break the chain: the in-memory store refuses it.
   */
  expectedHeadHash?: string;
  /**
   * With `expectedHeadHash`: the chain hash each of `entries` gets, in order, as the caller
   * computed it (shared/log/hash-chain.ts over the entry with its seq and recordedAt), so the
   * store does not hash every entry a second time. Ignored when `entries` repeats an eventId.
   * The in-memory store refuses a hash that is not the one it computes.
   */
  entryHashes?: readonly string[];
  /**
   * The indexes in `entries` of the observations that name a pod the fold
   * had no record of before them, its first sighting in this log (the writer knows: its state
   * holds every pod seen, docs/data-model.md "First sightings"). The store keeps the marks
   * beside the entries, outside the hash chain, and `read` returns them (ReadResult.
   * podFirstSightings), so a fold from a snapshot need not ask the pod archive about a pod
   * that cannot be in it. A mark is a promise; an unmarked entry promises nothing, so an
   * entry stored without marks (older writers: appended one-entry items) reads as one
   * to look up, as before. RangeError unless each is an index of `entries`.
   */
  podFirstSightings?: readonly number[];
};
/** `snapshotSaved` is false when no snapshot was given or one at its seq was already stored. */
export type CommitResult = { head: number; appended: LogEntry[]; duplicates: string[]; snapshotSaved: boolean };

export type ListJobsQuery = {
  kind?: StreamId['kind'];
  clusterId?: string;
  namespace?: string;
  /** Matches `latestCondition.type` exactly (for example `Failed`). */
  condition?: string;
  limit: number;
  cursor?: string;
};
/**
 * A page of the fleet list. `cursor` continues after the page; `after[i]` continues right after
 * `items[i]`, so a reader that stops inside the page (a time budget) resumes exactly there.
 */
export type JobPage = { items: JobSummary[]; cursor?: string; after: string[] };
/** What the fleet's counts read of a summary: identity, creation, latest condition, and whether it needs attention. */
export type FleetRow = StreamId & {
  createdAt: string;
  latestCondition?: Pick<SummaryCondition, 'type' | 'status' | 'reason'>;
  /** True when the summary has `stalled`, resp. `refusedUpdate`. */
  stalled: boolean;
  refusedUpdate: boolean;
};
export type FindJobQuery = Pick<JobSummary, 'kind' | 'clusterId' | 'namespace' | 'name'> & {
  uid?: string;
};

export interface EventStore {
  /**
   * Returns entries with `seq > afterSeq` (default 0) in seq order, at most `limit` (default
   * all; RangeError unless a positive integer), and `head`, the stream's last seq (0 when
   * empty) when the read started or later — with `skipHead`, possibly only the last seq
   * returned.
   */
  read(stream: StreamId, options?: ReadOptions): Promise<ReadResult>;

  /**
   * Atomically appends `entries` at `expectedHead + 1…` as log pages (several entries per
   * stored item, compressed) and puts the `outbox` commands, if and only if the stream's head is
   * still `expectedHead`; then puts the `summary` (a store may put it after the rest has landed,
   * never ahead of the log and never over the summary of a later position: on DynamoDB a crash in
   * between leaves it one commit behind, and the writer puts it again, write-batch.ts). `read` returns the same LogEntry[] (gap-free
   * `seq`, `recordedAt`, hash chain continued from the head) whatever mix of formats a log
   * holds: one-entry items written before pages are read as they are. No per-event marker is
   * written or consulted: the caller, the single writer of the log, stores an eventId once
   * against the whole log (shared/decide/keep-news.ts); an eventId repeated within `entries`
   * is stored once and reported in `duplicates`. Commands whose commandId is already in the
   * outbox are skipped. MAX_COMMIT_BYTES counts each whole entry (event-store-limits.ts), so a
   * commit that passes the limits always fits one DynamoDB transaction. Throws VersionConflictError when the
   * head moved (nothing written) and StoreLimitError when a limit below is exceeded.
   * `snapshot` (RangeError unless seq ≤ expectedHead + entries.length) is saved after the
   * commit lands, at its seq, only if its seq ≤ the new head and none is stored at that seq
   * (snapshots are kept at their positions, never replaced); it is an optimisation (the log is
   * the truth), so a crash may lose it. An empty commit still checks the head.
   */
  commit(stream: StreamId, input: CommitInput): Promise<CommitResult>;

  /**
   * Returns the newest snapshot of the stream with seq ≤ `atOrBefore` (default: the newest of
   * all), or undefined when none was saved there.
   */
  loadSnapshot(stream: StreamId, options?: SnapshotQuery): Promise<Snapshot | undefined>;

  /**
   * Where a fold of the whole log starts: the newest snapshot (as loadSnapshot), and `empty`
   * when the log holds no entry at all. In one read, so that a cold load of a new log (the
   * first write of every object) reads nothing more; a log that is not empty is then read
   * after the snapshot as before.
   */
  loadStart(stream: StreamId): Promise<LogStart>;

  /** Returns up to `limit` unpublished commands of all streams, oldest `createdAt` first. */
  pendingOutbox(limit: number): Promise<OutboxItem[]>;

  /**
   * Returns the named commands as stored now (a strongly consistent read), in the order named;
   * an unknown or published id is left out. The publisher reads the items a commit's stream
   * records name with it: a record may be delivered again after its item was published.
   */
  pendingOutboxItems(commandIds: readonly string[]): Promise<OutboxItem[]>;

  /**
   * Records that the first `progress` events of a pending item were published. Progress only
   * grows: a smaller value, an unknown or a published id is ignored.
   */
  saveOutboxProgress(commandId: string, progress: number): Promise<void>;

  /** Marks commands published; unknown or already published ids are ignored. */
  markPublished(commandIds: string[], publishedAt: string): Promise<void>;

  /**
   * Lists summaries newest `createdAt` first (ties: uid descending), filtered by every given
   * field, `limit` per page; pass the returned `cursor` to continue. May lag a commit slightly.
   */
  listJobs(query: ListJobsQuery): Promise<JobPage>;

  /**
   * Finds the summary of the object with that name; with `uid`, exactly that object, else the
   * one the name shows (names are reused after deletion): not deleted first, then the newest
   * creationTimestamp, then the latest arrival (name-rule.ts). History is never deleted.
   */
  findJob(query: FindJobQuery): Promise<JobSummary | undefined>;

  /**
   * Every summary of `kind` (both kinds without one) as a FleetRow, newest `createdAt` first
   * (ties: uid descending), all at once: a few hundred bytes each, read from the fleet index
   * without the full summaries. May lag a commit slightly, as listJobs does.
   */
  fleetRows(kind?: StreamId['kind']): Promise<FleetRow[]>;

  /** The summaries of `streams`, in that order; a stream without one is left out. */
  getSummaries(streams: readonly StreamId[]): Promise<JobSummary[]>;
}

/** Thrown by commit when the stream's head is no longer the head the decision was made on. */
export class VersionConflictError extends Error {
  override name = 'VersionConflictError';
  readonly stream: StreamId;
  readonly expectedHead: number;
  readonly actualHead: number | undefined;

  constructor(stream: StreamId, expectedHead: number, actualHead?: number) {
    const actual = actualHead === undefined ? 'moved' : `is ${actualHead}`;
    super(`${stream.kind} ${stream.namespace}/${stream.uid}: expected head ${expectedHead}, head ${actual}`);
    this.stream = stream;
    this.expectedHead = expectedHead;
    this.actualHead = actualHead;
  }
}

/** Thrown when a commit exceeds one of the store limits; nothing is written. */
export class StoreLimitError extends Error {
  override name = 'StoreLimitError';
  readonly limit: string;
  readonly max: number;
  readonly actual: number;

  constructor(limit: string, max: number, actual: number) {
    super(`${limit} is ${actual}, at most ${max} allowed`);
    this.limit = limit;
    this.max = max;
    this.actual = actual;
  }
}
