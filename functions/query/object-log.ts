import type { EventStore, JobSummary, LogEntry, StreamId } from '../../shared/log/event-store.ts';
import { NotFoundError } from './http-errors.ts';
import type { ObjectPath } from './params.ts';

/** Entries per store read when a route walks a whole log. */
const PAGE_SIZE = 1000;

/** A Job or JobSet found by path: its fleet summary and the log it has. */
export interface FoundObject {
  readonly summary: JobSummary;
  readonly stream: StreamId;
}

/** The cluster, namespace, name and uid of an object, as every view and page names it. */
export const objectIdentity = (summary: JobSummary) => ({ clusterId: summary.clusterId, namespace: summary.namespace, name: summary.name, uid: summary.uid });

/**
 * Finds the object a path names: with `uid`, exactly that one, else the most recently created
 * one of that name. Throws NotFoundError (404) naming what was looked for.
 */
export async function findObject(
  store: EventStore,
  kind: StreamId['kind'],
  path: ObjectPath,
  uid: string | undefined,
): Promise<FoundObject> {
  const summary = await store.findJob({ kind, clusterId: path.cluster, namespace: path.namespace, name: path.name, uid });
  if (summary === undefined) {
    const withUid = uid === undefined ? '' : ` with uid ${uid}`;
    throw new NotFoundError(`${kind.toLowerCase()} ${path.namespace}/${path.name}${withUid} not found in cluster ${path.cluster}`);
  }
  const stream: StreamId = { kind, clusterId: summary.clusterId, namespace: summary.namespace, uid: summary.uid };
  return { summary, stream };
}

/**
 * Reads a log from the start in pages, in seq order, until `keep` refuses an entry or the log
 * ends. Returns the entries kept and the head seen by the last read.
 */
export async function readLog(
  store: EventStore,
  stream: StreamId,
  keep: (entry: LogEntry) => boolean = () => true,
): Promise<{ entries: LogEntry[]; head: number }> {
  const entries: LogEntry[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = await store.read(stream, { afterSeq, limit: PAGE_SIZE });
    for (const entry of page.entries) {
      if (!keep(entry)) return { entries, head: page.head };
      entries.push(entry);
    }
    const last = page.entries.at(-1);
    if (last === undefined || page.entries.length < PAGE_SIZE) return { entries, head: page.head };
    afterSeq = last.seq;
  }
}
