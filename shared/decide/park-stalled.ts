import type { EventStore, LogEntry, StreamId, SummaryUpdate } from '../log/event-store.ts';
import { stableHash } from '../job/stable-hash.ts';
import { stallRecord, stalledSummary, type Stall } from './stall.ts';

/** What parking needs of a log's decider: the object's name and fleet summary. */
export interface Parkable<S> {
  name(state: S): string | undefined;
  summary(state: S, now: string): SummaryUpdate | undefined;
  nameInEntry(entry: LogEntry): string | undefined;
}

/**
 * Parks a log whose write fails deterministically: its fleet summary is written with
 * `stalled: {error, since}` (an empty commit at the current head, so a newer log wins), and
 * the caller reports success so every other log goes on. The next event of the object writes
 * it again; the first write that succeeds writes a summary without the stall. When the state
 * cannot even be loaded, the name comes from the log's first observation of the object, so the
 * parked summary keeps its name (and the API finds it under it). An object whose very first
 * batch fails has no log yet: the caller passes the name its batch observed, if any.
 */
export async function parkStalled<S>(
  decider: Parkable<S>,
  store: EventStore,
  stream: StreamId,
  error: unknown,
  now: string,
  load: () => Promise<{ state: S; head: number }>,
  nameInBatch?: string,
): Promise<{ stall: Stall; head: number }> {
  const loaded = await load().catch(() => undefined);
  const head = loaded?.head ?? (await store.read(stream, { afterSeq: Number.MAX_SAFE_INTEGER })).head;
  const name = (loaded && decider.name(loaded.state)) ?? (await nameFromLog(decider, store, stream)) ?? nameInBatch;
  const previous = name === undefined
    ? undefined
    : await store.findJob({ kind: stream.kind, clusterId: stream.clusterId, namespace: stream.namespace, name, uid: stream.uid });
  const stall = stallRecord(error, now, previous?.stalled);
  const summary = stalledSummary(stream, loaded && decider.summary(loaded.state, now), previous, stall, now, name);
  await store.commit(stream, { expectedHead: head, recordedAt: now, entries: [], outbox: [], summary });
  return { stall, head };
}

/**
 * Whether a write that has nothing to commit must put the object's fleet summary again: it still
 * shows a stall (so the stall clears as soon as the log can be written again, not at the next
 * decision), or it is missing or says something else than `summary`, the summary of the log's
 * head: the store puts a summary after the commit it belongs to (on DynamoDB,
 * functions/adapters/dynamodb-commit.ts), so a crash in between leaves it behind until the
 * batch is delivered again and finds nothing new. `createdAt` is left out of the comparison with
 * `updatedAt`: without a creationTimestamp it is the time of the summary. One consistent read of
 * the summary, only on that path.
 */
export async function summaryOutdated(store: EventStore, stream: StreamId, summary: SummaryUpdate | undefined): Promise<boolean> {
  if (summary === undefined) return false;
  const stored = await store.findJob({ kind: stream.kind, clusterId: stream.clusterId, namespace: stream.namespace, name: summary.name, uid: stream.uid });
  if (stored === undefined || stored.stalled !== undefined) return true;
  const { kind: _kind, clusterId: _cluster, namespace: _namespace, uid: _uid, ...storedUpdate } = stored;
  return stableHash(said(storedUpdate)) !== stableHash(said(summary));
}

/** What a summary says of the object, the times it was made at aside. */
const said = (summary: SummaryUpdate): Partial<SummaryUpdate> => ({ ...summary, createdAt: undefined, updatedAt: undefined });

/** How far into a log to look for the object's name when its fold fails. */
const NAME_SEARCH_ENTRIES = 64;

/** The name the first observation of the object in the log gives it, read raw (no decoding that could fail). */
async function nameFromLog<S>(decider: Parkable<S>, store: EventStore, stream: StreamId): Promise<string | undefined> {
  const { entries } = await store.read(stream, { afterSeq: 0, limit: NAME_SEARCH_ENTRIES });
  for (const entry of entries) {
    const name = decider.nameInEntry(entry);
    if (name !== undefined) return name;
  }
  return undefined;
}
