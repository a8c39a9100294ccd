import { backoffMs, sleep } from './backoff.ts';

// The publish function's two triggers, in process: a new outbox item (the table's stream) and
// the schedule (a sweep; every minute in AWS, every few seconds here). Wake-ups while a run is
// going coalesce into one more run, so runs never overlap and no item is published twice by
// two concurrent runs. A failed run (items not fully published) is retried with backoff.

export interface PublishTuning {
  readonly sweepEveryMs: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

/** Retries of a failed run before only the sweep tries again (as the stream's retryAttempts). */
const MAX_RETRIES = 4;

export const DEFAULT_PUBLISH_TUNING: PublishTuning = { sweepEveryMs: 5000, retryBaseMs: 100, retryMaxMs: 5000 };

export class PublishLoop {
  readonly #run: () => Promise<void>;
  readonly #tuning: PublishTuning;
  readonly #sweep: NodeJS.Timeout;
  #running = false;
  #dirty = false;
  #stopped = false;
  #failures = 0;
  #lastError = '';

  constructor(run: () => Promise<void>, tuning: Partial<PublishTuning> = {}) {
    this.#run = run;
    this.#tuning = { ...DEFAULT_PUBLISH_TUNING, ...tuning };
    this.#sweep = setInterval(() => this.wake(), this.#tuning.sweepEveryMs);
    this.#sweep.unref();
  }

  /** Publish now, or once more after the current run. */
  wake(): void {
    if (this.#stopped) return;
    this.#dirty = true;
    if (!this.#running) void this.#drain();
  }

  get idle(): boolean {
    return !this.#running && !this.#dirty;
  }

  /** A run is going (or waiting to retry). */
  get running(): boolean {
    return this.#running;
  }

  stop(): void {
    this.#stopped = true;
    clearInterval(this.#sweep);
  }

  async #drain(): Promise<void> {
    this.#running = true;
    while (this.#dirty && !this.#stopped) {
      this.#dirty = false;
      try {
        await this.#run();
        if (this.#lastError !== '') console.error('local publish: publishing again');
        this.#failures = 0;
        this.#lastError = '';
      } catch (error) {
        this.#failures++;
        const retry = this.#failures < MAX_RETRIES;
        // Once per distinct error: a sweep every few seconds would repeat it forever.
        const message = (error as Error).message;
        if (message !== this.#lastError) console.error(`local publish: ${message}; retrying, then on every sweep`);
        this.#lastError = message;
        if (retry) {
          await sleep(backoffMs(this.#failures, this.#tuning.retryBaseMs, this.#tuning.retryMaxMs));
          this.#dirty = true;
        }
      }
    }
    this.#running = false;
  }
}
