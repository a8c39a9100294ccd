import { SendMessageCommand, type MessageAttributeValue, type SQSClient } from '@aws-sdk/client-sqs';
import { sqsText } from './sqs-parked-sink.ts';
import type { TriageMessage } from '../../shared/contract/dead-letters.ts';
import type { TriageRequeue } from '../../shared/ports.ts';

/** How long a requeued message waits before the next attempt: SQS's longest delay, as the queues' visibility timeout. */
export const REQUEUE_DELAY_SECONDS = 900;

/**
 * Sends a message the triage failed back to the queue it came from, delayed 15 minutes, with
 * the error of the attempt (TRIAGE_ERROR) and the attempts so far (TRIAGE_ATTEMPTS), keeping
 * EventBridge's ERROR_CODE and ERROR_MESSAGE. So even Lambda's description of a failed batch,
 * which carries no error, says why it is waiting once the triage has tried it.
 */
export function sqsRequeue(client: Pick<SQSClient, 'send'>): TriageRequeue {
  return {
    async requeue(message: TriageMessage, error: string, sourceArn: string) {
      const text = (value: string): MessageAttributeValue => ({ DataType: 'String', StringValue: sqsText(value.slice(0, 1024)) });
      await client.send(new SendMessageCommand({
        QueueUrl: queueUrlOf(sourceArn),
        MessageBody: message.body,
        DelaySeconds: REQUEUE_DELAY_SECONDS,
        MessageAttributes: {
          ...(message.errorCode === undefined ? {} : { ERROR_CODE: text(message.errorCode) }),
          ...(message.errorMessage === undefined ? {} : { ERROR_MESSAGE: text(message.errorMessage) }),
          TRIAGE_ERROR: text(error),
          TRIAGE_ATTEMPTS: { DataType: 'Number', StringValue: String(message.receiveCount) },
        },
      }));
    },
  };
}

/** `arn:aws:sqs:<region>:<account>:<name>` → its queue URL. */
export function queueUrlOf(arn: string): string {
  const [, partition, service, region, account, name] = arn.split(':');
  if (service !== 'sqs' || !region || !account || !name) throw new Error(`not an SQS queue ARN: ${arn}`);
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://sqs.${region}.${domain}/${account}/${name}`;
}
