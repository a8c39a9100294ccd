import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { NewCommand, OutboxItem, StreamId } from '../../shared/app/event-store.ts';
import { checkLimit } from '../../shared/app/event-store-limits.ts';
import { jsonAttributes, num, readJson, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, INDEX, ITEM_TYPE, keys, PENDING_KEY } from './table-layout.ts';

// The outbox: one item per command under its own key "cmd#<commandId>", written in the commit
// transaction. While pending it carries the keys of the sparse, keys-only outbox-pending index
// (oldest first); publishing removes them, so the index holds only what is left to publish.
// The items are kept, with their publish time, as the record of what was sent.
// Publishing updates the item (its progress every 500 events, then its publish time), and
// DynamoDB bills an update by the whole item's size. So a detail over DETAIL_INLINE_BYTES
// (compressed) — an outbox page carrying thousands of pods to terminate — is written beside
// the item, in its own item (sk "detail") of the same transaction, which nothing ever updates:
// the item stays within one write unit, and the pods are written once.

const MARK_CONCURRENCY = 8;
/** Largest stored detail kept in the item itself: with keys and index keys, the item stays under 1 KB. */
const DETAIL_INLINE_BYTES = 600;

/** The outbox item of a command decided on `stream` and, for a large detail, the item beside it that holds the detail. */
export function commandItems(stream: StreamId, command: NewCommand): Item[] {
  const pk = str(keys.command(command.commandId));
  const pending = {
    [ATTR.pendingKey]: str(PENDING_KEY),
    [ATTR.pendingSort]: str(keys.pendingSort(command.createdAt, command.commandId)),
  };
  const item: OutboxItem = { ...command, stream };
  const whole = jsonAttributes(ATTR.data, item);
  if (attributeBytes(whole) <= DETAIL_INLINE_BYTES) {
    return [{ [ATTR.pk]: pk, [ATTR.sk]: str(keys.commandSort), [ATTR.type]: str(ITEM_TYPE.command), ...whole, ...pending }];
  }
  return [
    {
      [ATTR.pk]: pk, [ATTR.sk]: str(keys.commandSort), [ATTR.type]: str(ITEM_TYPE.command),
      ...jsonAttributes(ATTR.data, { ...item, detail: null }), [ATTR.detailBeside]: num(1), ...pending,
    },
    { [ATTR.pk]: pk, [ATTR.sk]: str(keys.commandDetailSort), [ATTR.type]: str(ITEM_TYPE.commandDetail), ...jsonAttributes(ATTR.data, command.detail) },
  ];
}

function attributeBytes(attributes: Item): number {
  const value = attributes[ATTR.data];
  return value?.B?.length ?? Buffer.byteLength(value?.S ?? '', 'utf8');
}

/** pendingOutbox of the port; an item published since the index was read is left out. */
export async function pendingOutbox(table: MeteredTable, limit: number): Promise<OutboxItem[]> {
  checkLimit(limit);
  const found: Item[] = [];
  let start: Item | undefined;
  do {
    const output = await table.query({
      IndexName: INDEX.pending,
      KeyConditionExpression: '#hash = :hash',
      ExpressionAttributeNames: { '#hash': ATTR.pendingKey },
      ExpressionAttributeValues: { ':hash': str(PENDING_KEY) },
      Limit: limit - found.length,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    found.push(...(output.Items ?? []));
    start = output.LastEvaluatedKey;
  } while (start !== undefined && found.length < limit);
  // The index is keys only and lags: each item is read again, consistently.
  return readPending(table, found.map((entry) => entry[ATTR.pk]?.S ?? ''));
}

/** pendingOutboxItems of the port: one consistent BatchGetItem of the items' keys. */
export function pendingOutboxItems(table: MeteredTable, commandIds: readonly string[]): Promise<OutboxItem[]> {
  return readPending(table, [...new Set(commandIds)].map((id) => keys.command(id)));
}

async function readPending(table: MeteredTable, pks: readonly string[]): Promise<OutboxItem[]> {
  if (pks.length === 0) return [];
  const byPk = new Map((await table.batchGet(pks.map((pk) => ({ [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.commandSort) })), true))
    .map((item) => [item[ATTR.pk]?.S, item]));
  const pending = pks.flatMap((pk) => {
    const item = byPk.get(pk);
    return item === undefined || item[ATTR.publishedAt] !== undefined ? [] : [item];
  });
  // Details written beside their items: one more read, of those only (written in the same transaction).
  const beside = pending.filter((item) => item[ATTR.detailBeside] !== undefined).map((item) => item[ATTR.pk]?.S ?? '');
  const details = beside.length === 0 ? new Map<string | undefined, Item>() : new Map(
    (await table.batchGet(beside.map((pk) => ({ [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.commandDetailSort) })), true))
      .map((item) => [item[ATTR.pk]?.S, item]),
  );
  return pending.map((item) => {
    const progress = item[ATTR.progress]?.N;
    const stored = readJson(item, ATTR.data) as OutboxItem;
    const outboxItem = item[ATTR.detailBeside] === undefined ? stored : { ...stored, detail: readDetail(details, item) };
    return progress === undefined ? outboxItem : { ...outboxItem, progress: Number(progress) };
  });
}

function readDetail(details: ReadonlyMap<string | undefined, Item>, item: Item): unknown {
  const detail = details.get(item[ATTR.pk]?.S);
  if (detail === undefined) throw new Error(`outbox item ${item[ATTR.pk]?.S} has no detail item beside it`);
  return readJson(detail, ATTR.data);
}

/**
 * The commands whose outbox items a batch of the table's stream inserted (the publisher's
 * event source filters on them; any other record is passed over). Each record names its item
 * by key: the item is read again, since a record may arrive after it was published.
 */
export function streamedCommandIds(records: ReadonlyArray<{ eventName?: string; dynamodb?: { Keys?: Record<string, { S?: string }> } }>): string[] {
  const prefix = keys.command('');
  return records.flatMap((record) => {
    const pk = record.dynamodb?.Keys?.[ATTR.pk]?.S;
    const sk = record.dynamodb?.Keys?.[ATTR.sk]?.S;
    return record.eventName === 'INSERT' && pk?.startsWith(prefix) && sk === keys.commandSort ? [pk.slice(prefix.length)] : [];
  });
}

/** saveOutboxProgress of the port: a conditional update that only moves progress forward. */
export async function saveOutboxProgress(table: MeteredTable, commandId: string, progress: number): Promise<void> {
  try {
    await table.update({
      Key: commandKey(commandId),
      UpdateExpression: 'SET #pr = :pr',
      ConditionExpression: 'attribute_exists(#gp) AND (attribute_not_exists(#pr) OR #pr < :pr)',
      ExpressionAttributeNames: { '#pr': ATTR.progress, '#gp': ATTR.pendingKey },
      ExpressionAttributeValues: { ':pr': { N: String(progress) } },
    });
  } catch (error) {
    // Published, unknown, or another publisher got further: nothing to record.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** markPublished of the port: one conditional update per command, eight at a time. */
export async function markPublished(table: MeteredTable, commandIds: string[], publishedAt: string): Promise<void> {
  const queue = [...new Set(commandIds)];
  const worker = async (): Promise<void> => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) await markOne(table, id, publishedAt);
  };
  await Promise.all(Array.from({ length: Math.min(MARK_CONCURRENCY, queue.length) }, worker));
}

async function markOne(table: MeteredTable, commandId: string, publishedAt: string): Promise<void> {
  try {
    await table.update({
      Key: commandKey(commandId),
      UpdateExpression: 'SET #pa = :pa REMOVE #gp, #gq',
      ConditionExpression: 'attribute_exists(#gp)',
      ExpressionAttributeNames: { '#pa': ATTR.publishedAt, '#gp': ATTR.pendingKey, '#gq': ATTR.pendingSort },
      ExpressionAttributeValues: { ':pa': str(publishedAt) },
    });
  } catch (error) {
    // Unknown, or published already (perhaps by another publisher): nothing left to do.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

function commandKey(commandId: string): Item {
  return { [ATTR.pk]: str(keys.command(commandId)), [ATTR.sk]: str(keys.commandSort) };
}
