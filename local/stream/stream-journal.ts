import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// What Kinesis keeps and an in-memory stream loses on a process kill: records put (PutRecord
// acknowledged) but not yet processed. With `npm start -- --data DIR` the local stream appends
// every record to its shard's journal before it acknowledges the put, and at start puts every
// journaled record again. Re-putting records already processed is harmless: the writer drops
// what its fold already holds (shared/job/known-observation.ts: same eventId, stale stamp,
// Tick at or before the last, so a timer record put again is an 'old-tick'), and a JobSet's log
// and the related entries are appended with the eventId as idempotency key.
//
// Bounded under constant load: a shard's journal is a run of segments
// (DIR/stream/<stream>/<shardId>.<segment>.jsonl, one JSON line per record, at most
// `segmentRecords` records each). As the shard's checkpoint advances (every record before it
// processed: checkpointed, or given up on and moved to the on-failure list, which is not kept
// across runs), each segment wholly below it is deleted. So the journal holds the shard's
// backlog plus at most one partly processed segment, whether or not the shard ever goes idle.
// appendFileSync is written through to the OS before put returns, which is enough for a
// process kill (not for a power loss). A kill between deleting segments loses nothing: only
// processed records are ever deleted.

export interface JournaledRecord {
  readonly partitionKey: string;
  readonly data: Buffer;
}

/** Records per segment file: small enough to be deleted soon, large enough to rotate rarely. */
export const DEFAULT_SEGMENT_RECORDS = 2000;

interface Line {
  readonly k: string;
  readonly d: string;
}

/** A segment of this run: its file and the shard positions it holds. */
interface Segment {
  readonly file: string;
  readonly first: number;
  last: number;
}

/** `<shardId>.<segment>.jsonl`, or `<shardId>.jsonl` (one file per shard, written before segments). */
const FILE_NAME = /^(.+?)(?:\.(\d+))?\.jsonl$/;

export class StreamJournal {
  readonly directory: string;
  readonly #segmentRecords: number;
  /** This run's segments of each shard, oldest first. */
  readonly #segments = new Map<string, Segment[]>();
  #nextSegment: number;

  constructor(directory: string, segmentRecords = DEFAULT_SEGMENT_RECORDS) {
    this.directory = directory;
    this.#segmentRecords = segmentRecords;
    mkdirSync(directory, { recursive: true });
    this.#nextSegment = 1 + Math.max(0, ...this.#files().map((f) => f.segment));
  }

  /** Appends the record at `position` (the shard's count of records put, increasing); returns once the OS has it. */
  append(shardId: string, position: number, record: JournaledRecord): void {
    const segments = this.#segments.get(shardId) ?? [];
    this.#segments.set(shardId, segments);
    let current = segments.at(-1);
    if (current === undefined || current.last - current.first + 1 >= this.#segmentRecords) {
      current = { file: `${shardId}.${String(this.#nextSegment++).padStart(12, '0')}.jsonl`, first: position, last: position - 1 };
      segments.push(current);
    }
    const line: Line = { k: record.partitionKey, d: record.data.toString('base64') };
    appendFileSync(join(this.directory, current.file), `${JSON.stringify(line)}\n`);
    current.last = position;
  }

  /** Deletes `shardId`'s segments whose every record is before `checkpoint` (all processed). */
  release(shardId: string, checkpoint: number): void {
    const segments = this.#segments.get(shardId) ?? [];
    while (segments.length > 0 && (segments[0] as Segment).last < checkpoint) {
      rmSync(join(this.directory, (segments.shift() as Segment).file), { force: true });
    }
  }

  /** Segment files on disk now (for tests and figures). */
  segmentFiles(): string[] {
    return this.#files().map((f) => f.name);
  }

  /**
   * What an earlier run left: every journaled record by shard, oldest first (a torn last line,
   * cut mid-write, is skipped). Call `discard()` once they were put (and journaled) again.
   */
  takeOver(): { readonly shards: Map<string, JournaledRecord[]>; discard(): void } {
    const files = this.#files();
    const shards = new Map<string, JournaledRecord[]>();
    for (const file of files) {
      const records = shards.get(file.shardId) ?? [];
      for (const text of readFileSync(join(this.directory, file.name), 'utf8').split('\n')) {
        const line = parseLine(text);
        if (line) records.push({ partitionKey: line.k, data: Buffer.from(line.d, 'base64') });
      }
      shards.set(file.shardId, records);
    }
    return { shards, discard: () => files.forEach((f) => rmSync(join(this.directory, f.name), { force: true })) };
  }

  /** Journal files by shard, oldest first (a shard's single file of the older format before its segments). */
  #files(): Array<{ name: string; shardId: string; segment: number }> {
    return readdirSync(this.directory).flatMap((name) => {
      const match = FILE_NAME.exec(name);
      return match ? [{ name, shardId: match[1] as string, segment: match[2] === undefined ? 0 : Number(match[2]) }] : [];
    }).sort((a, b) => (a.shardId === b.shardId ? a.segment - b.segment : a.shardId < b.shardId ? -1 : 1));
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
