import type { OutboundEvent } from '../contract/outbound.ts';
import type { EventStore, OutboxItem } from './event-store.ts';

/** Puts outbound events on the bus; returns those it could not put, with the reason. */
export interface Publisher {
  publish(events: readonly OutboundEvent[]): Promise<{ failed: ReadonlyArray<{ commandId: string; error: string }> }>;
}

export interface PublishDeps {
  readonly store: EventStore;
  readonly publisher: Publisher;
  readonly clock: () => string;
}

export interface PublishOutcome {
  readonly published: number;
  readonly items: number;
  readonly failedItems: readonly string[];
}

/**
 * Publishes outbox items: each holds up to 20 outbound events; an item is marked published only
 * once every one of its events was accepted by the bus. A failed item stays pending and is
 * published again later — downstream, the stable commandId of each event makes that harmless.
 */
export async function publishItems(deps: PublishDeps, items: readonly OutboxItem[]): Promise<PublishOutcome> {
  let published = 0;
  const done: string[] = [];
  const failedItems: string[] = [];
  for (const item of items) {
    if (item.publishedAt) continue;
    const events = ((item.detail as { events?: OutboundEvent[] }).events ?? []);
    const result = await deps.publisher.publish(events);
    if (result.failed.length === 0) {
      done.push(item.commandId);
      published += events.length;
    } else {
      failedItems.push(item.commandId);
    }
  }
  if (done.length > 0) await deps.store.markPublished(done, deps.clock());
  return { published, items: done.length, failedItems };
}

/** The sweep: everything still pending, oldest first (crash recovery, stragglers). */
export async function publishPending(deps: PublishDeps, limit = 100): Promise<PublishOutcome> {
  return publishItems(deps, await deps.store.pendingOutbox(limit));
}
