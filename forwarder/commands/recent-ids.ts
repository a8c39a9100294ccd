/**
 * A bounded set of the most recently added ids (oldest evicted first). Standard SQS queues
 * may deliver a message twice; this skips the second copy of a command just applied.
 */
export class RecentIds {
  readonly #capacity: number;
  readonly #ids = new Set<string>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  delete(id: string): void {
    this.#ids.delete(id);
  }

  add(id: string): void {
    this.#ids.delete(id);
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) {
      const oldest = this.#ids.values().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
  }
}
