import { describe, expect, it } from 'vitest';
import { GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-kinesis';
import type { SendMessageCommand } from '@aws-sdk/client-sqs';
import { kinesisRangeReader } from '../../../functions/aws/kinesis-range-reader.ts';
import { sqsParkedSink } from '../../../functions/aws/sqs-parked-sink.ts';
import type { ParkedEntry } from '../../../shared/contract/dead-letters.ts';

// The triage's AWS adapters against fake clients: the range reader's calls and stops, and the
// parked queue's message (body within SQS's 256 KiB, the error in the attributes).

const STREAM = 'arn:aws:kinesis:eu-west-1:1:stream/ingest';

/** A fake Kinesis client over one shard's records; pages of `page` records; the first `trimmed` are gone. */
function kinesis(sequenceNumbers: readonly number[], { page = 2, trimmed = 0, gone = false } = {}) {
  const calls: string[] = [];
  const send = async (command: GetShardIteratorCommand | GetRecordsCommand) => {
    if (command instanceof GetShardIteratorCommand) {
      calls.push(`iterator ${command.input.ShardIteratorType} ${command.input.StartingSequenceNumber}`);
      if (gone) throw Object.assign(new Error('shard gone'), { name: 'ResourceNotFoundException' });
      const held = sequenceNumbers.slice(trimmed);
      const from = held.findIndex((s) => s >= Number(command.input.StartingSequenceNumber));
      return { ShardIterator: String(Math.max(from, 0)) };
    }
    const at = Number(command.input.ShardIterator);
    calls.push(`records ${at}`);
    const held = sequenceNumbers.slice(trimmed);
    const records = held.slice(at, at + page).map((s) => ({ SequenceNumber: String(s), PartitionKey: 'k', Data: Buffer.from(`r${s}`) }));
    return { Records: records, NextShardIterator: String(at + page), MillisBehindLatest: at + page >= held.length ? 0 : 1 };
  };
  return { client: { send } as never, calls };
}

describe('the range reader', () => {
  it('reads from the start to the end, both included, and stops there', async () => {
    const { client, calls } = kinesis([10, 20, 30, 40, 50, 60]);
    const read = await kinesisRangeReader(client, STREAM).read('shardId-0', '20', '40');
    expect(read).toEqual({ records: [20, 30, 40].map((s) => expect.objectContaining({ sequenceNumber: String(s) })), complete: true });
    expect(calls[0]).toBe('iterator AT_SEQUENCE_NUMBER 20');
  });

  it('says incomplete when the stream starts after the range\'s start (trimmed), with what is left', async () => {
    const { client } = kinesis([10, 20, 30, 40], { trimmed: 2 });
    const read = await kinesisRangeReader(client, STREAM).read('shardId-0', '10', '40');
    expect(read.complete).toBe(false);
    expect(read.records.map((r) => r.sequenceNumber)).toEqual(['30', '40']);
  });

  it('says incomplete and empty when the shard is gone', async () => {
    const { client } = kinesis([10], { gone: true });
    expect(await kinesisRangeReader(client, STREAM).read('shardId-0', '10', '10')).toEqual({ records: [], complete: false });
  });
});

describe('the parked queue', () => {
  const entry = (original: string): ParkedEntry => ({
    code: 'WriteFailed', reason: 'the writer failed', error: { name: 'ServiceUnavailable', message: 'down\u0000\uD800' },
    job: 'Job#c#ns#uid', shardId: 'shardId-0', sequenceNumber: '42', receiveCount: 5, original,
  });
  const sent = async (e: ParkedEntry) => {
    const commands: SendMessageCommand[] = [];
    await sqsParkedSink({ send: async (c: SendMessageCommand) => void commands.push(c) } as never, 'https://q').park(e);
    return commands[0]!.input;
  };

  it('carries the error in its attributes and its body, with the Job, shard and sequence', async () => {
    const input = await sent(entry('{"a":1}'));
    expect(input.MessageAttributes).toEqual({
      ERROR_CODE: { DataType: 'String', StringValue: 'WriteFailed' },
      ERROR_MESSAGE: { DataType: 'String', StringValue: 'ServiceUnavailable: down\uFFFD\uFFFD' },
      JOB: { DataType: 'String', StringValue: 'Job#c#ns#uid' },
      SHARD_ID: { DataType: 'String', StringValue: 'shardId-0' },
      SEQUENCE_NUMBER: { DataType: 'String', StringValue: '42' },
    });
    expect(JSON.parse(input.MessageBody!)).toMatchObject({
      parked: 'WriteFailed', job: 'Job#c#ns#uid', shardId: 'shardId-0', sequenceNumber: '42', receiveCount: 5, truncated: false, original: '{"a":1}',
      reason: expect.stringMatching(/^the writer failed: ServiceUnavailable: down/),
    });
  });

  it('fits SQS\'s 256 KiB with its attributes whatever the original, saying it cut', async () => {
    const input = await sent(entry('€'.repeat(400_000)));
    const attributeBytes = Object.entries(input.MessageAttributes!).reduce((n, [k, v]) => n + k.length + 6 + Buffer.byteLength(v.StringValue!), 0);
    expect(Buffer.byteLength(input.MessageBody!) + attributeBytes).toBeLessThanOrEqual(256 * 1024);
    expect(JSON.parse(input.MessageBody!)).toMatchObject({ truncated: true, parked: 'WriteFailed' });
  });
});

describe('the requeue', () => {
  it('sends the body back to the queue it came from, delayed, with the error and the attempts, keeping EventBridge\'s error', async () => {
    const { sqsRequeue, queueUrlOf } = await import('../../../functions/aws/sqs-requeue.ts');
    const commands: SendMessageCommand[] = [];
    await sqsRequeue({ send: async (c: SendMessageCommand) => void commands.push(c) } as never)
      .requeue({ body: '{"a":1}', receiveCount: 2, errorCode: 'THROTTLED', errorMessage: 'slow' }, 'ServiceUnavailable: down\u0007', 'arn:aws:sqs:eu-west-1:123456789012:jobfold-WriterFailures');
    expect(commands[0]!.input).toEqual({
      QueueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/jobfold-WriterFailures',
      MessageBody: '{"a":1}', DelaySeconds: 900,
      MessageAttributes: {
        ERROR_CODE: { DataType: 'String', StringValue: 'THROTTLED' },
        ERROR_MESSAGE: { DataType: 'String', StringValue: 'slow' },
        TRIAGE_ERROR: { DataType: 'String', StringValue: 'ServiceUnavailable: down\uFFFD' },
        TRIAGE_ATTEMPTS: { DataType: 'Number', StringValue: '2' },
      },
    });
    expect(() => queueUrlOf('arn:aws:sns:eu-west-1:1:t')).toThrow(/not an SQS queue ARN/);
  });
});
