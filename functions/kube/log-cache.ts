/**
 * What the kube API reads or builds from a log as of one head: a log read whole (a Job's pods
 * and events are built from its whole log), and the objects a list pages through (a big Job's
 * pods, a log's Events). Kept by key (stream, head and what), least recently used first out, at
 * most `maxEntries` items in all. A list of a big Job's pods builds them once, on its first
 * page, and its continue tokens pin that head, so the pages after it read nothing while the
 * instance stays warm; a log that grew is another key, so nothing stale is served.
 */
export class LogCache {
  readonly #maxEntries: number;
  readonly #lists = new Map<string, readonly unknown[]>();
  #entries = 0;

  constructor(maxEntries = 50_000) {
    this.#maxEntries = maxEntries;
  }

  get<T>(key: string): readonly T[] | undefined {
    const list = this.#lists.get(key);
    if (list === undefined) return undefined;
    this.#lists.delete(key);
    this.#lists.set(key, list);
    return list as readonly T[];
  }

  set(key: string, list: readonly unknown[]): void {
    if (list.length > this.#maxEntries) return;
    const known = this.#lists.get(key);
    if (known !== undefined) {
      this.#entries -= known.length;
      this.#lists.delete(key);
    }
    this.#lists.set(key, list);
    this.#entries += list.length;
    for (const [oldest, items] of this.#lists) {
      if (this.#entries <= this.#maxEntries) break;
      this.#lists.delete(oldest);
      this.#entries -= items.length;
    }
  }
}
