import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { backoffMs } from './backoff.ts';
import { sqsRecord, type QueuedMessage } from './sqs-record.ts';

// An SQS queue with its Lambda event source mapping, in process: messages are handed to the
// consumer in batches of up to 10; a message reported failed (partial batch response) or in a
// batch that threw becomes visible again after a backoff, and moves to the dead-letter list
// after `maxReceiveCount` receives, as a redrive policy does.
// `ordered` (the default) hands out one batch at a time, never mixing messages sent in
// different PutEvents calls, so a trace is ingested in the order it was fed. A standard queue
// with several pollers, as in AWS (`ordered: false`, `maxConcurrentBatches` > 1), may reorder
// them; the fold tolerates that, but its decisions then follow the order of arrival.

export interface QueueTuning {
  readonly ordered: boolean;
  readonly batchSize: number;
  readonly maxConcurrentBatches: number;
  readonly maxReceiveCount: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export const DEFAULT_QUEUE_TUNING: QueueTuning = {
  ordered: true,
  batchSize: 10,
  maxConcurrentBatches: 4,
  maxReceiveCount: 5,
  retryBaseMs: 100,
  retryMaxMs: 2000,
};

interface Message extends QueuedMessage {
  /** Messages sent in one turn of the event loop (one PutEvents call) share a group. */
  readonly group: number;
  receiveCount: number;
  visibleAtMs: number;
}

/** A message that failed `maxReceiveCount` receives, with the last error. */
export interface DeadLetter {
  readonly messageId: string;
  readonly body: string;
  readonly receiveCount: number;
  readonly error: string;
}

export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export class LocalQueue {
  readonly name: string;
  readonly #consumer: QueueConsumer;
  readonly #tuning: QueueTuning;
  readonly #waiting: Message[] = [];
  readonly #deadLetters: DeadLetter[] = [];
  #inFlight = 0;
  #group = 0;
  #pumpQueued = false;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(name: string, consumer: QueueConsumer, tuning: Partial<QueueTuning> = {}) {
    this.name = name;
    this.#consumer = consumer;
    this.#tuning = { ...DEFAULT_QUEUE_TUNING, ...tuning };
  }

  send(body: string): void {
    const now = Date.now();
    // Wait for the rest of the current PutEvents call, so its entries form one batch.
    if (!this.#pumpQueued) {
      this.#group++;
      this.#pumpQueued = true;
      setImmediate(() => {
        this.#pumpQueued = false;
        this.#pump();
      });
    }
    this.#waiting.push({ messageId: randomUUID(), body, sentAtMs: now, group: this.#group, receiveCount: 0, visibleAtMs: now });
  }

  /** No message waiting, delayed or being processed. */
  get idle(): boolean {
    return this.#waiting.length === 0 && this.#inFlight === 0;
  }

  /** A batch is being processed. */
  get processing(): boolean {
    return this.#inFlight > 0;
  }

  get depth(): number {
    return this.#waiting.length;
  }

  deadLetters(): readonly DeadLetter[] {
    return this.#deadLetters;
  }

  /** Stops handing out batches; batches in flight finish. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  #pump(): void {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#inFlight < this.#concurrency) {
      const batch = this.#takeVisible();
      if (batch.length === 0) break;
      this.#inFlight++;
      void this.#process(batch).finally(() => {
        this.#inFlight--;
        this.#pump();
      });
    }
    const next = Math.min(...this.#waiting.map((m) => m.visibleAtMs));
    if (Number.isFinite(next) && this.#inFlight < this.#concurrency) {
      this.#timer = setTimeout(() => this.#pump(), Math.max(0, next - Date.now()));
    }
  }

  get #concurrency(): number {
    return this.#tuning.ordered ? 1 : this.#tuning.maxConcurrentBatches;
  }

  #takeVisible(): Message[] {
    const now = Date.now();
    const batch: Message[] = [];
    for (let i = 0; i < this.#waiting.length && batch.length < this.#tuning.batchSize;) {
      const message = this.#waiting[i] as Message;
      if (message.visibleAtMs > now) {
        i++;
        continue;
      }
      if (this.#tuning.ordered && batch.length > 0 && message.group !== batch[0]?.group) break;
      this.#waiting.splice(i, 1);
      message.receiveCount++;
      batch.push(message);
    }
    return batch;
  }

  async #process(batch: Message[]): Promise<void> {
    let failed: Set<string>;
    let error = 'reported as a batch item failure';
    try {
      const response = await this.#consumer({ Records: batch.map((m) => sqsRecord(m, this.name)) });
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (thrown) {
      failed = new Set(batch.map((m) => m.messageId));
      error = (thrown as Error).message;
    }
    for (const message of batch) {
      if (!failed.has(message.messageId)) continue;
      if (message.receiveCount >= this.#tuning.maxReceiveCount) {
        this.#deadLetters.push({ messageId: message.messageId, body: message.body, receiveCount: message.receiveCount, error });
        console.error(`local queue ${this.name}: message ${message.messageId} moved to the dead-letter list after ${message.receiveCount} receives: ${error}`);
        continue;
      }
      message.visibleAtMs = Date.now() + backoffMs(message.receiveCount, this.#tuning.retryBaseMs, this.#tuning.retryMaxMs);
      this.#waiting.push(message);
    }
  }
}
