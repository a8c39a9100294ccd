import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ParkedMessage } from '../../shared/contract/dead-letters.ts';
import type { ParkedQueue } from '../../shared/ports.ts';

/** How long a received message stays invisible while `jobfold admin redrive` runs (released at its end). */
const VISIBILITY_SECONDS = 600;

/** The parked queue for `jobfold admin redrive`: receive (10 at a time), delete, release. */
export function sqsParkedQueue(client: Pick<SQSClient, 'send'>, queueUrl: string): ParkedQueue {
  const handles = new Map<string, string>();
  return {
    async receive() {
      const output = await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: VISIBILITY_SECONDS, WaitTimeSeconds: 1 }));
      const fresh: ParkedMessage[] = [];
      for (const message of output.Messages ?? []) {
        if (message.MessageId === undefined || message.ReceiptHandle === undefined || handles.has(message.MessageId)) continue;
        handles.set(message.MessageId, message.ReceiptHandle);
        fresh.push({ id: message.MessageId, body: message.Body ?? '' });
      }
      return fresh;
    },
    async delete(message) {
      await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: handles.get(message.id) }));
    },
    async release(message) {
      await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: handles.get(message.id), VisibilityTimeout: 0 }));
    },
  };
}
