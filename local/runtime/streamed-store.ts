import type { CommitInput, CommitResult, EventStore, StreamId } from '../../shared/log/event-store.ts';
import { ForwardingStore } from '../../shared/log/forwarding-store.ts';
import type { PodArchive } from '../../shared/log/pod-archive.ts';

// The table's stream, in process: the store tells what its writes mean downstream, with the
// filter of the CDK's event source mapping (cdk/constructs/stream-consumers.ts): a commit with
// outbox items wakes the publisher with their ids (the records' keys). Every handler writes
// through this store, so the writer, timers and tests trigger alike.

export interface StreamRecords {
  readonly publish: (commandIds: readonly string[]) => void;
}

export class StreamedStore extends ForwardingStore {
  readonly #records: StreamRecords;

  constructor(inner: EventStore & PodArchive, records: StreamRecords) {
    super(inner);
    this.#records = records;
  }

  override async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    const result = await this.inner.commit(stream, input);
    if (input.outbox.length > 0) this.#records.publish(input.outbox.map((command) => command.commandId));
    return result;
  }
}
