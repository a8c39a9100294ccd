import type { KinesisStreamEvent } from 'aws-lambda';

let sequence = 49_000_000_000_000_000_000n;

/**
 * A Kinesis batch as Lambda's event source delivers it to the writer: each record's data is
 * base64 of the JSON (a string is taken as the JSON text itself), with increasing sequence numbers.
 */
export function kinesisEvent(records: readonly unknown[]): KinesisStreamEvent {
  return {
    Records: records.map((record) => {
      const text = typeof record === 'string' ? record : JSON.stringify(record);
      sequence += 1n;
      return {
        kinesis: {
          data: Buffer.from(text).toString('base64'),
          sequenceNumber: sequence.toString(),
          partitionKey: 'test',
          kinesisSchemaVersion: '1.0',
          approximateArrivalTimestamp: 0,
        },
        eventSource: 'aws:kinesis',
        eventVersion: '1.0',
        eventID: `shardId-000000000000:${sequence}`,
        eventName: 'aws:kinesis:record',
        invokeIdentityArn: 'arn:aws:iam::000000000000:role/jobfold-writer',
        awsRegion: 'us-east-1',
        eventSourceARN: 'arn:aws:kinesis:us-east-1:000000000000:stream/jobfold-ingest',
      };
    }),
  };
}
