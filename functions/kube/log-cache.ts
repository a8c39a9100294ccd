import type { LogEntry } from '../../shared/app/event-store.ts';

/**
 * Logs read whole (a Job's pods and events are built from its whole log), kept by stream and
 * head, least recently used first out, at most `maxEntries` entries in all. A list of a big
 * Job's pods pages through one log read instead of one per page, while the instance stays warm;
 * a log that grew is another key, so nothing stale is served.
 */
export class LogCache {
  readonly #maxEntries: number;
  readonly #logs = new Map<string, readonly LogEntry[]>();
  #entries = 0;

  constructor(maxEntries = 50_000) {
    this.#maxEntries = maxEntries;
  }

  get(key: string): readonly LogEntry[] | undefined {
    const log = this.#logs.get(key);
    if (log === undefined) return undefined;
    this.#logs.delete(key);
    this.#logs.set(key, log);
    return log;
  }

  set(key: string, log: readonly LogEntry[]): void {
    if (log.length > this.#maxEntries) return;
    const known = this.#logs.get(key);
    if (known !== undefined) {
      this.#entries -= known.length;
      this.#logs.delete(key);
    }
    this.#logs.set(key, log);
    this.#entries += log.length;
    for (const [oldest, entries] of this.#logs) {
      if (this.#entries <= this.#maxEntries) break;
      this.#logs.delete(oldest);
      this.#entries -= entries.length;
    }
  }
}
