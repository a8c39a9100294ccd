import type { OutboundEvent } from '../contract/outbound.ts';
import type { NewCommand } from './event-store.ts';
/**
 * Outbound events per outbox item. Every event gets an item: a commit over MAX_COMMIT_COMMANDS
 * items is refused loudly by checkCommit (StoreLimitError), never cut short. Used by JobSet
 * reconciles, whose commands are bounded by the JobSet's replicated Jobs; a Job's commands go
 * out as outbox pages (shared/outbox).
 */
const EVENTS_PER_OUTBOX_ITEM = 20;

/**
 * One reconcile's outbound events grouped into outbox items. An item's id is derived from the
 * first decision's eventId, so two reconcilers that decided the same thing write the same items.
 */
export function outboxItems(baseId: string, events: readonly OutboundEvent[], now: string): NewCommand[] {
  const items: NewCommand[] = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_OUTBOX_ITEM) {
    const chunk = events.slice(i, i + EVENTS_PER_OUTBOX_ITEM);
    items.push({
      commandId: `${baseId}#${i / EVENTS_PER_OUTBOX_ITEM}`,
      clusterId: chunk[0]?.clusterId ?? '',
      detailType: 'jobfold.outbound-batch',
      detail: { events: chunk },
      createdAt: now,
    });
  }
  return items;
}
