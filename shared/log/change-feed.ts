import type { StreamId } from './event-store.ts';

// The change feed: which logs of a cluster grew, and when, in the order jobfold recorded it.
// Every write to a log (an append's entry, a commit's entries or log pages) is one change: the
// run of positions it stored and the time it was recorded (`recordedAt`). Readers that follow a
// fleet without reading every log (the Kubernetes watch of functions/kube) page through it by
// time; what changed is then read from the logs themselves. Implementations:
// in-memory-event-store.ts and functions/adapters/dynamodb-change-feed.ts (a sparse index over
// the log items); test/integration/store holds both to one contract.

/** One write to one log: positions `firstSeq…lastSeq`, recorded at `recordedAt`. */
export interface LogChange {
  readonly stream: StreamId;
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly recordedAt: string;
}

export interface ChangeQuery {
  readonly kind: StreamId['kind'];
  readonly clusterId: string;
  /** Changes recorded at or after this time (epoch milliseconds). */
  readonly sinceMs: number;
  /** From a previous page: continue right after its last change. */
  readonly cursor?: string;
  /** At most this many changes (1–1,000). */
  readonly limit: number;
}

/**
 * Changes in the order they were recorded (ties in a fixed order); `cursor` is set when more
 * may follow. Changes recorded while a reader pages may appear on a later page, never out of
 * order within one.
 */
export interface ChangePage {
  readonly changes: LogChange[];
  readonly cursor?: string;
}

export interface ChangeFeed {
  /** RangeError for a limit out of range or a cursor this feed did not return. */
  logChanges(query: ChangeQuery): Promise<ChangePage>;
}

export const MAX_CHANGES_PER_PAGE = 1000;
