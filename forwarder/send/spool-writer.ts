import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { OutgoingEvent } from '../observation.ts';
import { backoffDelayMs, sleep, type BackoffPolicy } from './backoff.ts';
import type { Spool } from './spool.ts';

export interface SpoolWriterOptions {
  readonly spool: Spool;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** Delay between attempts when the spool cannot be written. */
  readonly retryBackoff: BackoffPolicy;
  readonly random?: () => number;
  readonly onDurable?: (events: readonly OutgoingEvent[]) => void;
  readonly onOverflow?: (events: readonly OutgoingEvent[]) => void;
  /** Called each time everything queued has been written. */
  readonly onWritten: () => void;
}

/**
 * Appends events to the spool in the order they are queued, many per fsync (group commit):
 * whatever is queued while one append runs goes into the next. Events the full spool refuses
 * are counted, logged and handed to `onOverflow`.
 */
export class SpoolWriter {
  readonly #o: SpoolWriterOptions;
  readonly #queue: OutgoingEvent[] = [];
  #flushing: Promise<void> | undefined;
  #stopping = false;

  constructor(options: SpoolWriterOptions) {
    this.#o = options;
  }

  /** True while events are queued or being written. */
  get busy(): boolean {
    return this.#flushing !== undefined || this.#queue.length > 0;
  }

  write(events: readonly OutgoingEvent[]): void {
    this.#queue.push(...events);
    this.#flushing ??= this.#flush().finally(() => {
      this.#flushing = undefined;
      this.#o.onWritten();
    });
  }

  /** Resolves once everything queued is written; when stopping, gives up on a failing disk. */
  async drain(stopping = false): Promise<void> {
    this.#stopping ||= stopping;
    while (this.#flushing) await this.#flushing;
  }

  async #flush(): Promise<void> {
    const { spool, metrics, log } = this.#o;
    let failures = 0;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0);
      let result: Awaited<ReturnType<Spool['append']>>;
      try {
        result = await spool.append(batch);
        failures = 0;
      } catch (error) {
        // Disk full or unwritable: the events stay queued in memory and the write is retried.
        this.#queue.unshift(...batch);
        log.error('could not write to the spool; retrying', { events: this.#queue.length, error });
        if (this.#stopping && failures > 2) return;
        await sleep(backoffDelayMs(failures++, this.#o.retryBackoff, this.#o.random ?? Math.random));
        continue;
      }
      const { spooled, overflow } = result;
      metrics.inc('forwarder_events_spooled_total', {}, spooled.length);
      if (spooled.length > 0) this.#o.onDurable?.(spooled);
      if (overflow.length > 0) {
        metrics.inc('forwarder_spool_overflow_events_total', {}, overflow.length);
        log.error('spool full: events could not be kept', { events: overflow.length, spoolBytes: spool.bytes, firstEventId: overflow[0]?.eventId });
        this.#o.onOverflow?.(overflow);
      }
    }
  }
}
