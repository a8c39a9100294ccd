import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { backoffMs } from '../runtime/backoff.ts';
import { kinesisRecord, type StoredRecord } from './stream-record.ts';

// Lambda's Kinesis event source mapping for one shard (or one of its parallelization lanes), in
// process. One batch at a time, in sequence order, from the checkpoint on:
//  - the batch is what waited at most `batchWindowMs` (MaximumBatchingWindowInSeconds), up to
//    `batchSize` records;
//  - a complete success moves the checkpoint past the batch;
//  - a partial batch response (ReportBatchItemFailures) moves it to the lowest failed sequence
//    number and retries from there, only the records from it to the batch's end (bisected there);
//  - a thrown error retries the batch, halved when `bisectOnError` (BisectBatchOnFunctionError);
//    halving does not count as a retry, so a poison record is isolated, then retried;
//  - after `maxRetryAttempts` retries the records go to the on-failure list (the SQS destination
//    in AWS) with the last error, and the shard moves on.

export interface ConsumerTuning {
  readonly batchSize: number;
  readonly batchWindowMs: number;
  readonly maxRetryAttempts: number;
  readonly bisectOnError: boolean;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export type StreamHandler = (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse | void>;

/** Records a shard gave up on after its retries, as the on-failure destination keeps them. */
export interface StreamFailure {
  readonly shardId: string;
  readonly startSequenceNumber: string;
  readonly endSequenceNumber: string;
  readonly attempts: number;
  readonly error: string;
  readonly records: readonly StoredRecord[];
}

type Outcome = { readonly failedAt: number; readonly error: string; readonly threw: boolean } | undefined;

export class ShardConsumer {
  readonly shardId: string;
  readonly #streamName: string;
  readonly #handler: StreamHandler;
  readonly #tuning: ConsumerTuning;
  readonly #onFailure: (failure: StreamFailure) => void;
  readonly #onSettled: () => void;
  /** Records from the checkpoint on, oldest first. */
  readonly #records: StoredRecord[] = [];
  /** Set after a failure: the retry's batch size and when it may start. */
  #retry: { size: number; atMs: number } | undefined;
  #attempts = 0;
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(shardId: string, streamName: string, handler: StreamHandler, tuning: ConsumerTuning, onFailure: (failure: StreamFailure) => void,
    onSettled: () => void = () => {}) {
    this.shardId = shardId;
    this.#streamName = streamName;
    this.#handler = handler;
    this.#tuning = tuning;
    this.#onFailure = onFailure;
    this.#onSettled = onSettled;
  }

  add(record: StoredRecord): void {
    this.#records.push(record);
    this.#schedule();
  }

  /** Nothing waiting, being processed or waiting to be retried. */
  get idle(): boolean {
    return this.#records.length === 0 && !this.#running;
  }

  get processing(): boolean {
    return this.#running;
  }

  get depth(): number {
    return this.#records.length;
  }

  /** The position of the oldest record not yet processed (the checkpoint), or undefined when none is left. */
  get checkpoint(): number | undefined {
    return this.#records[0]?.position;
  }

  /** Hands out no more batches; the one in flight finishes. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    if (this.#running || this.#stopped || this.#timer !== undefined || this.#records.length === 0) return;
    const now = Date.now();
    const first = this.#records[0] as StoredRecord;
    const due = this.#retry ? this.#retry.atMs
      : this.#records.length >= this.#tuning.batchSize ? now : first.arrivedAtMs + this.#tuning.batchWindowMs;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#invoke();
    }, Math.max(0, due - now));
  }

  async #invoke(): Promise<void> {
    if (this.#stopped || this.#records.length === 0) return;
    this.#running = true;
    const size = Math.min(this.#retry?.size ?? this.#tuning.batchSize, this.#tuning.batchSize, this.#records.length);
    const batch = this.#records.slice(0, size);
    try {
      this.#settle(batch, await this.#call(batch));
    } finally {
      this.#running = false;
      this.#onSettled();
      this.#schedule();
    }
  }

  async #call(batch: readonly StoredRecord[]): Promise<Outcome> {
    let response: KinesisStreamBatchResponse | void;
    try {
      response = await this.#handler({ Records: batch.map((r) => kinesisRecord(r, this.shardId, this.#streamName)) });
    } catch (error) {
      return { failedAt: 0, error: (error as Error).message ?? String(error), threw: true };
    }
    const failures = response?.batchItemFailures ?? [];
    if (failures.length === 0) return undefined;
    // The lowest sequence number reported is the checkpoint; an identifier that names no record
    // of the batch makes the whole batch a failure, as in AWS.
    const indexes = failures.map((f) => batch.findIndex((r) => r.sequenceNumber === f.itemIdentifier));
    const failedAt = indexes.some((i) => i < 0) ? 0 : Math.min(...indexes);
    return { failedAt, error: `batch item failure at sequence number ${batch[failedAt]?.sequenceNumber}`, threw: false };
  }

  #settle(batch: readonly StoredRecord[], outcome: Outcome): void {
    if (outcome === undefined) {
      this.#records.splice(0, batch.length);
      this.#attempts = 0;
      this.#retry = undefined;
      return;
    }
    this.#records.splice(0, outcome.failedAt);
    const remaining = batch.length - outcome.failedAt;
    const bisect = outcome.threw && this.#tuning.bisectOnError && remaining > 1;
    if (!bisect) this.#attempts++;
    if (this.#attempts > this.#tuning.maxRetryAttempts) {
      const given = this.#records.splice(0, remaining);
      this.#onFailure({
        shardId: this.shardId,
        startSequenceNumber: given[0]?.sequenceNumber ?? '',
        endSequenceNumber: given.at(-1)?.sequenceNumber ?? '',
        attempts: this.#attempts,
        error: outcome.error,
        records: given,
      });
      this.#attempts = 0;
      this.#retry = undefined;
      return;
    }
    const size = bisect ? Math.ceil(remaining / 2) : remaining;
    this.#retry = { size, atMs: Date.now() + backoffMs(Math.max(1, this.#attempts), this.#tuning.retryBaseMs, this.#tuning.retryMaxMs) };
  }
}
