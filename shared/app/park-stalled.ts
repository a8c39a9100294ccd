import type { JobState } from '../job/state.ts';
import type { EventStore, StreamId } from './event-store.ts';
import { stallRecord, stalledSummary, type Stall } from './stall.ts';

/**
 * Parks a Job whose reconcile fails deterministically: its fleet summary is written with
 * `stalled: {error, since}` (an empty commit at the current head, so a newer log wins), and
 * the caller reports success so every other Job goes on. The next event of the Job reconciles
 * it again; the first commit that succeeds writes a summary without the stall.
 */
export async function parkStalled(
  store: EventStore,
  stream: StreamId,
  error: unknown,
  now: string,
  load: () => Promise<{ state: JobState; head: number }>,
): Promise<{ stall: Stall; head: number }> {
  const loaded = await load().catch(() => undefined);
  const head = loaded?.head ?? (await store.read(stream, { afterSeq: Number.MAX_SAFE_INTEGER })).head;
  const name = loaded?.state.identity?.name;
  const previous = name === undefined
    ? undefined
    : await store.findJob({ kind: stream.kind, clusterId: stream.clusterId, namespace: stream.namespace, name, uid: stream.uid });
  const stall = stallRecord(error, now, previous?.stalled);
  const summary = stalledSummary(stream, loaded?.state, previous, stall, now);
  await store.commit(stream, { expectedHead: head, recordedAt: now, entries: [], outbox: [], summary });
  return { stall, head };
}
