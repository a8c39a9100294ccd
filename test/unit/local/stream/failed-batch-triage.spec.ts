import type { KinesisStreamRecord } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogWriteFailure } from '../../../../functions/handlers/writer-handler.ts';
import { LocalStream } from '../../../../local/stream/local-stream.ts';
import { FailedBatchTriage } from '../../../../local/stream/failed-batch-triage.ts';

// The local dead-letter triage (issue 14: locally too, what the writer gives up on is retried or
// parked with its error): the stream gives a batch up after its retries, and the triage writes it
// once more through the writer's code on each attempt, parking what still fails on the last.

const streams: LocalStream[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.stop();
});
const job = { kind: 'Job', clusterId: 'c', namespace: 'ns', uid: 'u' } as const;

/** A writer whose store is down for the first `downFor` calls (Infinity: never heals); it counts calls. */
function writer(downFor: number) {
  let calls = 0;
  const written: string[] = [];
  const write = async (records: readonly KinesisStreamRecord[]): Promise<LogWriteFailure[]> => {
    calls++;
    if (calls <= downFor) {
      const sequenceNumbers = records.map((r) => r.kinesis.sequenceNumber);
      return [{ stream: job, startSequenceNumber: sequenceNumbers[0]!, endSequenceNumber: sequenceNumbers.at(-1)!, records: records.length, sequenceNumbers, error: Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable' }) }];
    }
    written.push(...records.map((r) => Buffer.from(r.kinesis.data, 'base64').toString('utf8')));
    return [];
  };
  return { write, written, calls: () => calls };
}

/** A stream whose handler always fails, feeding `triage` what it gives up on. */
function failingStream(triage: FailedBatchTriage): LocalStream {
  const stream = new LocalStream('test', async () => { throw new Error('store down'); },
    { shards: 1, parallelizationFactor: 1, batchWindowMs: 5, retryBaseMs: 1, retryMaxMs: 2, maxRetryAttempts: 1, bisectOnError: false });
  stream.onFailure((failure) => triage.take(failure));
  streams.push(stream);
  return stream;
}

async function until(done: () => boolean, timeoutMs = 5000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !done(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() > deadline) throw new Error('timed out');
  }
}

describe('given a batch the local stream gave up on', () => {
  it('when the store heals before the triage\'s last attempt, then the batch is written and nothing parked', async () => {
    const w = writer(2);
    const triage = new FailedBatchTriage(w.write, { maxReceives: 5, retryMs: 1 });
    const stream = failingStream(triage);
    stream.put('u', '{"n":1}');
    stream.put('u', '{"n":2}');
    await until(() => triage.triaged().length > 0 && triage.idle);
    expect(triage.triaged()).toEqual([expect.objectContaining({ outcome: 'written', receives: 3 })]);
    expect(w.written).toEqual(['{"n":1}', '{"n":2}']);
    expect(triage.parked()).toEqual([]);
  });

  it('when the store never heals, then each record is parked with the error on the last attempt', async () => {
    const w = writer(Infinity);
    const triage = new FailedBatchTriage(w.write, { maxReceives: 3, retryMs: 1 });
    const stream = failingStream(triage);
    stream.put('u', '{"n":1}');
    await until(() => triage.triaged().length > 0 && triage.idle);
    expect(w.calls()).toBe(3);
    expect(triage.triaged()).toEqual([expect.objectContaining({ outcome: 'parked', receives: 3 })]);
    expect(triage.parked()).toEqual([expect.objectContaining({
      code: 'WriteFailed', job: 'Job#c#ns#u', shardId: 'shardId-000000000000', receiveCount: 3,
      error: { name: 'ServiceUnavailable', message: 'Service Unavailable' }, original: '{"n":1}',
    })]);
  });
});
