import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { LogStart, Snapshot } from '../../shared/log/event-store.ts';
import { decompress, jsonAttributes, jsonTextAttributes, num, readJson, readNumber, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { queryByPrefix } from './prefix-query.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// Snapshots are kept at their positions, item "snapshot#<seq, 12 digits>", and never
// overwritten or deleted: the newest one serves the reconciler, older ones serve queries of a
// past position (status?at=, explain). The state is JSON, brotli-compressed when that is smaller
// (see item-codec). Up to INLINE_MAX_BYTES stored it lives in the item itself; beyond that it is
// cut into chunk items "chunk#<seq>#<i>" written first, and the snapshot item points at them
// (attribute `n`), so a reader never sees a pointer without its chunks. The fold is
// deterministic, so two writers of the same seq write the same bytes: the first pointer stays.

/** Largest stored state kept inline; leaves room for the keys under the 400 KB item limit. */
const INLINE_MAX_BYTES = 350_000;
const CHUNK_BYTES = 350_000;
const SNAPSHOT_PREFIX = keys.snapshot(0).slice(0, keys.snapshot(0).indexOf('#') + 1);

/** Saves the snapshot at its seq unless one is stored there already; returns whether it was saved. */
export async function saveSnapshot(table: MeteredTable, pk: string, snapshot: Snapshot): Promise<boolean> {
  const data = snapshot.json === undefined ? jsonAttributes(ATTR.data, snapshot.state) : jsonTextAttributes(ATTR.data, snapshot.json);
  const stored = data[ATTR.data];
  const bytes = stored?.B ?? Buffer.from(stored?.S ?? 'null', 'utf8');
  const base = { [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.snapshot(snapshot.seq)), [ATTR.type]: str(ITEM_TYPE.snapshot), [ATTR.seq]: num(snapshot.seq) };
  let pointer: Item = { ...base, ...data };
  if (bytes.length > INLINE_MAX_BYTES) {
    const chunks = Math.ceil(bytes.length / CHUNK_BYTES);
    await Promise.all(Array.from({ length: chunks }, (_, i) => table.put({ Item: {
      [ATTR.pk]: str(pk),
      [ATTR.sk]: str(keys.chunk(snapshot.seq, i)),
      [ATTR.type]: str(ITEM_TYPE.chunk),
      [ATTR.data]: { B: bytes.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES) },
    } })));
    pointer = { ...base, [ATTR.chunks]: num(chunks), ...(data[ATTR.encoding] ? { [ATTR.encoding]: data[ATTR.encoding] } : {}) };
  }
  try {
    await table.put({
      Item: pointer,
      ConditionExpression: 'attribute_not_exists(#sk)',
      ExpressionAttributeNames: { '#sk': ATTR.sk },
    });
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Loads the newest snapshot with seq ≤ `atOrBefore` (default: the newest), or undefined when
 * there is none. One strongly consistent Query read backwards, plus the chunks of a large one.
 */
export async function loadSnapshot(table: MeteredTable, pk: string, atOrBefore?: number): Promise<Snapshot | undefined> {
  if (atOrBefore !== undefined && atOrBefore < 0) return undefined;
  const output = await table.query({
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :first AND :last',
    ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
    ExpressionAttributeValues: {
      ':pk': str(pk),
      ':first': str(keys.snapshot(0)),
      ':last': str(atOrBefore === undefined ? keys.snapshotEnd : keys.snapshot(Math.floor(atOrBefore))),
    },
    ScanIndexForward: false,
    Limit: 1,
    ConsistentRead: true,
  });
  const pointer = output.Items?.[0];
  return pointer === undefined ? undefined : snapshotAt(table, pk, pointer);
}

/**
 * loadStart of the port in one Query read backwards from the end of the snapshots, over the log
 * items' keys too ("e#" < "id#" < "ids#" < "pod#" < "pods#" < "snapshot#"): the newest snapshot
 * when there is one; else the newest other item, so the log is not empty (its newest log page,
 * or an item written beside its entries, is read once more than before: a log without a snapshot
 * is a short one); nothing at all when no log item exists. A new log's cold load is then one read
 * instead of two (snapshot, then tail).
 */
export async function loadStart(table: MeteredTable, pk: string): Promise<LogStart> {
  const output = await table.query({
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :first AND :last',
    ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
    ExpressionAttributeValues: { ':pk': str(pk), ':first': str(keys.entryPrefix), ':last': str(keys.snapshotEnd) },
    ScanIndexForward: false,
    Limit: 1,
    ConsistentRead: true,
  });
  const newest = output.Items?.[0];
  if (newest === undefined) return { empty: true };
  // By its key, as loadSnapshot finds snapshots (whatever attributes an older writer gave them).
  if (!(newest[ATTR.sk]?.S ?? '').startsWith(SNAPSHOT_PREFIX)) return { empty: false };
  return { snapshot: await snapshotAt(table, pk, newest), empty: false };
}

/** The snapshot a snapshot item holds, or points at (its chunks). */
async function snapshotAt(table: MeteredTable, pk: string, pointer: Item): Promise<Snapshot> {
  const seq = readNumber(pointer, ATTR.seq);
  if (pointer[ATTR.chunks] === undefined) return { seq, state: readJson(pointer, ATTR.data) };
  const parts = await readChunks(table, pk, seq);
  const expected = readNumber(pointer, ATTR.chunks);
  // Chunks are written before their pointer and never deleted: a shortfall is damage, not a race.
  if (parts.length !== expected) throw new Error(`snapshot ${pk}/${seq} has ${parts.length} of its ${expected} chunks`);
  const joined = Buffer.concat(parts);
  const text = pointer[ATTR.encoding] === undefined ? joined.toString('utf8') : decompress(joined).toString('utf8');
  return { seq, state: JSON.parse(text) };
}

async function readChunks(table: MeteredTable, pk: string, seq: number): Promise<Uint8Array[]> {
  const items = await queryByPrefix(table, pk, keys.chunkPrefix(seq));
  return items.map((item) => item[ATTR.data]?.B ?? new Uint8Array());
}
