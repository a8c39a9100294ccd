import type { StreamId } from '../../shared/log/event-store.ts';
import { streamKey } from '../../shared/log/stream-key.ts';
import type { TimerScheduler } from '../../shared/ports.ts';

// Timers as EventBridge Scheduler keeps them (functions/aws/scheduler-timers.ts), in process:
// one per Job, replaced when the Job asks for another wake-up, gone once it fired. Firing
// puts the timer record (functions/handlers/writer/timer-record.ts) into the ingest stream through `fire`.

/** setTimeout takes at most 2^31 - 1 ms; a later timer is re-armed on the way. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** Fire a little after the due time, as Scheduler (rounding up to the second) does: never before it. */
const LATE_MS = 5;

interface Pending {
  readonly stream: StreamId;
  readonly at: string;
  handle: NodeJS.Timeout;
}

export class LocalTimers implements TimerScheduler {
  readonly #fire: (stream: StreamId, at: string) => Promise<void>;
  readonly #pending = new Map<string, Pending>();
  #firing = 0;
  #stopped = false;

  constructor(fire: (stream: StreamId, at: string) => Promise<void>) {
    this.#fire = fire;
  }

  async schedule(stream: StreamId, at: string): Promise<void> {
    if (this.#stopped) return;
    const key = streamKey(stream);
    const current = this.#pending.get(key);
    if (current?.at === at) return;
    if (current) clearTimeout(current.handle);
    const pending: Pending = { stream, at, handle: this.#arm(key, at) };
    this.#pending.set(key, pending);
  }

  /** The due time of the next timer (ms since the epoch), if any. */
  nextDueMs(): number | undefined {
    const times = [...this.#pending.values()].map((p) => Date.parse(p.at));
    return times.length === 0 ? undefined : Math.min(...times);
  }

  /** Timers pending (armed or firing). */
  get size(): number {
    return this.#pending.size + this.#firing;
  }

  get firing(): boolean {
    return this.#firing > 0;
  }

  stop(): void {
    this.#stopped = true;
    for (const pending of this.#pending.values()) clearTimeout(pending.handle);
    this.#pending.clear();
  }

  #arm(key: string, at: string): NodeJS.Timeout {
    const delay = Date.parse(at) - Date.now() + LATE_MS;
    if (delay > MAX_DELAY_MS) {
      return setTimeout(() => {
        const pending = this.#pending.get(key);
        if (pending?.at === at) pending.handle = this.#arm(key, at);
      }, MAX_DELAY_MS);
    }
    return setTimeout(() => void this.#due(key, at), Math.max(0, delay));
  }

  async #due(key: string, at: string): Promise<void> {
    const pending = this.#pending.get(key);
    if (!pending || pending.at !== at || this.#stopped) return;
    this.#pending.delete(key);
    this.#firing++;
    try {
      await this.#fire(pending.stream, at);
    } catch (error) {
      // Scheduler retries a failed target; so do we, shortly.
      console.error(`local timers: firing ${key} at ${at} failed, retrying: ${(error as Error).message}`);
      if (!this.#stopped && !this.#pending.has(key)) {
        this.#pending.set(key, { stream: pending.stream, at, handle: setTimeout(() => void this.#due(key, at), 1000) });
      }
    } finally {
      this.#firing--;
    }
  }
}
