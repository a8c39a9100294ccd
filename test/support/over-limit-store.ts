import { StoreLimitError, type CommitInput, type CommitResult, type StreamId } from '../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../shared/log/in-memory-event-store.ts';
import { streamKey } from '../../shared/log/stream-key.ts';

/**
 * An in-memory store whose decision commits for one Job (`broken`, a streamKey) exceed a limit,
 * as an oversized outbox item would: reconcile parks that Job as stalled (shared/decide/stall.ts).
 */
export class OneJobOverLimit extends InMemoryEventStore {
  broken: string | undefined;

  static readonly ERROR = 'StoreLimitError: outbox item bytes is 500000, at most 409600 allowed';

  breakJob(stream: StreamId): void {
    this.broken = streamKey(stream);
  }

  override async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    if (streamKey(stream) === this.broken && input.entries.length > 0) throw new StoreLimitError('outbox item bytes', 409_600, 500_000);
    return super.commit(stream, input);
  }
}
