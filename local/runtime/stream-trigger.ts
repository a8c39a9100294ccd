import type { StreamId } from '../../shared/app/event-store.ts';
import { streamKey } from '../../shared/app/stream-key.ts';
import { backoffMs, sleep } from './backoff.ts';

// What DynamoDB Streams and its event source mapping do for reconcile, in process: new log
// entries of a Job trigger one run for that Job; runs of one Job never overlap (records of a
// partition key are delivered in order), while different Jobs run side by side up to a limit.
// Entries arriving during a run trigger one more run after it. A run starts `batchWindowMs`
// after the first new entry, so a burst of entries is reconciled once, as the stream's poller
// hands Lambda whatever accumulated since its last poll. A failed run is retried with backoff,
// up to `maxAttempts`, then reported as a failure (where AWS sends it to a DLQ).

export interface TriggerTuning {
  readonly batchWindowMs: number;
  readonly maxConcurrent: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export const DEFAULT_TRIGGER_TUNING: TriggerTuning = { batchWindowMs: 20, maxConcurrent: 8, maxAttempts: 10, retryBaseMs: 50, retryMaxMs: 2000 };

/** A stream whose runs kept failing, with the last error. */
export interface TriggerFailure {
  readonly stream: StreamId;
  readonly attempts: number;
  readonly error: string;
}

interface StreamRun {
  readonly stream: StreamId;
  /** Entries arrived since the current run began (or no run is going). */
  dirty: boolean;
  running: boolean;
}

export class StreamTrigger {
  readonly #run: (stream: StreamId) => Promise<void>;
  readonly #tuning: TriggerTuning;
  readonly #streams = new Map<string, StreamRun>();
  readonly #slots: Array<() => void> = [];
  readonly #failures: TriggerFailure[] = [];
  #active = 0;
  #stopped = false;

  constructor(run: (stream: StreamId) => Promise<void>, tuning: Partial<TriggerTuning> = {}) {
    this.#run = run;
    this.#tuning = { ...DEFAULT_TRIGGER_TUNING, ...tuning };
  }

  /** New entries in `stream`: run for it now, or once more after the current run. */
  trigger(stream: StreamId): void {
    if (this.#stopped) return;
    const key = streamKey(stream);
    const entry = this.#streams.get(key) ?? { stream, dirty: false, running: false };
    this.#streams.set(key, entry);
    entry.dirty = true;
    if (!entry.running) void this.#drain(key, entry);
  }

  /** Nothing running, waiting to run or waiting to retry. */
  get idle(): boolean {
    return this.#streams.size === 0;
  }

  failures(): readonly TriggerFailure[] {
    return this.#failures;
  }

  stop(): void {
    this.#stopped = true;
  }

  async #drain(key: string, entry: StreamRun): Promise<void> {
    entry.running = true;
    let attempt = 0;
    while (entry.dirty && !this.#stopped) {
      if (this.#tuning.batchWindowMs > 0) await sleep(this.#tuning.batchWindowMs);
      entry.dirty = false;
      await this.#acquire();
      try {
        await this.#run(entry.stream);
        attempt = 0;
      } catch (error) {
        attempt++;
        if (attempt >= this.#tuning.maxAttempts) {
          this.#failures.push({ stream: entry.stream, attempts: attempt, error: (error as Error).message });
          console.error(`local reconcile: ${key} failed ${attempt} times, giving up: ${(error as Error).message}`);
          attempt = 0;
        } else {
          entry.dirty = true;
          this.#release();
          await sleep(backoffMs(attempt, this.#tuning.retryBaseMs, this.#tuning.retryMaxMs));
          continue;
        }
      }
      this.#release();
    }
    entry.running = false;
    this.#streams.delete(key);
  }

  #acquire(): Promise<void> {
    if (this.#active < this.#tuning.maxConcurrent) {
      this.#active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#slots.push(resolve));
  }

  #release(): void {
    const next = this.#slots.shift();
    if (next) next();
    else this.#active--;
  }
}
