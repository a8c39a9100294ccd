import { backoffMs, sleep } from './backoff.ts';

// The publish function's two triggers, in process: a commit's outbox items (the table's stream;
// the run publishes those ids) and the schedule (a sweep of everything pending; every minute in
// AWS, every few seconds here). Wake-ups while a run is going coalesce into one more run, so runs
// never overlap and no item is published twice by two concurrent runs. A failed run is retried
// with backoff, with the same ids (as Lambda delivers a failed stream batch again).

/** What a run publishes: the named outbox items, or (a sweep) whatever is pending. */
export type PublishWake = readonly string[] | 'sweep';

export interface PublishTuning {
  readonly sweepEveryMs: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

/** Retries of a failed run before only the sweep tries again (as the stream's retryAttempts). */
const MAX_RETRIES = 4;

export const DEFAULT_PUBLISH_TUNING: PublishTuning = { sweepEveryMs: 5000, retryBaseMs: 100, retryMaxMs: 5000 };

export class PublishLoop {
  readonly #run: (wake: PublishWake) => Promise<void>;
  readonly #tuning: PublishTuning;
  readonly #sweep: NodeJS.Timeout;
  #running = false;
  readonly #named = new Set<string>();
  #sweepDue = false;
  #stopped = false;
  #failures = 0;
  #lastError = '';

  constructor(run: (wake: PublishWake) => Promise<void>, tuning: Partial<PublishTuning> = {}) {
    this.#run = run;
    this.#tuning = { ...DEFAULT_PUBLISH_TUNING, ...tuning };
    this.#sweep = setInterval(() => this.wake(), this.#tuning.sweepEveryMs);
    this.#sweep.unref();
  }

  /** Publish the named items (none named: sweep) now, or once more after the current run. */
  wake(commandIds?: readonly string[]): void {
    if (this.#stopped) return;
    if (commandIds === undefined) this.#sweepDue = true;
    else for (const id of commandIds) this.#named.add(id);
    if (!this.#running) void this.#drain();
  }

  get idle(): boolean {
    return !this.#running && !this.#due;
  }

  get #due(): boolean {
    return this.#named.size > 0 || this.#sweepDue;
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
    while (this.#due && !this.#stopped) {
      const named = [...this.#named];
      const sweep = this.#sweepDue;
      this.#named.clear();
      this.#sweepDue = false;
      try {
        if (named.length > 0) await this.#run(named);
        if (sweep) await this.#run('sweep');
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
          for (const id of named) this.#named.add(id);
          this.#sweepDue ||= sweep;
        }
      }
    }
    this.#running = false;
  }
}
