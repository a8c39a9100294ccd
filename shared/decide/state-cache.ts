import type { EventIdIndex } from '../log/event-id-index.ts';
import type { SyncRest } from './resume-cut-sync.ts';

/** A log's folded state as the writer left it, at `head`. */
export interface CachedState<S = unknown, D = unknown, C = unknown> {
  readonly state: S;
  readonly head: number;
  /** The chain hash of the entry at `head` (undefined for an empty or unchained log). */
  readonly headHash: string | undefined;
  /** Position of the newest snapshot stored, for the snapshot cadence. */
  readonly snapshotSeq: number;
  /** The rest of a sync the log holds only the start of (a crash cut it short), to log first. */
  readonly rest?: SyncRest<D, C>;
  /** Every eventId of the log 1 … head (event-id-index.ts), and how much of it is saved. */
  readonly eventIds: EventIdIndex;
  /** Restored from a snapshot: settled records may be archived, not in the state. */
  readonly partial: boolean;
  /**
   * What the fleet summary this writer last committed said (updatedAt aside); undefined after a
   * load from the store, so the first commit always writes it (and clears a stall).
   */
  readonly summaryKey?: string;
  /** The records the state holds (a Job's pods), for the cache's bound. */
  readonly size: number;
}

export interface StateCacheLimits {
  /** Logs kept at most. */
  readonly maxStreams: number;
  /**
   * Records kept at most, summed over the logs (a 10,000-pod Job is ~10 MB of heap). A log's
   * eventId index counts as one record per KB it holds (~85 positions).
   */
  readonly maxPods: number;
}

export const DEFAULT_CACHE_LIMITS: StateCacheLimits = { maxStreams: 256, maxPods: 250_000 };

/**
 * The writer's warm states, least recently used first out. A hot log is then not reloaded for
 * every batch. A cached state can be behind the log (another writer committed): that costs one
 * VersionConflictError on commit, after which the writer evicts it and reloads. The writer
 * hands a state over when it takes it (`take`) and puts it back only after a commit landed, so
 * a state half-way through a failed batch is never reused.
 */
export class StateCache {
  readonly #entries = new Map<string, CachedState>();
  readonly #limits: StateCacheLimits;
  #pods = 0;

  constructor(limits: Partial<StateCacheLimits> = {}) {
    this.#limits = { ...DEFAULT_CACHE_LIMITS, ...limits };
  }

  /** Removes and returns the state of `key`, if cached. */
  take<S, D, C>(key: string): CachedState<S, D, C> | undefined {
    const cached = this.#entries.get(key);
    if (cached) this.#remove(key, cached);
    return cached as CachedState<S, D, C> | undefined;
  }

  put(key: string, cached: CachedState): void {
    const previous = this.#entries.get(key);
    if (previous) this.#remove(key, previous);
    if (weight(cached) > this.#limits.maxPods) return;
    this.#entries.set(key, cached);
    this.#pods += weight(cached);
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#limits.maxStreams && this.#pods <= this.#limits.maxPods) break;
      this.#remove(oldest, entry);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  #remove(key: string, cached: CachedState): void {
    this.#entries.delete(key);
    this.#pods -= weight(cached);
  }
}

/** What a cached state weighs against `maxPods`: its records, and its eventId index by the KB. */
const weight = (cached: CachedState): number => cached.size + Math.ceil(cached.eventIds.bytes / 1024);
