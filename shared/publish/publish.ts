import type { OutboundEvent } from '../contract/outbound.ts';
import { OUTBOX_PAGE_TYPE, outboxPageEvents, type OutboxPageDetail } from '../outbox/outbox-page.ts';
import type { EventStore, OutboxItem } from '../log/event-store.ts';
import type { Publisher } from '../ports.ts';


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
 * Events put on the bus between two progress checkpoints. A crash re-sends at most these (each
 * with its stable commandId, which downstream recognises); a checkpoint costs one small write.
 */
export const PROGRESS_EVERY = 500;

/**
 * Publishes outbox items. An item's events are its inline events and one event per pod of its
 * termination pages (shared/outbox/outbox-page.ts), built from what the item carries — any number.
 * They go out in order from the item's saved progress, PROGRESS_EVERY at a time, each run
 * checkpointed; the item is marked published once the bus accepted all of them. A failed run
 * leaves the item pending at its last checkpoint, to be published again later.
 */
export async function publishItems(deps: PublishDeps, items: readonly OutboxItem[]): Promise<PublishOutcome> {
  let published = 0;
  const done: string[] = [];
  const failedItems: string[] = [];
  for (const item of items) {
    if (item.publishedAt) continue;
    const events = await itemEvents(deps.store, item);
    let progress = Math.min(item.progress ?? 0, events.length);
    while (progress < events.length) {
      const run = events.slice(progress, progress + PROGRESS_EVERY);
      const result = await deps.publisher.publish(run);
      if (result.failed.length > 0) break;
      progress += run.length;
      published += run.length;
      if (progress < events.length) await deps.store.saveOutboxProgress(item.commandId, progress);
    }
    // Marked at once: a later item failing (or the process dying) must not resend this one.
    if (progress >= events.length) {
      await deps.store.markPublished([item.commandId], deps.clock());
      done.push(item.commandId);
    } else {
      failedItems.push(item.commandId);
    }
  }
  return { published, items: done.length, failedItems };
}

/**
 * A commit's wake-up: the items its stream records name, as stored now (one already published,
 * by the sweep or an earlier delivery of the same records, is not sent again).
 */
export async function publishNamed(deps: PublishDeps, commandIds: readonly string[]): Promise<PublishOutcome> {
  return publishItems(deps, await deps.store.pendingOutboxItems(commandIds));
}

/** The sweep: everything still pending, oldest first (crash recovery, stragglers). */
export async function publishPending(deps: PublishDeps, limit = 100): Promise<PublishOutcome> {
  return publishItems(deps, await deps.store.pendingOutbox(limit));
}

/** The sweep until nothing is pending or an item fails: pages of pending items, oldest first. */
export async function sweepPending(deps: PublishDeps): Promise<PublishOutcome> {
  let published = 0;
  let items = 0;
  for (;;) {
    const outcome = await publishPending(deps);
    published += outcome.published;
    items += outcome.items;
    if (outcome.items === 0 || outcome.failedItems.length > 0) return { published, items, failedItems: outcome.failedItems };
  }
}

/**
 * Every event of an item, in the order its progress counts them: built from the item alone,
 * except for an item written in an older form that names a log range (read back until no such
 * item is pending; docs/deploy.md, "Upgrading").
 */
export async function itemEvents(store: EventStore, item: OutboxItem): Promise<OutboundEvent[]> {
  if (item.detailType !== OUTBOX_PAGE_TYPE) {
    // Items written before outbox pages: up to 20 events inline.
    return [...((item.detail as { events?: OutboundEvent[] }).events ?? [])];
  }
  const detail = item.detail as OutboxPageDetail;
  const range = detail.range;
  if (!range) return outboxPageEvents(detail);
  const { entries } = await store.read(item.stream, { afterSeq: range.fromSeq - 1, limit: range.toSeq - range.fromSeq + 1 });
  if ((entries.at(-1)?.seq ?? 0) < range.toSeq) {
    throw new Error(`outbox item ${item.commandId}: log entries ${range.fromSeq}..${range.toSeq} are not all readable`);
  }
  return outboxPageEvents(detail, entries);
}
