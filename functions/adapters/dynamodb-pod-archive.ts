import { createHash, randomUUID } from 'node:crypto';
import { decodeArchivedPods, encodeArchivedPods, type ArchivedPod } from '../../shared/job/index.ts';
import { jsonAttributes, num, readJson, readNumber, str } from './item-codec.ts';
import type { Item, MeteredTable } from './metered-table.ts';
import { queryByPrefix } from './prefix-query.ts';
import { ATTR, ITEM_TYPE, keys } from './table-layout.ts';

// Settled pods archived out of a Job's snapshot (shared/log/pod-archive.ts), packed: a save
// groups its pods into POD_BUCKETS buckets by a hash of the uid and writes each bucket's share
// as one compressed item "pods#<bucket>#<save stamp>#<part>" of at most PODS_PER_ITEM pods. A
// big Job's snapshot archives thousands of pods at once, so this costs a few hundredths of a
// write unit per pod instead of one unit each ("pod#<uid>", the format before, still read).
// A load queries only the buckets of the uids it asks for. A pod stored again is found in two
// saves; the later save stamp wins (saves of one pod are a snapshot apart, never concurrent).
// An item's pods are stored as tuples beside what they share (shared/job/archive-codec.ts);
// items written before that hold ArchivedPod objects, and read as they are.

export const POD_BUCKETS = 64;
export const PODS_PER_ITEM = 500;

export async function saveArchivedPods(table: MeteredTable, pk: string, pods: readonly ArchivedPod[]): Promise<void> {
  const latest = new Map(pods.map((pod) => [pod.uid, pod]));
  if (latest.size === 0) return;
  const stamp = saveStamp();
  const items: Item[] = [];
  for (const [bucket, group] of byBucket([...latest.values()], (pod) => pod.uid)) {
    for (let part = 0; part * PODS_PER_ITEM < group.length; part++) {
      items.push({
        [ATTR.pk]: str(pk),
        [ATTR.sk]: str(keys.podBatch(bucket, stamp, part)),
        [ATTR.type]: str(ITEM_TYPE.podBatch),
        [ATTR.chunks]: num(Math.min(PODS_PER_ITEM, group.length - part * PODS_PER_ITEM)),
        // The group's stored form (shared/job/archive-codec.ts): tuples beside what the pods share.
        ...jsonAttributes(ATTR.data, encodeArchivedPods(group.slice(part * PODS_PER_ITEM, (part + 1) * PODS_PER_ITEM))),
      });
    }
  }
  await table.batchPut(items);
}

export async function loadArchivedPods(table: MeteredTable, pk: string, uids: readonly string[]): Promise<ArchivedPod[]> {
  const wanted = new Set(uids);
  if (wanted.size === 0) return [];
  // Past a few buckets, one query of every bucket costs fewer requests than one query each (a
  // cold load of a big Job names pods in nearly all of them) and reads the same items.
  const buckets = [...byBucket([...wanted], (uid) => uid).keys()];
  const prefixes = buckets.length > WHOLE_ARCHIVE_ABOVE_BUCKETS ? [keys.podBatchPrefixAll] : buckets.map((bucket) => keys.podBatchPrefix(bucket));
  const found = await readPacked(table, pk, prefixes, (uid) => wanted.has(uid));
  const notFound = [...wanted].filter((uid) => !found.has(uid));
  // Pods first seen after the snapshot are in no archive: look for them in the older one-item
  // format only when the Job has such items (one keys-only read instead of a BatchGet per 100).
  if (notFound.length === 0 || !(await hasLegacyPods(table, pk))) return [...found.values()];
  const legacy = notFound.map((uid) => ({ [ATTR.pk]: str(pk), [ATTR.sk]: str(keys.pod(uid)) }));
  const older = await table.batchGet(legacy, true);
  return [...found.values(), ...older.map((item) => readJson(item, ATTR.data) as ArchivedPod)];
}

/** Every archived pod of the Job: one query of every bucket, and one of the older one-item format. */
export async function loadAllArchivedPods(table: MeteredTable, pk: string): Promise<ArchivedPod[]> {
  const found = await readPacked(table, pk, [keys.podBatchPrefixAll], () => true);
  // A pod in both formats was stored again packed, later: the packed record wins, as in loadArchivedPods.
  for (const item of await queryByPrefix(table, pk, keys.pod(''))) {
    const pod = readJson(item, ATTR.data) as ArchivedPod;
    if (!found.has(pod.uid)) found.set(pod.uid, pod);
  }
  return [...found.values()];
}

/** The packed pods under `prefixes` that `keep` selects, the latest save of each. */
async function readPacked(table: MeteredTable, pk: string, prefixes: readonly string[], keep: (uid: string) => boolean): Promise<Map<string, ArchivedPod>> {
  const found = new Map<string, ArchivedPod>();
  // Items come back in sort-key order, so within a bucket a later save overwrites an earlier one.
  for (const prefix of prefixes) {
    for (const item of await queryByPrefix(table, pk, prefix)) {
      // Items written before the stored form hold the objects themselves: decode reads both.
      for (const pod of decodeArchivedPods(readJson(item, ATTR.data))) {
        if (keep(pod.uid)) found.set(pod.uid, pod);
      }
    }
  }
  return found;
}

/** Buckets a load queries one by one; above this, it queries the whole archive at once. */
const WHOLE_ARCHIVE_ABOVE_BUCKETS = 8;

/** Whether the Job has any pod archived in the older format, one item per pod ("pod#<uid>"). */
async function hasLegacyPods(table: MeteredTable, pk: string): Promise<boolean> {
  const output = await table.query({
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
    ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
    ExpressionAttributeValues: { ':pk': str(pk), ':prefix': str(keys.pod('')) },
    ProjectionExpression: '#sk',
    Limit: 1,
    ConsistentRead: true,
  });
  return (output.Items ?? []).length > 0;
}

/** How many pods a stored archive item holds (for tests and figures). */
export const podsInItem = (item: Item): number => readNumber(item, ATTR.chunks);

function bucketOf(uid: string): number {
  return createHash('sha1').update(uid).digest().readUInt16BE(0) % POD_BUCKETS;
}

function byBucket<T>(values: readonly T[], uidOf: (value: T) => string): Map<number, T[]> {
  const buckets = new Map<number, T[]>();
  for (const value of values) {
    const bucket = bucketOf(uidOf(value));
    const group = buckets.get(bucket) ?? [];
    group.push(value);
    buckets.set(bucket, group);
  }
  return buckets;
}

/** Orders saves by time; the random part keeps two saves in one millisecond apart. */
function saveStamp(): string {
  return `${String(Date.now()).padStart(15, '0')}-${randomUUID().slice(0, 8)}`;
}
