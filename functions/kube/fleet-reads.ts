import type { ChangeFeed } from '../../shared/log/change-feed.ts';
import type { EventStore, JobSummary, LogEntry, StreamId } from '../../shared/log/event-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';
import type { FoldConfig } from '../../shared/job/index.ts';
import type { JobSetState } from '../../shared/jobset/index.ts';
import { evolve as evolveJobSet } from '../../shared/jobset/index.ts';
import { initialState as initialJobSetState } from '../../shared/jobset/index.ts';
import { jobSetEntryEvent } from '../../shared/jobset/index.ts';
import { foldTo } from '../query/job-state-at.ts';
import { entryAt, logHead, readRange, readRun } from '../query/log-reads.ts';
import type { CursorKey } from '../query/signed-cursor.ts';
import type { LogCache } from './log-cache.ts';
import type { FoldedJob } from './objects/job-object.ts';
import type { FoldedJobSet } from './objects/jobset-object.ts';
import { SUPERSEDED_LABEL, CONTROLLER_UID_LABEL, LEGACY_CONTROLLER_UID_LABEL } from './objects/meta.ts';
import type { LabelSelector } from './selectors.ts';

// How the kube API reads the store: a Job or JobSet folded from its newest snapshot and tail
// (as the query API does, functions/query/job-state-at.ts), a log read whole for its pods and
// events, and the rule for reused names.

/** What the kube API needs: the query API's store (with the change feed), fold config and cursor key. */
export interface KubeDeps {
  readonly store: EventStore & PodArchive & ChangeFeed;
  readonly config: FoldConfig;
  /** Signs continue tokens (the query API's CURSOR_KEY). */
  readonly cursorKey: CursorKey;
  /** The clock, for ages, list versions and watch deadlines. */
  readonly now: () => number;
  readonly jobfoldVersion: string;
  /** Logs read whole, and the pods and Events built from them, kept by head (log-cache.ts). */
  readonly logCache?: LogCache;
}


export function streamOf(summary: JobSummary): StreamId {
  return { kind: summary.kind, clusterId: summary.clusterId, namespace: summary.namespace, uid: summary.uid };
}

/** The Job at its head, from its newest snapshot and tail. */
export async function foldJob(deps: KubeDeps, summary: JobSummary, superseded: boolean): Promise<FoldedJob> {
  const stream = streamOf(summary);
  const head = await logHead(deps.store, stream);
  const { state, recordedAt } = await foldTo(deps, stream, head);
  const headRecordedAt = recordedAt ?? (await entryAt(deps.store, stream, head))?.recordedAt;
  return { summary, state, head, headRecordedAt, superseded };
}

/** The JobSet at its head, from its newest snapshot and tail. */
export async function foldJobSet(deps: KubeDeps, summary: JobSummary, superseded: boolean): Promise<FoldedJobSet> {
  const stream = streamOf(summary);
  const head = await logHead(deps.store, stream);
  const snapshot = head < 1 ? undefined : await deps.store.loadSnapshot(stream, { atOrBefore: head });
  let state: JobSetState = snapshot ? (structuredClone(snapshot.state) as JobSetState) : initialJobSetState();
  const tail = await readRange(deps.store, stream, snapshot?.seq ?? 0, head);
  for (const entry of tail) state = evolveJobSet(state, jobSetEntryEvent(entry));
  const headRecordedAt = tail.at(-1)?.recordedAt ?? (await entryAt(deps.store, stream, head))?.recordedAt;
  return { summary, state, head, headRecordedAt, superseded };
}

const cacheKey = (stream: StreamId, head: number, what: string): string => `${stream.kind}/${stream.clusterId}/${stream.namespace}/${stream.uid}@${head}/${what}`;

/** The whole log up to `head`, from the cache when it holds it. */
export async function wholeLog(deps: KubeDeps, stream: StreamId, head: number): Promise<readonly LogEntry[]> {
  const key = cacheKey(stream, head, 'log');
  const cached = deps.logCache?.get<LogEntry>(key);
  if (cached !== undefined) return cached;
  const { entries } = await readRun(deps.store, stream, 0, head);
  deps.logCache?.set(key, entries);
  return entries;
}

/**
 * The objects a log holds as of a list's pinned head (`what`: which kind of object, and how they
 * were built), built once: a list's first page builds them at the log's head and its continue
 * tokens pin that head, so the pages after it fold nothing and read nothing while the cache
 * holds them. Without a pinned head (a first page, a get) they are built from the log's head.
 */
export async function objectsAsOf<T>(
  deps: KubeDeps, stream: StreamId, what: string, pinnedHead: number | undefined, build: () => Promise<{ head: number; items: readonly T[] }>,
): Promise<{ head: number; items: readonly T[] }> {
  const cached = pinnedHead === undefined ? undefined : deps.logCache?.get<T>(cacheKey(stream, pinnedHead, what));
  if (cached !== undefined) return { head: pinnedHead as number, items: cached };
  const built = await build();
  deps.logCache?.set(cacheKey(stream, built.head, what), built.items);
  return built;
}

// Names are reused: a Job deleted and created again under its name is a new Job with a new uid,
// and jobfold keeps both. A name shows the newest of them (the summary the store finds for the
// name: the latest created, as the query API's routes show it). Older ones carry
// `jobfold.io/superseded: "true"` and are listed only when a label selector asks for them: by
// that label, or by uid (`batch.kubernetes.io/controller-uid`, `controller-uid`), so a list
// never holds two objects of one name (informers key their caches by namespace/name).

const ASKS_FOR_OLDER = new Set([SUPERSEDED_LABEL, CONTROLLER_UID_LABEL, LEGACY_CONTROLLER_UID_LABEL]);

export function listsSuperseded(selector: LabelSelector): boolean {
  return selector.some((requirement) => ASKS_FOR_OLDER.has(requirement.key));
}

/** Which of `summaries` a newer object of the same kind and name supersedes. */
export async function supersededAmong(store: EventStore, summaries: readonly JobSummary[]): Promise<Set<string>> {
  const newest = new Map<string, Promise<string | undefined>>();
  for (const s of summaries) {
    const key = JSON.stringify([s.kind, s.clusterId, s.namespace, s.name]);
    if (!newest.has(key)) {
      newest.set(key, store.findJob({ kind: s.kind, clusterId: s.clusterId, namespace: s.namespace, name: s.name }).then((found) => found?.uid));
    }
  }
  const superseded = new Set<string>();
  for (const s of summaries) {
    const uid = await newest.get(JSON.stringify([s.kind, s.clusterId, s.namespace, s.name]));
    if (uid !== undefined && uid !== s.uid) superseded.add(s.uid);
  }
  return superseded;
}

/** Runs `work` over `items`, at most `limit` at a time, results in order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
