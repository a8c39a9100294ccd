import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalStream, StreamPutError, type StreamTuning } from '../../../../local/stream/local-stream.ts';
import { shardIndexOf } from '../../../../local/stream/shard-hash.ts';

// The local Kinesis stream and its event source mapping: given records put with partition
// keys, when the consumer loops hand them to a handler, then per-key order, batching, partial
// batch responses, bisecting and the on-failure list behave as the AWS mapping does.

const FAST: Partial<StreamTuning> = { batchWindowMs: 5, retryBaseMs: 1, retryMaxMs: 5, maxRetryAttempts: 3 };
const streams: LocalStream[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.stop();
});

type Handler = (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse | void>;
function open(handler: Handler, tuning: Partial<StreamTuning> = {}): LocalStream {
  const stream = new LocalStream('test', handler, { ...FAST, ...tuning });
  streams.push(stream);
  return stream;
}

const decode = (event: KinesisStreamEvent) => event.Records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString('utf8'));

async function settled(stream: LocalStream, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!stream.idle) {
    if (Date.now() > deadline) throw new Error(`the stream is still busy (depth ${stream.depth})`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('the local stream', () => {
  it('maps a partition key to a shard by its MD5, as Kinesis does', () => {
    // md5("a") = 0cc1…, md5("b") = 92eb…, md5("c") = 4a8a…: the top of the 128-bit range picks the shard.
    expect([shardIndexOf('a', 4), shardIndexOf('b', 4), shardIndexOf('c', 4)]).toEqual([0, 2, 1]);
    expect(shardIndexOf('b', 1)).toBe(0);
  });

  it('delivers the records of one partition key in the order they were put, one batch at a time', async () => {
    const seen = new Map<string, number[]>();
    const inFlight = new Set<string>();
    let overlapped = false;
    const stream = open(async (event) => {
      const keys = new Set(event.Records.map((r) => r.kinesis.partitionKey));
      for (const key of keys) if (inFlight.has(key)) overlapped = true;
      for (const key of keys) inFlight.add(key);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      for (const [i, text] of decode(event).entries()) {
        const key = event.Records[i]!.kinesis.partitionKey;
        seen.set(key, [...(seen.get(key) ?? []), Number(text)]);
      }
      for (const key of keys) inFlight.delete(key);
    }, { shards: 3, parallelizationFactor: 3, batchSize: 7 });

    for (let n = 0; n < 300; n++) {
      stream.put(`job-${n % 10}`, String(n));
      if (n % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await settled(stream);

    expect(overlapped).toBe(false);
    expect([...seen.keys()].sort()).toEqual(Array.from({ length: 10 }, (_, k) => `job-${k}`).sort());
    for (const [key, values] of seen) {
      const k = Number(key.slice(4));
      expect(values).toEqual(Array.from({ length: 30 }, (_, i) => k + 10 * i));
    }
  });

  it('batches what arrived within the batching window, up to the batch size', async () => {
    const sizes: number[] = [];
    const stream = open(async (event) => {
      sizes.push(event.Records.length);
    }, { shards: 1, parallelizationFactor: 1, batchSize: 4, batchWindowMs: 30 });

    for (let n = 0; n < 10; n++) stream.put('job', String(n));
    await settled(stream);

    expect(sizes).toEqual([4, 4, 2]);
  });

  it('hands the handler Kinesis records: base64 data, the partition key, increasing sequence numbers', async () => {
    const events: KinesisStreamEvent[] = [];
    const stream = open(async (event) => {
      events.push(event);
    }, { shards: 2 });

    const put = stream.put('job-uid', '{"a":1}');
    stream.put('job-uid', '{"a":2}');
    await settled(stream);

    const records = events.flatMap((e) => e.Records);
    expect(records.map((r) => r.kinesis.partitionKey)).toEqual(['job-uid', 'job-uid']);
    expect(decode({ Records: records })).toEqual(['{"a":1}', '{"a":2}']);
    expect(records[0]).toMatchObject({ eventSource: 'aws:kinesis', eventName: 'aws:kinesis:record', eventID: `${put.shardId}:${put.sequenceNumber}` });
    expect(BigInt(records[1]!.kinesis.sequenceNumber)).toBeGreaterThan(BigInt(records[0]!.kinesis.sequenceNumber));
  });

  it('retries from the lowest failed sequence number of a partial batch response, not before it', async () => {
    const calls: string[][] = [];
    let failedOnce = false;
    const stream = open(async (event) => {
      const values = decode(event);
      calls.push(values);
      const at = values.indexOf('5');
      if (at >= 0 && !failedOnce) {
        failedOnce = true;
        // Two failures reported: the lower one is the checkpoint.
        return { batchItemFailures: [{ itemIdentifier: event.Records[at + 2]!.kinesis.sequenceNumber }, { itemIdentifier: event.Records[at]!.kinesis.sequenceNumber }] };
      }
      return { batchItemFailures: [] };
    }, { shards: 1, parallelizationFactor: 1, batchSize: 10 });

    for (let n = 0; n < 10; n++) stream.put('job', String(n));
    await settled(stream);

    expect(calls).toEqual([['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'], ['5', '6', '7', '8', '9']]);
  });

  it('treats a failure naming no record of the batch as a failure of the whole batch', async () => {
    const calls: string[][] = [];
    const stream = open(async (event) => {
      calls.push(decode(event));
      return calls.length === 1 ? { batchItemFailures: [{ itemIdentifier: '' }] } : undefined;
    }, { shards: 1, parallelizationFactor: 1 });

    for (let n = 0; n < 3; n++) stream.put('job', String(n));
    await settled(stream);

    expect(calls).toEqual([['0', '1', '2'], ['0', '1', '2']]);
  });

  it('bisects a batch that throws until the poison record is alone, retries it, then files it on the on-failure list', async () => {
    const delivered: string[] = [];
    const stream = open(async (event) => {
      const values = decode(event);
      if (values.includes('poison')) throw new Error('cannot parse poison');
      delivered.push(...values);
    }, { shards: 1, parallelizationFactor: 1, maxRetryAttempts: 2 });

    for (const value of ['0', '1', '2', 'poison', '4', '5', '6', '7']) stream.put('job', value);
    await settled(stream);

    expect(delivered).toEqual(['0', '1', '2', '4', '5', '6', '7']);
    expect(stream.failures()).toHaveLength(1);
    expect(stream.failures()[0]).toMatchObject({ shardId: 'shardId-000000000000', attempts: 3, error: 'cannot parse poison' });
    expect(stream.failures()[0]!.records.map((r) => r.data.toString())).toEqual(['poison']);
  });

  it('files the records from the failed one to the batch end once the retries are spent', async () => {
    const stream = open(async (event) => {
      const at = decode(event).indexOf('2');
      return at < 0 ? undefined : { batchItemFailures: [{ itemIdentifier: event.Records[at]!.kinesis.sequenceNumber }] };
    }, { shards: 1, parallelizationFactor: 1, maxRetryAttempts: 1 });

    for (let n = 0; n < 4; n++) stream.put('job', String(n));
    await settled(stream);

    expect(stream.failures().map((f) => f.records.map((r) => r.data.toString()))).toEqual([['2', '3']]);
  });

  it('is busy while a record waits or a batch runs, and idle after', async () => {
    let release: () => void = () => undefined;
    const stream = open(() => new Promise<void>((resolve) => {
      release = resolve;
    }));
    expect(stream.idle).toBe(true);

    stream.put('job', 'x');
    expect(stream.idle).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stream.processing).toBe(true);
    release();
    await settled(stream);

    expect(stream.processing).toBe(false);
    expect(stream.depth).toBe(0);
  });

  it('refuses a record Kinesis would refuse: an empty or over-long partition key, or over 1 MiB', () => {
    const stream = open(async () => undefined);

    expect(() => stream.put('', 'x')).toThrow(StreamPutError);
    expect(() => stream.put('k'.repeat(257), 'x')).toThrow(/1 to 256 characters, got 257/);
    expect(() => stream.put('k', Buffer.alloc(1024 * 1024))).toThrow(/at most 1048576 bytes/);
    expect(stream.put('k'.repeat(256), 'x').shardId).toMatch(/^shardId-/);
  });

  it('hands out no batch once stopped', async () => {
    const calls: number[] = [];
    const stream = open(async (event) => {
      calls.push(event.Records.length);
    });
    stream.stop();

    stream.put('job', 'x');
    await new Promise((resolve) => setTimeout(resolve, 30));

    expect(calls).toEqual([]);
  });
});
