import type { StreamId } from '../../shared/log/event-store.ts';
import { countAtSync, evolve, type JobEvent } from '../../shared/job/index.ts';
import { foldFromSnapshot, restoreSnapshot, type JobSnapshot } from '../../shared/job/index.ts';
import { initialState, type JobState } from '../../shared/job/index.ts';
import { BadRequestError } from './http-errors.ts';
import type { QueryDeps } from './http.ts';
import { entryAt, lastRecordedIn, logHead, readRange, readRun, timeSpan } from './log-reads.ts';
import { LogWindow } from './log-window.ts';
import type { LogPoint } from './params.ts';

/** The state at a point of the log: after its entry `seq` (0: before any), recorded at `recordedAt`. */
export interface StateAt {
  readonly state: JobState;
  readonly seq: number;
  readonly recordedAt: string | undefined;
  readonly head: number;
}

/**
 * Folds a Job's log up to a point, from the newest snapshot at or before it:
 * - none: the head;
 * - `{seq}`: entries 1..seq; a seq beyond the head is a 400 at `query.at`;
 * - `{time}`: the longest prefix whose entries were all recorded at or before that time.
 *   `recordedAt` (when jobfold stored the entry) is used rather than `observedAt`, because it
 *   follows the log's order: the prefix is exactly what jobfold knew at that time, while
 *   observations can arrive late and out of order.
 * The cost is one snapshot, the entries after it up to the point, and the archived pods those
 * entries name (all of them for a Job with a success policy whose entries hold an interim
 * condition logged before fold-2026-11-28.29) — not the log before the snapshot.
 */
export async function jobStateAt(deps: QueryDeps, stream: StreamId, point: LogPoint | undefined): Promise<StateAt> {
  const head = await logHead(deps.store, stream);
  if (point !== undefined && 'time' in point) return stateRecordedBy(deps, stream, point.time, head);
  const seq = point?.seq ?? head;
  if (seq > head) {
    throw new BadRequestError([{ path: 'query.at', message: `log position ${seq} is beyond the head of the log (${head})` }]);
  }
  const { state, recordedAt } = await foldTo(deps, stream, seq);
  return { state, seq, recordedAt: recordedAt ?? (await entryAt(deps.store, stream, seq))?.recordedAt, head };
}

/**
 * The state after the last entry recorded at or before `time`. The time search ends with a
 * span of positions to read; when the newest snapshot before the span's end lies before the
 * span too (as it usually does: snapshots are thousands of entries apart on a big Job), one read
 * from that snapshot serves both, the span to search and the tail to fold.
 */
async function stateRecordedBy(deps: QueryDeps, stream: StreamId, time: string, head: number): Promise<StateAt> {
  const span = await timeSpan(deps.store, stream, time, head);
  const snapshot = span.hi < 1 ? undefined : await deps.store.loadSnapshot(stream, { atOrBefore: span.hi });
  let seq: number;
  let known: FoldOptions['known'];
  let recordedAt: string | undefined;
  if ((snapshot?.seq ?? 0) <= span.lo) {
    const run = await readRun(deps.store, stream, snapshot?.seq ?? 0, span.hi);
    seq = lastRecordedIn(run.entries, time, span.lo);
    const upTo = run.entries.filter((entry) => entry.seq <= seq);
    recordedAt = upTo.at(-1)?.seq === seq ? upTo.at(-1)?.recordedAt : undefined;
    known = { window: new LogWindow(upTo), firstSightings: run.firstSightings };
  } else {
    seq = lastRecordedIn(await readRange(deps.store, stream, span.lo, span.hi), time, span.lo);
  }
  const folded = await foldTo(deps, stream, seq, known === undefined ? {} : { known });
  recordedAt ??= folded.recordedAt ?? (await entryAt(deps.store, stream, seq))?.recordedAt;
  return { state: folded.state, seq, recordedAt, head };
}

export interface FoldOptions {
  /** Consecutive entries ending at `seq` the caller read already (the Job view's window), reused for the tail. */
  readonly known?: { readonly window: LogWindow; readonly firstSightings: ReadonlySet<number> };
  /** Fold the whole log, no snapshot: an archived pod the tail needs was stored after the snapshot. */
  readonly fromStart?: boolean;
  /** From the snapshot, restore every archived pod: a finish walk of the tail reads them (shared/job/finish-walk.ts). */
  readonly wholeArchive?: boolean;
}

/**
 * The state after entry `seq`: the newest snapshot at or before it, the archived pods the
 * entries after it need (shared/job/archive-restore.ts), then those entries. Returns the events folded after the snapshot too,
 * the window they were read in (given or read here: only the folded entries are parsed), and
 * when it read the entry at `seq`, the time it was recorded at.
 */
export async function foldTo(
  deps: Pick<QueryDeps, 'store' | 'config'>,
  stream: StreamId,
  seq: number,
  options: FoldOptions = {},
): Promise<{ state: JobState; tail: JobEvent[]; window: LogWindow; recordedAt?: string }> {
  const snapshot = seq < 1 || options.fromStart === true ? undefined : await deps.store.loadSnapshot(stream, { atOrBefore: seq });
  const state = snapshot ? restoreSnapshot(snapshot.state as JobSnapshot) : initialState(deps.config);
  const from = snapshot?.seq ?? 0;
  const { known } = options;
  const covered = known !== undefined && known.window.from <= from + 1 && known.window.last === seq;
  const run = covered ? undefined : await readRun(deps.store, stream, from, seq);
  const window = run ? new LogWindow(run.entries) : known!.window;
  const tail = window.eventsAfter(from);
  if (snapshot) {
    // The pods the writer's rule restores, then the tail (shared/job/archive-restore.ts).
    const firstSightings = run?.firstSightings ?? known!.firstSightings;
    const folded = await foldFromSnapshot(deps.store, stream, state, tail, firstSightings, options.wholeArchive === true);
    // A pod's form stored after the snapshot is ahead of it: the whole log, once.
    if (folded === 'newer-than-snapshot') return foldTo(deps, stream, seq, { fromStart: true });
    // A finish walk read archived pods the state lacked: again from the snapshot, with them all (the entries read are kept).
    if (folded === 'walk-read-archive') return foldTo(deps, stream, seq, { wholeArchive: true, known: { window, firstSightings } });
  } else {
    for (const event of tail) evolve(state, event);
  }
  // The writer's sync here counted what its run changed: not logged, every reader re-derives it.
  countAtSync(state);
  const last = run?.entries.at(-1);
  return { state, tail, window, ...(last?.seq === seq ? { recordedAt: last.recordedAt } : {}) };
}
