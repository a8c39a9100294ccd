import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StreamFailure } from './shard-consumer.ts';
import type { ParkedEntry } from '../../shared/contract/dead-letters.ts';

// What the ingest stream gave up on, kept in `--data DIR/dead-letters` until it is written
// (issue 24: DynamoDB Local killed mid-burst lost 101 of 301 acknowledged observations, the
// ones the triage had parked in memory). A failed batch is written to a file before the
// stream's checkpoint moves past it (so before the stream journal forgets it), marked parked
// when the triage gives up, and deleted once its records are written or put back into the
// stream. At start, and when the database comes back, what is kept is put back into the stream:
// the writer drops what its log already holds, so that is exactly once in effect.

export interface KeptRecord {
  readonly partitionKey: string;
  readonly sequenceNumber: string;
  readonly data: Buffer;
}

export interface KeptFailure {
  readonly id: string;
  readonly shardId: string;
  readonly startSequenceNumber: string;
  readonly endSequenceNumber: string;
  readonly error: string;
  /** `triaging` while the triage works on it (or when a process died meanwhile); `parked` once it gave up. */
  readonly state: 'triaging' | 'parked';
  readonly records: readonly KeptRecord[];
  readonly parked: readonly ParkedEntry[];
}

interface FileBody extends Omit<KeptFailure, 'id' | 'records'> {
  readonly records: ReadonlyArray<{ readonly k: string; readonly s: string; readonly d: string }>;
}

const FILE = /^failed-(\d+)\.json$/;

export class DeadLetterFiles {
  readonly #directory: string;
  #next: number;

  constructor(directory: string) {
    this.#directory = directory;
    mkdirSync(directory, { recursive: true });
    this.#next = 1 + Math.max(0, ...this.#ids().map(Number));
  }

  /** Keeps a failed batch (synchronously: on disk before the stream moves past it); returns its id. */
  keep(failure: StreamFailure): string {
    const id = String(this.#next++).padStart(9, '0');
    this.#write(id, {
      shardId: failure.shardId, startSequenceNumber: failure.startSequenceNumber, endSequenceNumber: failure.endSequenceNumber,
      error: failure.error, state: 'triaging', parked: [],
      records: failure.records.map((r) => ({ k: r.partitionKey, s: r.sequenceNumber, d: r.data.toString('base64') })),
    });
    return id;
  }

  /** Marks a kept batch parked, with what the triage parked and why. */
  park(id: string, parked: readonly ParkedEntry[], error: string): void {
    const body = this.#read(id);
    if (body) this.#write(id, { ...body, state: 'parked', parked, error });
  }

  /** Forgets a batch whose records were written or put back. */
  settle(id: string): void {
    rmSync(this.#path(id), { force: true });
  }

  /** Every kept batch, oldest first. */
  all(): KeptFailure[] {
    return this.#ids().flatMap((id) => {
      const body = this.#read(id);
      if (!body) return [];
      const records = body.records.map((r) => ({ partitionKey: r.k, sequenceNumber: r.s, data: Buffer.from(r.d, 'base64') }));
      return [{ ...body, id, records }];
    });
  }

  #ids(): string[] {
    return readdirSync(this.#directory).flatMap((name) => FILE.exec(name)?.[1] ?? []).sort();
  }

  #path(id: string): string {
    return join(this.#directory, `failed-${id}.json`);
  }

  #read(id: string): FileBody | undefined {
    try {
      return JSON.parse(readFileSync(this.#path(id), 'utf8')) as FileBody;
    } catch {
      return undefined; // settled meanwhile
    }
  }

  /** Whole or not at all: a kill mid-write leaves the old file (or none), never half a file. */
  #write(id: string, body: FileBody): void {
    const path = this.#path(id);
    writeFileSync(`${path}.tmp`, JSON.stringify(body));
    renameSync(`${path}.tmp`, path);
  }
}
