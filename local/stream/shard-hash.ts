import { createHash } from 'node:crypto';

// Kinesis maps a record to a shard by the MD5 of its partition key, read as an unsigned 128-bit
// integer, against each shard's hash key range. A stream created with N shards (or on-demand,
// until it splits) divides the range 0 … 2^128 - 1 into N equal parts; so does this.

const HASH_SPACE = 1n << 128n;

/** The 128-bit hash key Kinesis derives from a partition key. */
export function hashKeyOf(partitionKey: string): bigint {
  return BigInt(`0x${createHash('md5').update(partitionKey, 'utf8').digest('hex')}`);
}

/** The shard (0 … shardCount - 1) whose hash key range holds the partition key's hash key. */
export function shardIndexOf(partitionKey: string, shardCount: number): number {
  return shardOfHashKey(hashKeyOf(partitionKey), shardCount);
}

/** The shard (0 … shardCount - 1) whose hash key range holds `hashKey`. */
export function shardOfHashKey(hashKey: bigint, shardCount: number): number {
  if (!Number.isInteger(shardCount) || shardCount < 1) throw new Error(`shardCount must be a positive integer, got ${shardCount}`);
  return Number((hashKey * BigInt(shardCount)) / HASH_SPACE);
}

/** Kinesis's shard ids: `shardId-000000000000`, `shardId-000000000001`, … */
export const shardIdOf = (index: number): string => `shardId-${String(index).padStart(12, '0')}`;
