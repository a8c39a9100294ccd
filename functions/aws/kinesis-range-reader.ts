import { GetRecordsCommand, GetShardIteratorCommand, type KinesisClient } from '@aws-sdk/client-kinesis';
import type { ShardRangeReader } from '../../shared/ports.ts';
import type { StreamRecord } from '../../shared/contract/dead-letters.ts';

/** GetRecords calls for one range at most: 1,000 records fit in one or two; the rest is slack for empty reads. */
const MAX_CALLS = 50;

/**
 * Reads a shard's records between two sequence numbers back from the ingest stream:
 * GetShardIterator AT_SEQUENCE_NUMBER, then GetRecords until past the end. A start the stream
 * no longer holds (retention passed, or the shard is gone after a reshard) comes back as
 * `complete: false`, with whatever of the range is still there.
 */
export function kinesisRangeReader(client: Pick<KinesisClient, 'send'>, streamArn: string): ShardRangeReader {
  return {
    async read(shardId, start, end) {
      let iterator: string | undefined;
      try {
        const output = await client.send(new GetShardIteratorCommand({
          StreamARN: streamArn, ShardId: shardId, ShardIteratorType: 'AT_SEQUENCE_NUMBER', StartingSequenceNumber: start,
        }));
        iterator = output.ShardIterator;
      } catch (error) {
        if (isGone(error)) return { records: [], complete: false };
        throw error;
      }
      const records: StreamRecord[] = [];
      let first = true;
      let complete = true;
      for (let calls = 0; iterator !== undefined && calls < MAX_CALLS; calls++) {
        const output = await client.send(new GetRecordsCommand({ StreamARN: streamArn, ShardIterator: iterator, Limit: 1000 }));
        for (const record of output.Records ?? []) {
          const sequenceNumber = record.SequenceNumber ?? '0';
          // A trimmed start: the iterator begins at the oldest record the stream still holds.
          if (first && BigInt(sequenceNumber) > BigInt(start)) complete = false;
          first = false;
          if (BigInt(sequenceNumber) > BigInt(end)) return { records, complete };
          records.push({
            sequenceNumber, partitionKey: record.PartitionKey ?? '', data: record.Data ?? new Uint8Array(),
            ...(record.ApproximateArrivalTimestamp ? { approximateArrivalTimestamp: record.ApproximateArrivalTimestamp } : {}),
          });
          if (sequenceNumber === end) return { records, complete };
        }
        // Caught up with the shard's tip (or the shard is closed and read to its end).
        if ((output.Records ?? []).length === 0 && (output.MillisBehindLatest === 0 || output.NextShardIterator === undefined)) break;
        iterator = output.NextShardIterator;
      }
      return { records, complete: complete && records.length > 0 };
    },
  };
}

/** The stream no longer has the start: a trimmed sequence number or a deleted shard. */
function isGone(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'InvalidArgumentException' || name === 'ResourceNotFoundException';
}
