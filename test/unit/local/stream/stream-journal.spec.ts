import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KinesisStreamEvent } from 'aws-lambda';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalStream, type StreamTuning } from '../../../../local/stream/local-stream.ts';
import { StreamJournal } from '../../../../local/stream/stream-journal.ts';

// The ingest stream's journal (`npm start -- --data DIR`): given records put on a journaled
// stream, when the process stops before they were processed, then a stream opened on the same
// journal puts them again; as a shard's checkpoint advances its processed segments are deleted,
// so the journal stays bounded under constant load, and it is empty once everything was processed.

const FAST: Partial<StreamTuning> = { shards: 2, batchWindowMs: 5, retryBaseMs: 1, retryMaxMs: 5, maxRetryAttempts: 3 };
const root = mkdtempSync(join(tmpdir(), 'jobfold-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const streams: LocalStream[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.stop();
});

function open(
  dir: string, handler: (event: KinesisStreamEvent) => Promise<void>, tuning: Partial<StreamTuning> = {}, segmentRecords?: number,
): LocalStream {
  const stream = new LocalStream('test', handler, { ...FAST, ...tuning }, new StreamJournal(dir, segmentRecords));
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

  it('reads the one-file journal of an earlier version, skips a torn last line and moves records to the shard their key hashes to', async () => {
    const dir = join(root, 'reshard');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'shardId-000000000007.jsonl'), `${JSON.stringify({ k: 'job-x', d: Buffer.from('x').toString('base64') })}\n{"k":"job-y","d":`);
    const seen: string[] = [];
    const stream = open(dir, async (event) => {
      seen.push(...decode(event));
    });
    expect(readdirSync(dir)).not.toContain('shardId-000000000007.jsonl');
    expect(journaled(dir)).toHaveLength(1); // journaled again, under its own shard
    await settled(stream);
    expect(seen).toEqual(['job-x=x']);
  });

  it('stays bounded under constant load: segments wholly before the checkpoint are deleted while the shard never goes idle', async () => {
    const dir = join(root, 'constant');
    const segment = 50;
    let processed = 0;
    const stream = open(dir, async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      processed += event.Records.length;
    }, { shards: 1, parallelizationFactor: 1, batchSize: 40, batchWindowMs: 1 }, segment);
    const total = 4000;
    let sawIdle = false;
    let most = 0;
    for (let i = 0; i < total; i++) {
      stream.put(`job-${i % 7}`, `event-${i}`);
      if (i % 20 !== 19) continue;
      await new Promise((resolve) => setTimeout(resolve, 1));
      sawIdle ||= stream.idle;
      const lines = journaled(dir).length;
      most = Math.max(most, lines);
      // Kept: the records not yet processed, plus the processed part of the oldest segment.
      expect(lines).toBeLessThanOrEqual(stream.depth + segment);
    }
    expect(sawIdle).toBe(false); // the old journal, emptied only when a shard went idle, would hold all 4,000
    expect(processed).toBeGreaterThan(total / 2);
    expect(most).toBeLessThan(total / 4);
    await settled(stream);
    expect(journaled(dir)).toEqual([]);
  });

  it('after a kill under load puts again every record not yet processed, and at most one segment more', async () => {
    const dir = join(root, 'kill-under-load');
    const segment = 25;
    const processed = new Set<string>();
    let open_ = true;
    const first = open(dir, async (event) => {
      if (!open_) return new Promise<void>(() => {}); // the kill: this batch never finishes
      for (const line of decode(event)) processed.add(line);
    }, { shards: 1, parallelizationFactor: 1, batchSize: 10, batchWindowMs: 1 }, segment);
    const put: string[] = [];
    for (let i = 0; i < 400; i++) {
      first.put(`job-${i % 3}`, `event-${i}`);
      put.push(`job-${i % 3}=event-${i}`);
      if (i === 300) open_ = false;
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    first.stop();

    const replayed: string[] = [];
    const second = open(dir, async (event) => {
      replayed.push(...decode(event));
    });
    await settled(second);
    const unprocessed = put.filter((line) => !processed.has(line));
    expect(unprocessed.length).toBeGreaterThan(90);
    expect(replayed).toEqual(expect.arrayContaining(unprocessed));
    expect(replayed.length).toBeLessThanOrEqual(unprocessed.length + segment);
    expect(journaled(dir)).toEqual([]);
  });
});
