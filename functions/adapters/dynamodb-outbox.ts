import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { NewCommand, OutboxItem, StreamId } from '../../shared/log/event-store.ts';
import { checkLimit } from '../../shared/log/event-store-limits.ts';
import { jsonAttributes, readJson, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, INDEX, ITEM_TYPE, keys, PENDING_KEY } from './table-layout.ts';

// The outbox: one item per command under its own key "cmd#<commandId>", written in the commit
// transaction. While pending it carries the keys of the sparse, keys-only outbox-pending index
// (oldest first); publishing removes them, so the index holds only what is left to publish.
// The items are kept, with their publish time, as the record of what was sent.
// Publishing updates the item (its progress every 500 events, then its publish time), and
// DynamoDB bills an update by the whole item's size. So a detail over DETAIL_INLINE_BYTES
// (compressed) — an outbox page carrying thousands of pods to terminate — is stored beside the
// item, in an item of its own that nothing ever updates: the outbox item stays within one write
// unit. The commit puts the detail item just before its transaction (dynamodb-commit.ts), at one
// write unit per KB instead of a transaction's two; its sort key is a hash of its bytes, so a
// commit that then fails leaves at most an item nothing names (never one a commit at the same
// position, with other content, would read), and one retried with the same content puts the same.

const MARK_CONCURRENCY = 8;
/** Largest stored detail kept in the item itself: with keys and index keys, the item stays under 1 KB. */
const DETAIL_INLINE_BYTES = 600;

/**
 * The outbox item of a command decided on `stream` (for the commit's transaction) and, for a
 * large detail, the item beside it that holds the detail (put before the transaction).
 */
export function commandItems(stream: StreamId, command: NewCommand): { item: Item; detail?: Item } {
  const pk = str(keys.command(command.commandId));
  const head = {
    [ATTR.pk]: pk,
    [ATTR.sk]: str(keys.commandSort),
    [ATTR.type]: str(ITEM_TYPE.command),
    [ATTR.pendingKey]: str(PENDING_KEY),
    [ATTR.pendingSort]: str(keys.pendingSort(command.createdAt, command.commandId)),
  };
  const item: OutboxItem = { ...command, stream };
  const whole = jsonAttributes(ATTR.data, item);
  const stored = whole[ATTR.data];
  const bytes = stored?.B ?? Buffer.from(stored?.S ?? '', 'utf8');
  if (bytes.length <= DETAIL_INLINE_BYTES) return { item: { ...head, ...whole } };
  const detailAttributes = jsonAttributes(ATTR.data, command.detail);
  const sk = keys.commandDetail(createHash('sha256').update(detailAttributes[ATTR.data]?.B ?? detailAttributes[ATTR.data]?.S ?? '').digest('hex').slice(0, 32));
  return {
    item: { ...head, ...jsonAttributes(ATTR.data, { ...item, detail: null }), [ATTR.detailBeside]: str(sk) },
    detail: { [ATTR.pk]: pk, [ATTR.sk]: str(sk), [ATTR.type]: str(ITEM_TYPE.commandDetail), ...detailAttributes },
  };
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
  // Details stored beside their items: one more read, of those only (put before the item's commit).
  const beside = pending.flatMap((item) => {
    const sk = item[ATTR.detailBeside]?.S;
    return sk === undefined ? [] : [{ [ATTR.pk]: str(item[ATTR.pk]?.S ?? ''), [ATTR.sk]: str(sk) }];
  });
  const details = beside.length === 0 ? new Map<string | undefined, Item>() : new Map(
    (await table.batchGet(beside, true)).map((item) => [item[ATTR.pk]?.S, item]),
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
