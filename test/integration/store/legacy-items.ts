import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { entryItem } from '../../../functions/adapters/item-codec.ts';
import { keys } from '../../../functions/adapters/table-layout.ts';
import type { EventStore, NewEntry, StreamId } from '../../../shared/log/event-store.ts';
import { GENESIS_HASH } from '../../../shared/log/hash-chain.ts';

/**
 * Puts `entries` at the head of a log as versions up to bff3173 appended them: one item per
 * entry, chained on from the head (their markers are left out: nothing reads them now). For
 * tests of readers over logs that mix those items with pages.
 */
export async function putLegacyEntries(
  client: DynamoDBClient, tableName: string, store: EventStore, stream: StreamId, entries: readonly NewEntry[], recordedAt: string,
): Promise<void> {
  const { head } = await store.read(stream, { limit: 1 });
  let prev = head === 0 ? GENESIS_HASH : (await store.read(stream, { afterSeq: head - 1, limit: 1 })).entries[0]?.hash;
  for (const [i, entry] of entries.entries()) {
    const item = entryItem(keys.stream(stream), entry, head + 1 + i, recordedAt, 'bff3173', prev);
    await client.send(new PutItemCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    prev = item['hash']?.S;
  }
}
