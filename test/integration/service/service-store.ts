import type { CommitInput, CommitResult, EventStore, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import type { PodArchive } from '../../../shared/log/pod-archive.ts';

/** A store for the service tests, with a way to look at what it holds from the outside. */
export interface ServiceStore {
  readonly store: EventStore & PodArchive;
  /** The write units the store consumed so far, refused writes included (in memory: none). */
  readonly writeUnits: () => number;
  /** How many things the store holds across all streams (DynamoDB: a Scan of its table). */
  readonly itemCount: () => Promise<number>;
}

/** Makes a store with nothing in it. */
export type ServiceStoreFactory = () => Promise<ServiceStore>;

/** The in-memory store, counting the log entries and outbox items it took. */
class CountingInMemoryStore extends InMemoryEventStore {
  stored = 0;

  override async commit(stream: StreamId, input: CommitInput): Promise<CommitResult> {
    const result = await super.commit(stream, input);
    this.stored += result.appended.length + input.outbox.length;
    return result;
  }
}

export const inMemoryServiceStore: ServiceStoreFactory = async () => {
  const store = new CountingInMemoryStore();
  return { store, writeUnits: () => 0, itemCount: async () => store.stored };
};
