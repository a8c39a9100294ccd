import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { AppendResult, LogEntry, NewEntry, StreamId } from '../../shared/app/event-store.ts';
import { changeKeys } from './dynamodb-change-feed.ts';
import { hashAt, readHead } from './dynamodb-log-reads.ts';
import { entryFromItem, entryItem, num, readNumber, readString, str } from './item-codec.ts';
import { isPage } from './log-page-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// Appending without a transaction. Two keys keep the log right:
//   e#<seq>     at most one event per seq (conditional put), and an event is only ever put at
//               head + 1, so seqs stay gap-free;
//   id#<E>      the marker of event E holds the one seq E may be put at. It moves to another
//               seq only after its slot was seen taken by a different event, and log items
//               never change, so E lands in at most one slot.
// Each new event costs two single-item writes (1 WCU each at ≤ 1 KB) instead of a transaction
// (2 WCU per item), and one write to the change index (dynamodb-change-feed.ts). A duplicate
// costs two failed conditional writes. A crash between the two
// writes leaves a marker whose slot another event takes; the retried append moves it.

const MAX_PLACEMENT_ATTEMPTS = 100;

/** Appends entries one after another (see the header); `writer` is this call's nonce. */
export async function appendEntries(
  table: MeteredTable, stream: StreamId, entries: NewEntry[], recordedAt: string, writer: string,
): Promise<AppendResult> {
  const pk = keys.stream(stream);
  const result: AppendResult = { appended: [], duplicates: [] };
  const seen = new Set<string>();
  // Never above the real head: it is read, or a seq this call has just filled.
  let head = await readHead(table, pk);
  for (const entry of entries) {
    if (seen.has(entry.eventId)) {
      result.duplicates.push(entry.eventId);
      continue;
    }
    seen.add(entry.eventId);
    const placed = await appendOne(table, stream, pk, entry, recordedAt, writer, head);
    if (placed.appended) result.appended.push(placed.appended);
    else result.duplicates.push(entry.eventId);
    head = Math.max(head, placed.seq);
  }
  return result;
}

async function appendOne(
  table: MeteredTable, stream: StreamId, pk: string, entry: NewEntry, recordedAt: string, writer: string, head: number,
): Promise<{ seq: number; appended?: LogEntry }> {
  // 1. Claim head + 1 for the event, or learn the seq an earlier claim holds.
  const claim = await putIfAbsent(table, markerItem(pk, entry.eventId, head + 1, writer));
  let seq = claim === undefined ? head + 1 : readNumber(claim, ATTR.seq);
  for (let attempt = 0; attempt < MAX_PLACEMENT_ATTEMPTS; attempt++) {
    // 2. Put the event at the claimed seq, chained to the entry before it (which exists: a seq
    //    is only ever claimed at head + 1).
    const item = { ...entryItem(pk, entry, seq, recordedAt, writer, await hashAt(table, pk, seq - 1)), ...changeKeys(stream, seq, recordedAt) };
    const taken = await putIfAbsent(table, item);
    if (taken === undefined) return { seq, appended: entryFromItem(item) };
    // A log page holds the slot: other events (pages have no markers, see log-page-codec.ts).
    if (!isPage(taken) && readString(taken, ATTR.eventId) === entry.eventId) {
      // Stored already: by this call when the nonce is ours (a retried request), else before.
      return readString(taken, ATTR.writer) === writer ? { seq, appended: entryFromItem(taken) } : { seq };
    }
    // 3. Another event holds the slot: move the claim to the new head + 1, unless someone did.
    const next = (await readHead(table, pk)) + 1;
    seq = (await moveClaim(table, pk, entry.eventId, seq, next)) ?? next;
  }
  throw new Error(`append of ${entry.eventId} to ${pk} lost ${MAX_PLACEMENT_ATTEMPTS} races for a seq`);
}

function markerItem(pk: string, eventId: string, seq: number, writer: string): Item {
  return {
    [ATTR.pk]: str(pk),
    [ATTR.sk]: str(keys.marker(eventId)),
    [ATTR.type]: str(ITEM_TYPE.marker),
    [ATTR.seq]: num(seq),
    [ATTR.writer]: str(writer),
  };
}

/** Puts the item unless its key exists; returns the existing item when it does. */
async function putIfAbsent(table: MeteredTable, item: Item): Promise<Item | undefined> {
  try {
    await table.put({
      Item: item,
      ConditionExpression: 'attribute_not_exists(#sk)',
      ExpressionAttributeNames: { '#sk': ATTR.sk },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    return undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException && error.Item) return error.Item;
    throw error;
  }
}

/** Moves the marker from `from` to `to`; returns the seq it holds when someone moved it first. */
async function moveClaim(table: MeteredTable, pk: string, eventId: string, from: number, to: number): Promise<number | undefined> {
  try {
    await table.update({
      Key: { [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.marker(eventId)) },
      UpdateExpression: 'SET #seq = :to',
      ConditionExpression: '#seq = :from',
      ExpressionAttributeNames: { '#seq': ATTR.seq },
      ExpressionAttributeValues: { ':from': num(from), ':to': num(to) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    return undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException && error.Item) return readNumber(error.Item, ATTR.seq);
    throw error;
  }
}
