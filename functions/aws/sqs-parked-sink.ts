import { SendMessageCommand, type MessageAttributeValue, type SQSClient } from '@aws-sdk/client-sqs';
import { MAX_ENTRY_BYTES } from './fit-rejection.ts';
import { errorLine, parkedBody } from '../triage/parked-entry.ts';
import type { ParkedSink } from '../../shared/ports.ts';
import type { ParkedEntry } from '../../shared/contract/dead-letters.ts';

/** The attributes take at most 5 × 1 KiB of text (3 bytes a character at worst) plus names. */
const ATTRIBUTE_ALLOWANCE = 24 * 1024;

/**
 * Parks an entry in the parked queue: the body says why (parkedBody: the reason, the error, the
 * Job, shard and sequence, and the original), and the attributes carry the error as
 * EventBridge's dead letters do (ERROR_CODE, ERROR_MESSAGE), so one look at the queue shows it.
 * The message is never over SQS's 256 KiB: the original is cut to fit, saying so.
 */
export function sqsParkedSink(client: Pick<SQSClient, 'send'>, queueUrl: string): ParkedSink {
  return {
    async park(entry) {
      await client.send(new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: parkedBody(entry, MAX_ENTRY_BYTES - ATTRIBUTE_ALLOWANCE),
        MessageAttributes: attributes(entry),
      }));
    },
  };
}

export function attributes(entry: ParkedEntry): Record<string, MessageAttributeValue> {
  const text = (value: string): MessageAttributeValue => ({ DataType: 'String', StringValue: sqsText(value) });
  return {
    ERROR_CODE: text(entry.code),
    ERROR_MESSAGE: text(errorLine(entry)),
    ...(entry.job === undefined ? {} : { JOB: text(entry.job.slice(0, 1024)) }),
    ...(entry.shardId === undefined ? {} : { SHARD_ID: text(entry.shardId.slice(0, 256)) }),
    ...(entry.sequenceNumber === undefined ? {} : { SEQUENCE_NUMBER: text(entry.sequenceNumber.slice(0, 256)) }),
  };
}

/** SQS takes only XML's characters: others (control characters, lone surrogates) become U+FFFD. */
export function sqsText(value: string): string {
  const text = value.toWellFormed().replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
  return text === '' ? '-' : text;
}
