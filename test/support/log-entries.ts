import { VersionConflictError, type CommitResult, type EventStore, type NewEntry, type StreamId } from '../../shared/log/event-store.ts';

/**
 * For fixtures and store tests that build a log entry by entry: commits `entries` at the log's
 * head, as the writer does (one conditioned commit, no outbox), reading the head again when
 * another commit got there first. The store drops an eventId repeated within the call only;
 * against the whole log, eventIds are the writer's to keep once (shared/decide/keep-news.ts).
 */
export async function logEntries(store: Pick<EventStore, 'read' | 'commit'>, stream: StreamId, entries: NewEntry[], recordedAt: string): Promise<CommitResult> {
  for (;;) {
    const { head } = await store.read(stream, { limit: 1 });
    try {
      return await store.commit(stream, { expectedHead: head, recordedAt, entries, outbox: [] });
    } catch (error) {
      if (!(error instanceof VersionConflictError)) throw error;
    }
  }
}
