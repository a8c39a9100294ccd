import type { KinesisStreamRecord } from 'aws-lambda';

/** A record as a shard keeps it: what PutRecord stored, and when it arrived. */
export interface StoredRecord {
  readonly partitionKey: string;
  /** Decimal, increasing within a shard; compare as BigInt (Kinesis's are up to 56 digits). */
  readonly sequenceNumber: string;
  /** Its place among the records put on its shard (0, 1, …): what the journal and checkpoints count. */
  readonly position: number;
  readonly data: Buffer;
  readonly arrivedAtMs: number;
}

/** The records of one shard are numbered from here, like Kinesis's 56-digit sequence numbers. */
const SEQUENCE_BASE = 49_000_000_000_000_000_000n;

/** The sequence number of the `n`th record (from 0) put into shard `shardIndex`. */
export function sequenceNumberOf(shardIndex: number, n: number): string {
  return (SEQUENCE_BASE + (BigInt(shardIndex) << 64n) + BigInt(n)).toString();
}

/** The record Lambda's Kinesis event source hands the function for a stored record. */
export function kinesisRecord(record: StoredRecord, shardId: string, streamName: string): KinesisStreamRecord {
  const streamArn = `arn:aws:kinesis:us-east-1:000000000000:stream/${streamName}`;
  return {
    awsRegion: 'us-east-1',
    eventID: `${shardId}:${record.sequenceNumber}`,
    eventName: 'aws:kinesis:record',
    eventSource: 'aws:kinesis',
    eventSourceARN: streamArn,
    eventVersion: '1.0',
    invokeIdentityArn: 'arn:aws:iam::000000000000:role/jobfold-writer',
    kinesis: {
      approximateArrivalTimestamp: record.arrivedAtMs / 1000,
      data: record.data.toString('base64'),
      kinesisSchemaVersion: '1.0',
      partitionKey: record.partitionKey,
      sequenceNumber: record.sequenceNumber,
    },
  };
}
