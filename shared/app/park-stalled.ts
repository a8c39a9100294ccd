import type { JobState } from '../job/state.ts';
import type { EventStore, StreamId } from './event-store.ts';
import { stallRecord, stalledSummary, type Stall } from './stall.ts';

/**
 * Parks a Job whose reconcile fails deterministically: its fleet summary is written with
 * `stalled: {error, since}` (an empty commit at the current head, so a newer log wins), and
 * the caller reports success so every other Job goes on. The next event of the Job reconciles
 * it again; the first reconcile that succeeds writes a summary without the stall. When the
 * state cannot even be loaded, the name comes from the log's first Job observation, so the
 * parked summary keeps the Job's name (and the API finds it under it). A Job whose very first
 * batch fails has no log yet: the caller passes the name its batch observed, if any.
 */
export async function parkStalled(
  store: EventStore,
  stream: StreamId,
  error: unknown,
  now: string,
  load: () => Promise<{ state: JobState; head: number }>,
  nameInBatch?: string,
): Promise<{ stall: Stall; head: number }> {
  const loaded = await load().catch(() => undefined);
  const head = loaded?.head ?? (await store.read(stream, { afterSeq: Number.MAX_SAFE_INTEGER })).head;
  const name = loaded?.state.identity?.name ?? (await nameFromLog(store, stream)) ?? nameInBatch;
  const previous = name === undefined
    ? undefined
    : await store.findJob({ kind: stream.kind, clusterId: stream.clusterId, namespace: stream.namespace, name, uid: stream.uid });
  const stall = stallRecord(error, now, previous?.stalled);
  const summary = stalledSummary(stream, loaded?.state, previous, stall, now, name);
  await store.commit(stream, { expectedHead: head, recordedAt: now, entries: [], outbox: [], summary });
  return { stall, head };
}

/**
 * Whether the Job's fleet summary still shows a stall. A reconcile that succeeds but has
 * nothing to commit asks this, so the stall clears as soon as the Job can be decided again,
 * not at its next decision. One consistent read of the summary, only on that path.
 */
export async function stillParked(store: EventStore, stream: StreamId, state: JobState): Promise<boolean> {
  const name = state.identity?.name;
  if (name === undefined) return false;
  const summary = await store.findJob({ kind: stream.kind, clusterId: stream.clusterId, namespace: stream.namespace, name, uid: stream.uid });
  return summary?.stalled !== undefined;
}

/** How far into a log to look for the Job's name when its fold fails. */
const NAME_SEARCH_ENTRIES = 64;

/** metadata.name of the first Job observation in the log, read raw (no decoding that could fail). */
async function nameFromLog(store: EventStore, stream: StreamId): Promise<string | undefined> {
  const { entries } = await store.read(stream, { afterSeq: 0, limit: NAME_SEARCH_ENTRIES });
  for (const entry of entries) {
    if (entry.type !== 'JobObserved') continue;
    const name = (entry.body as { job?: { metadata?: { name?: unknown } } } | null)?.job?.metadata?.name;
    if (typeof name === 'string') return name;
  }
  return undefined;
}
