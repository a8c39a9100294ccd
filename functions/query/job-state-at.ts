import type { LogEntry, StreamId } from '../../shared/app/event-store.ts';
import { loadState } from '../../shared/app/reconcile.ts';
import type { JobState } from '../../shared/job/state.ts';
import { parseTime } from '../../shared/k8s/time.ts';
import { BadRequestError } from './http-errors.ts';
import type { QueryDeps } from './http.ts';
import { foldJobLog } from './job-fold.ts';
import { readLog } from './object-log.ts';
import type { LogPoint } from './params.ts';

/** The state at a point of the log: after its entry `seq` (0: before any), recorded at `recordedAt`. */
export interface StateAt {
  readonly state: JobState;
  readonly seq: number;
  readonly recordedAt: string | undefined;
  readonly head: number;
}

/**
 * Folds a Job's log up to a point:
 * - none: the head, as the reconciler loads it (snapshot, archived pods, tail);
 * - `{seq}`: entries 1..seq; a seq beyond the head is a 400 at `query.at`;
 * - `{time}`: the longest prefix whose entries were all recorded at or before that time.
 *   `recordedAt` (when jobfold stored the entry) is used rather than `observedAt`, because it
 *   follows the log's order: the prefix is exactly what jobfold knew at that time, while
 *   observations can arrive late and out of order.
 */
export async function jobStateAt(deps: QueryDeps, stream: StreamId, point: LogPoint | undefined): Promise<StateAt> {
  if (point === undefined) {
    const { state, head } = await loadState(deps, stream);
    const last = head === 0 ? undefined : (await deps.store.read(stream, { afterSeq: head - 1, limit: 1 })).entries[0];
    return { state, seq: head, recordedAt: last?.recordedAt, head };
  }
  const keep = 'seq' in point
    ? (entry: LogEntry) => entry.seq <= point.seq
    : (entry: LogEntry) => parseTime(entry.recordedAt) <= parseTime(point.time);
  const { entries, head } = await readLog(deps.store, stream, keep);
  if ('seq' in point && point.seq > head) {
    throw new BadRequestError([{ path: 'query.at', message: `log position ${point.seq} is beyond the head of the log (${head})` }]);
  }
  const { state } = foldJobLog(deps.config, entries);
  const last = entries.at(-1);
  return { state, seq: last?.seq ?? 0, recordedAt: last?.recordedAt, head };
}
