import type { OutgoingEvent } from '../observation.ts';
import { DEFAULT_PACK_LIMITS, PackBuffer, type PackLimits } from './pack.ts';

export interface PackerOptions {
  /** Where entries go once packed (the pipeline's submit). */
  readonly sink: (event: OutgoingEvent) => void;
  readonly limits?: PackLimits;
  readonly now?: () => number;
}

/**
 * Between the watchers and the pipeline: holds a Job's pod events for at most the pack window
 * (50 ms by default), then passes them on as one `Pod Observations` event (pack.ts). A pack that
 * fills up goes at once; with `windowMs` 0 every event passes straight through.
 */
export class Packer {
  readonly #sink: (event: OutgoingEvent) => void;
  readonly #buffer: PackBuffer;
  readonly #windowMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: PackerOptions) {
    const limits = options.limits ?? DEFAULT_PACK_LIMITS;
    this.#sink = options.sink;
    this.#buffer = new PackBuffer(limits);
    this.#windowMs = limits.windowMs;
    this.#now = options.now ?? Date.now;
  }

  submit(event: OutgoingEvent): void {
    if (this.#windowMs <= 0) return this.#sink(event);
    for (const ready of this.#buffer.add(event, this.#now())) this.#sink(ready);
    this.#arm();
  }

  /** Sends every open pack now (before stopping, or when waiting for the pipeline to be idle). */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const ready of this.#buffer.drain()) this.#sink(ready);
  }

  /** Observations waiting for their pack's window. */
  get waiting(): number {
    return this.#buffer.openObservations;
  }

  #arm(): void {
    const due = this.#buffer.nextDueAtMs();
    if (this.#timer !== undefined || due === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      for (const ready of this.#buffer.due(this.#now())) this.#sink(ready);
      this.#arm();
    }, Math.max(0, due - this.#now()));
  }
}
