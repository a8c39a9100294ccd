import { createHash } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';

/** A message as the local queue keeps it. */
export interface QueuedMessage {
  readonly messageId: string;
  readonly body: string;
  readonly sentAtMs: number;
  readonly receiveCount: number;
}

/** The record SQS hands a Lambda function for this message (one receive of it). */
export function sqsRecord(message: QueuedMessage, queueName: string): SQSRecord {
  return {
    messageId: message.messageId,
    receiptHandle: `${message.messageId}#${message.receiveCount}`,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAtMs),
      SenderId: 'events.amazonaws.com',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(message.body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queueName}`,
    awsRegion: 'us-east-1',
  };
}
