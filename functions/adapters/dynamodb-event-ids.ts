import type { EventIdSegment } from '../../shared/log/event-id-index.ts';
import { FINGERPRINT_BYTES } from '../../shared/log/event-id-index.ts';
import { num, readNumber, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { queryByPrefix } from './prefix-query.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// The log's eventId fingerprints (shared/log/event-id-index.ts), saved by the writer as
// its snapshots are: one item per segment of positions, "ids#<last seq>", the fingerprints as a
// binary attribute (12 bytes a position; they are hashes, so not compressed), `from` the
// position before the first. A segment longer than POSITIONS_PER_ITEM is split, so an item
// stays far below DynamoDB's 400 KB. Written without a condition: a range saved again holds
// the same bytes, because the log at those positions never changes.

/** Positions per item: 25,000 × 12 bytes = 300 KB. */
export const POSITIONS_PER_ITEM = 25_000;

export async function saveEventIds(table: MeteredTable, pk: string, segment: EventIdSegment): Promise<void> {
  const items: Item[] = [];
  for (let from = segment.from; from < segment.to; from += POSITIONS_PER_ITEM) {
    const to = Math.min(segment.to, from + POSITIONS_PER_ITEM);
    const bytes = segment.bytes.subarray((from - segment.from) * FINGERPRINT_BYTES, (to - segment.from) * FINGERPRINT_BYTES);
    items.push({
      [ATTR.pk]: str(pk),
      [ATTR.sk]: str(keys.eventIds(to)),
      [ATTR.type]: str(ITEM_TYPE.eventIds),
      [ATTR.seq]: num(from),
      [ATTR.data]: { B: bytes },
    });
  }
  if (items.length > 0) await table.batchPut(items);
}

export async function loadEventIds(table: MeteredTable, pk: string): Promise<EventIdSegment[]> {
  const items = await queryByPrefix(table, pk, keys.eventIdsPrefix);
  return items.map((item) => {
    const bytes = item[ATTR.data]?.B ?? new Uint8Array();
    const from = readNumber(item, ATTR.seq);
    return { from, to: from + bytes.byteLength / FINGERPRINT_BYTES, bytes };
  });
}
