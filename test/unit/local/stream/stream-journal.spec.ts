import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KinesisStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalStream, type StreamTuning } from '../../../../local/stream/local-stream.ts';
import { StreamJournal } from '../../../../local/stream/stream-journal.ts';

// The ingest stream's journal (`npm start -- --data DIR`): given records put on a journaled
// stream, when the process stops before they were processed, then a stream opened on the same
// journal puts them again; once a shard has processed everything put on it, its journal is empty.

const FAST: Partial<StreamTuning> = { shards: 2, batchWindowMs: 5, retryBaseMs: 1, retryMaxMs: 5, maxRetryAttempts: 3 };
const root = mkdtempSync(join(tmpdir(), 'jobfold-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const streams: LocalStream[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.stop();
});

function open(dir: string, handler: (event: KinesisStreamEvent) => Promise<void>, tuning: Partial<StreamTuning> = {}): LocalStream {
  const stream = new LocalStream('test', handler, { ...FAST, ...tuning }, new StreamJournal(dir));
  streams.push(stream);
  return stream;
}

const decode = (event: KinesisStreamEvent) => event.Records.map((r) => `${r.kinesis.partitionKey}=${Buffer.from(r.kinesis.data, 'base64').toString('utf8')}`);
const journaled = (dir: string) => readdirSync(dir).flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean));

async function settled(stream: LocalStream): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!stream.idle) {
    if (Date.now() > deadline) throw new Error(`the stream is still busy (depth ${stream.depth})`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('the local stream with a journal', () => {
  it('journals a record before put returns and puts the journal again when opened after a stop', async () => {
    const dir = join(root, 'replay');
    const first = open(dir, () => new Promise(() => {})); // never finishes: the process is killed mid-batch
    const keys = ['job-a', 'job-b', 'job-c', 'job-d'];
    for (const key of keys) first.put(key, `${key}-1`);
    first.put('job-a', 'job-a-2');
    expect(journaled(dir)).toHaveLength(5);
    first.stop();

    const seen: string[] = [];
    const second = open(dir, async (event) => {
      seen.push(...decode(event));
    });
    await settled(second);
    expect(seen.sort()).toEqual(['job-a=job-a-1', 'job-a=job-a-2', 'job-b=job-b-1', 'job-c=job-c-1', 'job-d=job-d-1']);
    // In order per key, as they were put.
    expect(seen.indexOf('job-a=job-a-1')).toBeLessThan(seen.indexOf('job-a=job-a-2'));
  });

  it('empties a shard journal once every record put on it was processed', async () => {
    const dir = join(root, 'truncate');
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const stream = open(dir, () => gate);
    for (let i = 0; i < 20; i++) stream.put(`job-${i}`, `event-${i}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(journaled(dir)).toHaveLength(20); // handed to the handler, not yet processed: kept
    release();
    await settled(stream);
    expect(journaled(dir)).toEqual([]);

    const again = open(dir, async () => { throw new Error('nothing should be put again'); });
    expect(again.depth).toBe(0);
  });

  it('skips a torn last line and moves records of a shard the stream no longer has to their own', async () => {
    const dir = join(root, 'reshard');
    const journal = new StreamJournal(dir);
    journal.append('shardId-000000000007', { partitionKey: 'job-x', data: Buffer.from('x') });
    appendFileSync(join(dir, 'shardId-000000000007.jsonl'), '{"k":"job-y","d":');
    const seen: string[] = [];
    const stream = open(dir, async (event) => {
      seen.push(...decode(event));
    });
    expect(readdirSync(dir)).not.toContain('shardId-000000000007.jsonl');
    await settled(stream);
    expect(seen).toEqual(['job-x=x']);
  });
});
