import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Snapshot } from '../../shared/app/event-store.ts';
import { decompress, jsonAttributes, num, readJson, readNumber, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// One snapshot per stream, item "snapshot", replaced only by a snapshot of a higher or equal
// seq. The state is JSON, brotli-compressed when that is smaller (see item-codec). Up to
// INLINE_MAX_BYTES stored it lives in the item itself; beyond that it is cut into chunk items
// "chunk#<seq>#<i>" written first, and the snapshot item points at them (attribute `n`), so a
// reader never sees a pointer without its chunks. Chunks of a replaced snapshot are deleted
// afterwards; a reader that loses that race retries once, then replays the log without one.

/** Largest stored state kept inline; leaves room for the keys under the 400 KB item limit. */
const INLINE_MAX_BYTES = 350_000;
const CHUNK_BYTES = 350_000;

/** Saves the snapshot unless a newer one is stored; returns whether it was saved. */
export async function saveSnapshot(table: MeteredTable, pk: string, snapshot: Snapshot): Promise<boolean> {
  const data = jsonAttributes(ATTR.data, snapshot.state);
  const stored = data[ATTR.data];
  const bytes = stored?.B ?? Buffer.from(stored?.S ?? 'null', 'utf8');
  const base = { [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.snapshot), [ATTR.type]: str(ITEM_TYPE.snapshot), [ATTR.seq]: num(snapshot.seq) };
  let pointer: Item = { ...base, ...data };
  let chunks = 0;
  if (bytes.length > INLINE_MAX_BYTES) {
    chunks = Math.ceil(bytes.length / CHUNK_BYTES);
    await Promise.all(Array.from({ length: chunks }, (_, i) => table.put({ Item: {
      [ATTR.pk]: str(pk),
      [ATTR.sk]: str(keys.chunk(snapshot.seq, i)),
      [ATTR.type]: str(ITEM_TYPE.chunk),
      [ATTR.data]: { B: bytes.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES) },
    } })));
    pointer = { ...base, [ATTR.chunks]: num(chunks), ...(data[ATTR.encoding] ? { [ATTR.encoding]: data[ATTR.encoding] } : {}) };
  }
  try {
    const output = await table.put({
      Item: pointer,
      ConditionExpression: 'attribute_not_exists(#sk) OR #seq <= :seq',
      ExpressionAttributeNames: { '#sk': ATTR.sk, '#seq': ATTR.seq },
      ExpressionAttributeValues: { ':seq': num(snapshot.seq) },
      ReturnValues: 'ALL_OLD',
    });
    const old = output.Attributes;
    if (old?.[ATTR.chunks] !== undefined) {
      const oldSeq = readNumber(old, ATTR.seq);
      await deleteChunks(table, pk, oldSeq, readNumber(old, ATTR.chunks), oldSeq === snapshot.seq ? chunks : 0);
    }
    return true;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    if (chunks > 0) await deleteChunks(table, pk, snapshot.seq, chunks, 0);
    return false;
  }
}

/** Loads the stream's snapshot, or undefined when there is none (or it vanished twice). */
export async function loadSnapshot(table: MeteredTable, pk: string): Promise<Snapshot | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const pointer = await table.get({ Key: { [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.snapshot) }, ConsistentRead: true });
    if (pointer === undefined) return undefined;
    const seq = readNumber(pointer, ATTR.seq);
    if (pointer[ATTR.chunks] === undefined) return { seq, state: readJson(pointer, ATTR.data) };
    const parts = await readChunks(table, pk, seq);
    if (parts.length !== readNumber(pointer, ATTR.chunks)) continue;
    const joined = Buffer.concat(parts);
    const text = pointer[ATTR.encoding] === undefined ? joined.toString('utf8') : decompress(joined).toString('utf8');
    return { seq, state: JSON.parse(text) };
  }
  return undefined;
}

async function readChunks(table: MeteredTable, pk: string, seq: number): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  let start: Item | undefined;
  do {
    const output = await table.query({
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
      ExpressionAttributeValues: { ':pk': str(pk), ':prefix': str(keys.chunkPrefix(seq)) },
      ConsistentRead: true,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    for (const item of output.Items ?? []) parts.push(item[ATTR.data]?.B ?? new Uint8Array());
    start = output.LastEvaluatedKey;
  } while (start !== undefined);
  return parts;
}

/** Deletes chunks `from`…`count - 1` of the snapshot at `seq`. */
async function deleteChunks(table: MeteredTable, pk: string, seq: number, count: number, from: number): Promise<void> {
  const indexes = Array.from({ length: Math.max(0, count - from) }, (_, i) => from + i);
  await Promise.all(indexes.map((i) => table.delete({ Key: { [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.chunk(seq, i)) } })));
}
