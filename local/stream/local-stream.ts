import { hashKeyOf, shardIdOf, shardOfHashKey } from './shard-hash.ts';
import { ShardConsumer, type ConsumerTuning, type StreamFailure, type StreamHandler } from './shard-consumer.ts';
import type { StreamJournal } from './stream-journal.ts';
import { sequenceNumberOf, type StoredRecord } from './stream-record.ts';

// A Kinesis data stream and its Lambda event source mapping, in process (cdk/constructs/
// ingest-stream.ts is the AWS one). PutRecord puts a record on the shard its partition key
// hashes to (MD5, as Kinesis); each shard is read by its own consumer loop, one batch at a time,
// in order. With a parallelization factor F, a shard is read by F loops, a partition key always
// by the same one (Lambda keeps per-key order at any factor). So the records of one Job (one
// partition key) reach the handler in the order they were put, one batch at a time, and never
// two batches of one Job at once. With a journal (`npm start -- --data DIR`), what was put but
// not processed survives a process kill, as in Kinesis, and the journal is cut back as each
// shard's checkpoint advances (stream-journal.ts).

export interface StreamTuning extends ConsumerTuning {
  readonly shards: number;
  readonly parallelizationFactor: number;
}

export const DEFAULT_STREAM_TUNING: StreamTuning = {
  shards: 4,
  parallelizationFactor: 2,
  batchSize: 1000,
  batchWindowMs: 20,
  maxRetryAttempts: 10,
  bisectOnError: true,
  retryBaseMs: 50,
  retryMaxMs: 2000,
};

/** Kinesis's limits on a record: a partition key of 1–256 characters, at most 1 MiB with its data. */
export const MAX_PARTITION_KEY_LENGTH = 256;
export const MAX_RECORD_BYTES = 1024 * 1024;

/** Partition keys whose shard and lane are remembered (MD5 once per key, not per record); then it starts over. */
const PLACEMENTS_KEPT = 10_000;

/** PutRecord refused the record (Kinesis's ValidationException). */
export class StreamPutError extends Error {
  override readonly name = 'StreamPutError';
}

export interface PutRecordOutput {
  readonly shardId: string;
  readonly sequenceNumber: string;
}

export class LocalStream {
  readonly name: string;
  readonly #tuning: StreamTuning;
  readonly #lanes: ShardConsumer[];
  readonly #counts: number[];
  readonly #failures: StreamFailure[] = [];
  readonly #failureListeners: ((failure: StreamFailure) => void)[] = [];
  readonly #journal: StreamJournal | undefined;
  /** Partition key → [shard, lane within the shard]. */
  readonly #placements = new Map<string, readonly [number, number]>();

  constructor(name: string, handler: StreamHandler, tuning: Partial<StreamTuning> = {}, journal?: StreamJournal) {
    this.name = name;
    this.#tuning = { ...DEFAULT_STREAM_TUNING, ...tuning };
    const { shards, parallelizationFactor } = this.#tuning;
    if (!Number.isInteger(parallelizationFactor) || parallelizationFactor < 1 || parallelizationFactor > 10) {
      throw new Error(`parallelizationFactor must be 1–10, got ${parallelizationFactor}`);
    }
    const onFailure = (failure: StreamFailure) => {
      this.#failures.push(failure);
      console.error(`local stream ${name}: ${failure.records.length} records of ${failure.shardId} (${failure.startSequenceNumber}…${failure.endSequenceNumber}) `
        + `moved to the on-failure list after failing ${failure.attempts} times: ${failure.error}`);
      for (const listener of this.#failureListeners) listener(failure);
    };
    this.#counts = Array.from({ length: shards }, () => 0);
    this.#journal = journal;
    this.#lanes = Array.from({ length: shards * parallelizationFactor }, (_, lane) => {
      const shard = Math.floor(lane / parallelizationFactor);
      return new ShardConsumer(shardIdOf(shard), name, handler, this.#tuning, onFailure, () => this.#checkpointed(shard));
    });
    if (journal) this.#replay(journal);
  }

  /** PutRecord: stores the record on its shard and returns where; throws StreamPutError when Kinesis would refuse it. */
  put(partitionKey: string, data: string | Buffer): PutRecordOutput {
    const length = [...partitionKey].length;
    if (length < 1 || length > MAX_PARTITION_KEY_LENGTH) {
      throw new StreamPutError(`partition key must be 1 to ${MAX_PARTITION_KEY_LENGTH} characters, got ${length}`);
    }
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (bytes.length + Buffer.byteLength(partitionKey, 'utf8') > MAX_RECORD_BYTES) {
      throw new StreamPutError(`a record (data and partition key) is at most ${MAX_RECORD_BYTES} bytes, got ${bytes.length}`);
    }
    return this.#enqueue(partitionKey, bytes);
  }

  /** The key's shard, and its lane there: another cut of the same hash, so one key always lands on one loop. */
  #placement(partitionKey: string): readonly [number, number] {
    let placement = this.#placements.get(partitionKey);
    if (placement === undefined) {
      const hashKey = hashKeyOf(partitionKey);
      placement = [shardOfHashKey(hashKey, this.#tuning.shards), Number(hashKey % BigInt(this.#tuning.parallelizationFactor))];
      if (this.#placements.size >= PLACEMENTS_KEPT) this.#placements.clear();
      this.#placements.set(partitionKey, placement);
    }
    return placement;
  }

  #enqueue(partitionKey: string, bytes: Buffer): PutRecordOutput {
    const { parallelizationFactor } = this.#tuning;
    const [shard, lane] = this.#placement(partitionKey);
    const n = this.#counts[shard] as number;
    this.#counts[shard] = n + 1;
    // Journaled before it is acknowledged: a put that returned is never lost to a process kill.
    this.#journal?.append(shardIdOf(shard), n, { partitionKey, data: bytes });
    const record: StoredRecord = { partitionKey, sequenceNumber: sequenceNumberOf(shard, n), position: n, data: bytes, arrivedAtMs: Date.now() };
    (this.#lanes[shard * parallelizationFactor + lane] as ShardConsumer).add(record);
    return { shardId: shardIdOf(shard), sequenceNumber: record.sequenceNumber };
  }

  /**
   * At start: puts every record an earlier run journaled again, on the shard its key hashes to
   * now (the shard count may have changed), journaled anew; then drops the old files. The writer
   * drops what it already folded.
   */
  #replay(journal: StreamJournal): void {
    const earlier = journal.takeOver();
    for (const records of earlier.shards.values()) {
      for (const { partitionKey, data } of records) this.#enqueue(partitionKey, data);
    }
    earlier.discard();
  }

  /**
   * A batch of `shard` settled: its checkpoint is the oldest record any of its lanes still holds
   * (or the next position, when none does); the journal drops what lies wholly before it.
   */
  #checkpointed(shard: number): void {
    if (!this.#journal) return;
    const { parallelizationFactor } = this.#tuning;
    const lanes = this.#lanes.slice(shard * parallelizationFactor, (shard + 1) * parallelizationFactor);
    const checkpoint = Math.min(this.#counts[shard] as number, ...lanes.map((lane) => lane.checkpoint ?? Number.POSITIVE_INFINITY));
    this.#journal.release(shardIdOf(shard), checkpoint);
  }

  /** No record waiting, being processed or waiting for a retry. */
  get idle(): boolean {
    return this.#lanes.every((lane) => lane.idle);
  }

  /** A batch is being processed. */
  get processing(): boolean {
    return this.#lanes.some((lane) => lane.processing);
  }

  /** Records not yet checkpointed (waiting, in flight or to be retried). */
  get depth(): number {
    return this.#lanes.reduce((sum, lane) => sum + lane.depth, 0);
  }

  /** Calls `listener` with each batch given up on (the dead-letter triage consumes the on-failure destination). */
  onFailure(listener: (failure: StreamFailure) => void): void {
    this.#failureListeners.push(listener);
  }

  /** Records given up on after their retries (the on-failure destination), with the last error. */
  failures(): readonly StreamFailure[] {
    return this.#failures;
  }

  /** Hands out no more batches; batches in flight finish. */
  stop(): void {
    for (const lane of this.#lanes) lane.stop();
  }
}
