import type { JobState } from '../../job/state.ts';
import type { SyncRest } from '../../reconcile/resume-cut-sync.ts';
import type { EventIdIndex } from './event-id-index.ts';

/** A Job's folded state as the writer left it, at `head` of its log. */
export interface CachedState {
  readonly state: JobState;
  readonly head: number;
  /** The chain hash of the entry at `head` (undefined for an empty or unchained log). */
  readonly headHash: string | undefined;
  /** Position of the newest snapshot stored, for the snapshot cadence. */
  readonly snapshotSeq: number;
  /** The rest of a sync the log holds only the start of (a crash cut it short), to log first. */
  readonly rest?: SyncRest;
  /** Every eventId of the log 1 … head (event-id-index.ts), and how much of it is saved. */
  readonly eventIds: EventIdIndex;
  /** Restored from a snapshot: settled pods may be archived, not in `state.pods`. */
  readonly partial: boolean;
  /**
   * What the fleet summary this writer last committed said (updatedAt aside); undefined after a
   * load from the store, so the first commit always writes it (and clears a stall).
   */
  readonly summaryKey?: string;
}

export interface StateCacheLimits {
  /** Streams kept at most. */
  readonly maxStreams: number;
  /**
   * Pod records kept at most, summed over the streams (a 10,000-pod Job is ~10 MB of heap). A
   * log's eventId index counts as one pod record per KB it holds (~12 positions).
   */
  readonly maxPods: number;
}

export const DEFAULT_CACHE_LIMITS: StateCacheLimits = { maxStreams: 256, maxPods: 250_000 };

/**
 * The writer's warm states, least recently used first out. A hot Job is then not reloaded for
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
  take(key: string): CachedState | undefined {
    const cached = this.#entries.get(key);
    if (cached) this.#remove(key, cached);
    return cached;
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

/** What a cached state weighs against `maxPods`: its pod records, and its eventId index by the KB. */
const weight = (cached: CachedState): number => cached.state.pods.size + Math.ceil(cached.eventIds.bytes / 1024);
