import { PutRecordCommand, type KinesisClient } from '@aws-sdk/client-kinesis';
import type { RecordPutter } from '../../shared/ports.ts';

/** PutRecord into the ingest stream: the triage's redrive of an event EventBridge could not put. */
export function kinesisRecordPutter(client: Pick<KinesisClient, 'send'>, streamArn: string): RecordPutter {
  return {
    async put(partitionKey, data) {
      await client.send(new PutRecordCommand({ StreamARN: streamArn, PartitionKey: partitionKey, Data: Buffer.from(data, 'utf8') }));
    },
  };
}
