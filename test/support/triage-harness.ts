import type { SQSRecord } from 'aws-lambda';
import type { StreamId } from '../../shared/log/event-store.ts';
import type { InboundError } from '../../shared/contract/parse-inbound.ts';
import { DEFAULT_FOLD_CONFIG } from '../../shared/job/state.ts';
import { createRecordWriter, type WriterHandlerDeps } from '../../functions/handlers/writer-handler.ts';
import type { TriageHandlerDeps } from '../../functions/handlers/triage-handler.ts';
import type { ShardRangeReader } from '../../shared/ports.ts';
import type { ParkedEntry, StreamRecord } from '../../shared/contract/dead-letters.ts';

// The dead-letter triage with in-memory ports: a Kinesis shard (records by sequence number, a
// trim horizon), a store that can be taken down and healed, and lists for what was refused,
// put back and parked.

export const SHARD = 'shardId-000000000000';

/** One shard of the ingest stream: records put in order; `trim(n)` drops the oldest n (retention). */
export class MemoryShard implements ShardRangeReader {
  readonly records: StreamRecord[] = [];
  #next = 49_600_000_000_000_000_000_000n;
  #trimmed = 0;
  reads = 0;

  put(partitionKey: string, data: string): string {
    this.#next += 7n;
    const sequenceNumber = this.#next.toString();
    this.records.push({ sequenceNumber, partitionKey, data: Buffer.from(data, 'utf8') });
    return sequenceNumber;
  }

  trim(count: number): void {
    this.#trimmed += count;
  }

  async read(shardId: string, start: string, end: string) {
    this.reads++;
    if (shardId !== SHARD) throw Object.assign(new Error(`Shard ${shardId} not found`), { name: 'ResourceNotFoundException' });
    const held = this.records.slice(this.#trimmed);
    const records = held.filter((r) => BigInt(r.sequenceNumber) >= BigInt(start) && BigInt(r.sequenceNumber) <= BigInt(end));
    return { records, complete: held[0] !== undefined && BigInt(held[0].sequenceNumber) <= BigInt(start) };
  }
}

/** A transient store error, as the AWS SDK throws one (never parked as a stall: stall.ts). */
export function outage(): Error {
  return Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable', $fault: 'server', $metadata: { httpStatusCode: 503 } });
}

/** `store` whose every call throws outage() while `down` is true. */
export function withOutage<T extends object>(store: T): { store: T; down: (value: boolean) => void } {
  let isDown = false;
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (isDown) return Promise.reject(outage());
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, down: (value) => { isDown = value; } };
}

export interface TriageWorld {
  readonly deps: TriageHandlerDeps;
  readonly refused: { event: unknown; errors: readonly InboundError[] }[];
  readonly parked: ParkedEntry[];
  readonly shard: MemoryShard;
}

/** The triage over `store` (the writer's own code), an in-memory shard, parking in a list. */
export function triageWorld(store: WriterHandlerDeps['store'], maxReceives = 5): TriageWorld {
  const refused: TriageWorld['refused'] = [];
  const parked: ParkedEntry[] = [];
  const shard = new MemoryShard();
  const timers: { stream: StreamId; at: string }[] = [];
  const rejections = { reject: async (event: unknown, errors: readonly InboundError[]) => void refused.push({ event, errors }) };
  const write = createRecordWriter({
    store, clock: () => '2026-06-01T00:00:00Z', config: DEFAULT_FOLD_CONFIG, rejections,
    timers: { schedule: async (stream, at) => void timers.push({ stream, at }) },
  });
  const deps: TriageHandlerDeps = {
    write, reader: shard, rejections, maxReceives,
    stream: { put: async (key, data) => void shard.put(key, data) },
    parked: { park: async (entry) => void parked.push(entry) },
  };
  return { deps, refused, parked, shard };
}

/** What Lambda writes to the writer-failures queue for records `first`…`last` of the shard. */
export function onFailureBody(first: string, last: string, batchSize = 1): string {
  return JSON.stringify({
    requestContext: { requestId: 'r', functionArn: 'arn:aws:lambda:eu-west-1:1:function:writer', condition: 'RetryAttemptsExhausted', approximateInvokeCount: 11 },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: '2026-06-01T00:00:00.000Z',
    KinesisBatchInfo: {
      shardId: SHARD, startSequenceNumber: first, endSequenceNumber: last, batchSize,
      approximateArrivalOfFirstRecord: '2026-06-01T00:00:00.000Z', approximateArrivalOfLastRecord: '2026-06-01T00:00:00.000Z',
      streamArn: 'arn:aws:kinesis:eu-west-1:1:stream/ingest',
    },
  });
}

/** An SQS record of a triaged queue, on its `receiveCount`-th receive. */
export function sqsRecord(body: string, receiveCount: number, attributes: Record<string, string> = {}, messageId = 'm-1'): SQSRecord {
  return {
    messageId, receiptHandle: 'h', body, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:eu-west-1:1:q', awsRegion: 'eu-west-1',
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 's', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, { stringValue: v, dataType: 'String' }])),
  };
}
