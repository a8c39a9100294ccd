import type { KinesisStreamRecord } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogWriteFailure } from '../../../../functions/handlers/writer-handler.ts';
import { LocalStream } from '../../../../local/stream/local-stream.ts';
import { FailedBatchTriage } from '../../../../local/stream/failed-batch-triage.ts';
import { DeadLetterFiles } from '../../../../local/stream/dead-letter-files.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    const triage = new FailedBatchTriage({ write: w.write }, { maxReceives: 5, retryMs: 1 });
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
    const triage = new FailedBatchTriage({ write: w.write }, { maxReceives: 3, retryMs: 1 });
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

describe('given --data: what the stream gave up on is kept on disk until written (issue 24)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const files = () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobfold-dead-letters-'));
    dirs.push(dir);
    return { dir, files: new DeadLetterFiles(dir) };
  };

  it('keeps a parked batch across processes, and puts its records back into the stream once', async () => {
    const { dir, files: kept } = files();
    const triage = new FailedBatchTriage({ write: writer(Infinity).write, files: kept }, { maxReceives: 2, retryMs: 1 });
    const stream = failingStream(triage);
    stream.put('u', '{"n":1}');
    stream.put('u', '{"n":2}');
    await until(() => triage.triaged().length > 0 && triage.idle);
    expect(triage.parked()).toHaveLength(2);

    // a new process on the same directory: the parked records are there, and go back once
    const again = new FailedBatchTriage({ write: writer(0).write, files: new DeadLetterFiles(dir) });
    expect(again.parked().map((p) => p.original)).toEqual(['{"n":1}', '{"n":2}']);
    const put: string[] = [];
    expect(again.redrive((record) => put.push(`${record.partitionKey} ${record.data.toString('utf8')}`), 'parked')).toBe(2);
    expect(put).toEqual(['u {"n":1}', 'u {"n":2}']);
    expect(again.redrive(() => put.push('again'), 'all')).toBe(0);
    expect(again.parked()).toEqual([]);
  });

  it('keeps a batch before the stream moves past it, and drops it once written', async () => {
    const { files: kept } = files();
    let healthy = false;
    let heal: () => void = () => undefined;
    const whenHealthy = () => (healthy ? Promise.resolve() : new Promise<void>((resolve) => { heal = resolve; }));
    const w = writer(0);
    const triage = new FailedBatchTriage({ write: w.write, files: kept, whenHealthy }, { maxReceives: 2, retryMs: 1 });
    const stream = failingStream(triage);
    stream.put('u', '{"n":1}');
    await until(() => kept.all().length === 1);
    // the database is down: the triage waits, spending none of its attempts, and the batch stays kept
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(w.written).toEqual([]);
    expect(kept.all()[0]).toMatchObject({ state: 'triaging', records: [expect.objectContaining({ partitionKey: 'u' })] });
    healthy = true;
    heal();
    await until(() => triage.triaged().length > 0 && triage.idle);
    expect(triage.triaged()).toEqual([expect.objectContaining({ outcome: 'written', receives: 1 })]);
    expect(kept.all()).toEqual([]);
  });
});
