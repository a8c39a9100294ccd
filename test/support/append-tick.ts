import type { EventStore, StreamId } from '../../shared/app/event-store.ts';
import { observationEntry } from '../../shared/app/log-codec.ts';

/**
 * For fixtures that build logs with ingest and reconcile (the path that decides at a clock
 * time): a timer of `stream` due at `at`, appended as the Tick the writer logs for a timer
 * record, `tick/<at>`, observed at `at`.
 */
export async function appendTick(store: EventStore, stream: StreamId, at: string): Promise<void> {
  const tick = { type: 'Tick' as const, eventId: `tick/${at}`, clusterId: stream.clusterId, observedAt: at };
  await store.append(stream, [observationEntry(tick)], at);
}
