import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// What Kinesis keeps and an in-memory stream loses on a process kill: records put (PutRecord
// acknowledged) but not yet processed. With `npm start -- --data DIR` the local stream appends
// every record to its shard's journal (DIR/stream/<stream>/<shardId>.jsonl, one JSON line
// each) before it acknowledges the put, and at start puts the whole journal again. Re-putting
// records already processed is harmless: the writer drops what its fold already holds
// (shared/app/write/known-observation.ts: same eventId, stale stamp, Tick at or before the last,
// so a timer record put again is an 'old-tick'), and a JobSet's log and the related entries are
// appended with the eventId as idempotency key (EventStore.append skips those it holds).
//
// Bounded: a shard's journal is emptied when the shard is idle, i.e. every record put on it has
// been processed (checkpointed, or given up on and moved to the on-failure list, which is not
// kept across runs). appendFileSync is written through to the OS before put returns, which is
// enough for a process kill (not for a power loss).

export interface JournaledRecord {
  readonly partitionKey: string;
  readonly data: Buffer;
}

interface Line {
  readonly k: string;
  readonly d: string;
}

export class StreamJournal {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
    mkdirSync(directory, { recursive: true });
  }

  /** Appends one record to `shardId`'s journal; returns once the OS has it. */
  append(shardId: string, record: JournaledRecord): void {
    const line: Line = { k: record.partitionKey, d: record.data.toString('base64') };
    appendFileSync(this.#file(shardId), `${JSON.stringify(line)}\n`);
  }

  /** Every shard's journaled records, by shard, oldest first. A torn last line (cut mid-write) is skipped. */
  read(): Map<string, JournaledRecord[]> {
    const shards = new Map<string, JournaledRecord[]>();
    for (const name of readdirSync(this.directory).filter((n) => n.endsWith('.jsonl')).sort()) {
      const records: JournaledRecord[] = [];
      for (const text of readFileSync(join(this.directory, name), 'utf8').split('\n')) {
        const line = parseLine(text);
        if (line) records.push({ partitionKey: line.k, data: Buffer.from(line.d, 'base64') });
      }
      shards.set(name.slice(0, -'.jsonl'.length), records);
    }
    return shards;
  }

  /** Empties `shardId`'s journal: every record put on it was processed. */
  truncate(shardId: string): void {
    const file = this.#file(shardId);
    if (existsSync(file)) writeFileSync(file, '');
  }

  /** Removes `shardId`'s journal (a shard the stream no longer has). */
  remove(shardId: string): void {
    rmSync(this.#file(shardId), { force: true });
  }

  #file(shardId: string): string {
    return join(this.directory, `${shardId}.jsonl`);
  }
}

function parseLine(text: string): Line | undefined {
  if (text.trim() === '') return undefined;
  try {
    const line = JSON.parse(text) as Partial<Line>;
    return typeof line.k === 'string' && typeof line.d === 'string' ? { k: line.k, d: line.d } : undefined;
  } catch {
    return undefined;
  }
}
