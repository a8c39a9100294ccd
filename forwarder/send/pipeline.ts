import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { OutgoingEvent } from '../observation.ts';
import { backoffDelayMs, sleep, type BackoffPolicy } from './backoff.ts';
import { MAX_ENTRIES_PER_REQUEST, nextBatchLength } from './batching.ts';
import type { BatchSender } from './put-events.ts';
import { recordRejections } from './rejections.ts';
import type { Spool, SpooledRecord } from './spool.ts';
import { SpoolWriter } from './spool-writer.ts';

export interface PipelineOptions {
  readonly send: BatchSender;
  readonly spool: Spool;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** Events held in memory before new ones go to the spool instead. */
  readonly memoryLimit: number;
  /** Delay between replay attempts while sending keeps failing. */
  readonly replayBackoff: BackoffPolicy;
  /** Where entries EventBridge refuses for good are kept (JSON lines). */
  readonly rejectedFile: string;
  /** Called with events once they are safe: accepted by EventBridge or fsync'd to the spool. */
  readonly onDurable?: (events: readonly OutgoingEvent[]) => void;
  /** Called with events the full spool could not take; they are lost unless relisted. */
  readonly onOverflow?: (events: readonly OutgoingEvent[]) => void;
  readonly random?: () => number;
}

/**
 * Events from the watchers to the bus, in order, never dropped silently.
 *
 * 1. While sending works, events wait in memory and go out in PutEvents batches.
 * 2. When a batch still fails after its retries (or memory fills up), the pipeline switches to
 *    spooling: that batch, the rest of memory, and every later event are appended to the spool.
 * 3. While spooling, the head of the spool is replayed batch by batch, backing off between
 *    failures; once it is empty, the pipeline switches back to memory.
 *
 * Order is kept except in one case: a batch in flight when memory overflows is spooled after
 * the events that overflowed. Stopping spools whatever is still in memory, so the next start
 * replays it.
 */
export class EventPipeline {
  readonly #o: PipelineOptions;
  readonly #memory: OutgoingEvent[] = [];
  readonly #writer: SpoolWriter;
  readonly #abort = new AbortController();
  #spooling: boolean;
  #inFlight = 0;
  #stopped = false;
  #loop: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;
  #woken = false;

  constructor(options: PipelineOptions) {
    this.#o = options;
    this.#spooling = !options.spool.isEmpty();
    this.#writer = new SpoolWriter({
      ...options,
      retryBackoff: options.replayBackoff,
      onWritten: () => {
        this.#gauges();
        this.#wake();
      },
    });
    this.#gauges();
  }

  /** True while events go through the spool. */
  get spooling(): boolean {
    return this.#spooling;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  submit(event: OutgoingEvent): void {
    if (!this.#spooling && this.#memory.length < this.#o.memoryLimit) {
      this.#memory.push(event);
    } else {
      if (!this.#spooling) this.#startSpooling('the memory queue is full', []);
      this.#writer.write([event]);
    }
    this.#gauges();
    this.#wake();
  }

  /** Resolves once nothing is waiting anywhere (memory, spool, in flight). For tests and drains. */
  async whenIdle(pollMs = 5): Promise<void> {
    while (this.#spooling || this.#memory.length > 0 || this.#inFlight > 0 || this.#writer.busy) {
      await sleep(pollMs);
    }
  }

  /** Stops sending and makes everything still in memory durable in the spool. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort();
    this.#wake();
    await this.#loop;
    if (this.#memory.length > 0) this.#writer.write(this.#memory.splice(0));
    await this.#writer.drain(true);
    await this.#o.spool.close();
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#stopped) {
      let failed: boolean | undefined;
      try {
        failed = this.#spooling ? await this.#replayOnce() : await this.#sendOnce();
      } catch (error) {
        // A spool that cannot be read or written: say so and try again, never exit quietly.
        this.#o.log.error('event pipeline error', { error });
        failed = true;
      }
      if (failed === undefined) await this.#sleepUntilWoken();
      else if (failed) {
        failures++;
        if (this.#spooling) await sleep(backoffDelayMs(failures - 1, this.#o.replayBackoff, this.#o.random ?? Math.random), this.#abort.signal);
      } else failures = 0;
      this.#gauges();
    }
  }

  /** One batch from memory; undefined when there was nothing to send, else whether it failed. */
  async #sendOnce(): Promise<boolean | undefined> {
    if (this.#memory.length === 0) return undefined;
    const batch = this.#memory.splice(0, nextBatchLength(this.#memory));
    this.#inFlight = batch.length;
    const outcome = await this.#o.send(batch, this.#abort.signal).finally(() => (this.#inFlight = 0));
    if (outcome.sent.length > 0) this.#o.onDurable?.(outcome.sent);
    await recordRejections(outcome.rejected, this.#o.rejectedFile, this.#o.metrics, this.#o.log);
    if (outcome.failed.length === 0) return false;
    if (this.#spooling) this.#writer.write(outcome.failed);
    else this.#startSpooling(outcome.lastError ?? 'PutEvents failed', outcome.failed);
    return true;
  }

  /** One batch from the head of the spool; the same results as #sendOnce. */
  async #replayOnce(): Promise<boolean | undefined> {
    await this.#writer.drain();
    const records = await this.#o.spool.peek(MAX_ENTRIES_PER_REQUEST);
    if (records.length === 0) {
      if (!this.#writer.busy && this.#o.spool.isEmpty()) {
        this.#spooling = false;
        this.#o.log.info('spool drained; sending from memory again');
        return false;
      }
      return undefined;
    }
    const batch = records.slice(0, nextBatchLength(records.map((r) => r.event)));
    this.#inFlight = batch.length;
    const outcome = await this.#o.send(batch.map((r) => r.event), this.#abort.signal).finally(() => (this.#inFlight = 0));
    await recordRejections(outcome.rejected, this.#o.rejectedFile, this.#o.metrics, this.#o.log);
    // Only a prefix can leave the spool; events sent after a failed one are sent again later.
    const failed = new Set(outcome.failed);
    const done: SpooledRecord[] = [];
    for (const record of batch) {
      if (failed.has(record.event)) break;
      done.push(record);
    }
    if (done.length > 0) await this.#o.spool.commit(done);
    this.#o.metrics.inc('forwarder_events_replayed_total', {}, done.filter((r) => outcome.sent.includes(r.event)).length);
    return outcome.failed.length > 0;
  }

  #startSpooling(reason: string, first: readonly OutgoingEvent[]): void {
    this.#spooling = true;
    this.#o.log.warn('spooling events to disk', { reason, events: first.length + this.#memory.length });
    this.#writer.write([...first, ...this.#memory.splice(0)]);
  }

  #wake(): void {
    if (this.#wakeUp) {
      this.#wakeUp();
      this.#wakeUp = undefined;
    } else this.#woken = true;
  }

  #sleepUntilWoken(): Promise<void> {
    if (this.#woken || this.#stopped) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => (this.#wakeUp = resolve));
  }

  #gauges(): void {
    const m = this.#o.metrics;
    m.set('forwarder_spooling', this.#spooling ? 1 : 0);
    m.set('forwarder_memory_queue_events', this.#memory.length);
    m.set('forwarder_spool_bytes', this.#o.spool.bytes);
    m.set('forwarder_spool_events', this.#o.spool.count);
  }
}
