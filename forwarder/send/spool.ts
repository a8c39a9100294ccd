import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import type { OutgoingEvent } from '../observation.ts';
import { writeCursor, type SpoolCursor } from './spool-cursor.ts';
import { parseLine, readRange, recoverSegments, segmentName } from './spool-files.ts';

/** Enough for a full batch (10 entries of at most 256 KiB) in one read. */
const READ_BYTES = 4 * 1024 * 1024;

export interface SpoolOptions {
  readonly dir: string;
  /** Bound on the bytes waiting in the spool; appends beyond it are returned as overflow. */
  readonly maxBytes: number;
  /** Segments rotate at this size, so replayed segments can be deleted. */
  readonly segmentBytes?: number;
  readonly log: Logger;
}

export interface SpooledRecord {
  readonly event: OutgoingEvent;
  readonly bytes: number;
  readonly segment: number;
}

/**
 * A bounded, append-only on-disk FIFO of events: JSON lines in numbered segment files, each
 * append written and fsync'd before it resolves, and a cursor file (replaced atomically)
 * saying how far replay got. Replay is at-least-once: a crash between sending and moving the
 * cursor resends a batch, which the stable eventIds make harmless. All operations run one at
 * a time, in call order.
 */
export class Spool {
  readonly #options: SpoolOptions;
  readonly #segmentBytes: number;
  /** Segment ids, oldest first, with their sizes. */
  readonly #sizes = new Map<number, number>();
  #cursor: SpoolCursor;
  #count: number;
  #writer: { id: number; handle: FileHandle } | undefined;
  #chain: Promise<unknown> = Promise.resolve();

  private constructor(options: SpoolOptions, cursor: SpoolCursor, sizes: Map<number, number>, count: number) {
    this.#options = options;
    this.#segmentBytes = options.segmentBytes ?? Math.max(64 * 1024, Math.min(8 * 1024 * 1024, Math.floor(options.maxBytes / 8)));
    this.#cursor = cursor;
    this.#sizes = sizes;
    this.#count = count;
  }

  /** Opens (or creates) the spool in `dir`, dropping a torn last line left by a crash. */
  static async open(options: SpoolOptions): Promise<Spool> {
    const { cursor, sizes, count } = await recoverSegments(options.dir, options.log);
    return new Spool(options, cursor, sizes, count);
  }

  get count(): number {
    return this.#count;
  }

  /** Bytes appended and not yet replayed. */
  get bytes(): number {
    let total = 0;
    for (const size of this.#sizes.values()) total += size;
    return total - (this.#sizes.has(this.#cursor.segment) ? this.#cursor.offset : 0);
  }

  isEmpty(): boolean {
    return this.#count === 0;
  }

  /**
   * Appends events in order and fsyncs. Once one does not fit under maxBytes, it and every
   * later one come back as `overflow` (never half of a batch out of order).
   */
  append(events: readonly OutgoingEvent[]): Promise<{ spooled: OutgoingEvent[]; overflow: OutgoingEvent[] }> {
    return this.#serial(async () => {
      const spooled: OutgoingEvent[] = [];
      let pendingBytes = 0;
      const lines: string[] = [];
      for (const event of events) {
        const line = `${JSON.stringify(event)}\n`;
        const size = Buffer.byteLength(line);
        if (this.bytes + pendingBytes + size > this.#options.maxBytes) break;
        lines.push(line);
        pendingBytes += size;
        spooled.push(event);
      }
      for (const line of lines) await this.#write(line);
      if (this.#writer) await this.#writer.handle.sync();
      this.#count += spooled.length;
      return { spooled, overflow: events.slice(spooled.length) };
    });
  }

  /** Up to `max` events from the head, without removing them. */
  peek(max: number): Promise<SpooledRecord[]> {
    return this.#serial(async () => {
      const records: SpooledRecord[] = [];
      let { segment, offset } = this.#cursor;
      while (records.length < max) {
        const size = this.#sizes.get(segment);
        if (size === undefined) break;
        if (offset >= size) {
          const next = this.#nextSegment(segment);
          if (next === undefined) break;
          [segment, offset] = [next, 0];
          continue;
        }
        const text = await readRange(join(this.#options.dir, segmentName(segment)), offset, Math.min(READ_BYTES, size - offset));
        let at = 0;
        for (let end = text.indexOf('\n'); end >= 0 && records.length < max; end = text.indexOf('\n', at)) {
          const line = text.slice(at, end + 1);
          const bytes = Buffer.byteLength(line);
          at = end + 1;
          const event = parseLine(line);
          if (event) records.push({ event, bytes, segment });
          else if (records.length === 0) await this.#skipCorrupt(segment, offset, bytes);
          else return records;
          offset += bytes;
        }
        if (at === 0) break;
      }
      return records;
    });
  }

  /** Removes replayed records from the head (they must be what `peek` returned, in order). */
  commit(records: readonly SpooledRecord[]): Promise<void> {
    return this.#serial(async () => {
      for (const record of records) {
        if (record.segment !== this.#cursor.segment) await this.#advanceTo(record.segment);
        this.#cursor = { segment: this.#cursor.segment, offset: this.#cursor.offset + record.bytes };
      }
      this.#count -= records.length;
      await writeCursor(this.#options.dir, this.#cursor);
      const next = this.#nextSegment(this.#cursor.segment);
      if (next !== undefined && this.#cursor.offset >= (this.#sizes.get(this.#cursor.segment) ?? 0)) await this.#advanceTo(next);
    });
  }

  close(): Promise<void> {
    return this.#serial(async () => {
      await this.#writer?.handle.close();
      this.#writer = undefined;
    });
  }

  async #write(line: string): Promise<void> {
    const size = Buffer.byteLength(line);
    const last = [...this.#sizes.keys()].at(-1);
    const lastSize = last === undefined ? 0 : (this.#sizes.get(last) ?? 0);
    if (last === undefined || (lastSize > 0 && lastSize + size > this.#segmentBytes)) {
      const id = last === undefined ? this.#cursor.segment : last + 1;
      await this.#writer?.handle.sync();
      await this.#writer?.handle.close();
      this.#writer = { id, handle: await open(join(this.#options.dir, segmentName(id)), 'a') };
      this.#sizes.set(id, 0);
    } else if (!this.#writer || this.#writer.id !== last) {
      this.#writer = { id: last, handle: await open(join(this.#options.dir, segmentName(last)), 'a') };
    }
    await this.#writer.handle.write(line);
    this.#sizes.set(this.#writer.id, (this.#sizes.get(this.#writer.id) ?? 0) + size);
  }

  #nextSegment(after: number): number | undefined {
    return [...this.#sizes.keys()].find((id) => id > after);
  }

  /** Moves the cursor to the start of segment `id`, deleting the replayed ones before it. */
  async #advanceTo(id: number): Promise<void> {
    const done = [...this.#sizes.keys()].filter((s) => s < id);
    this.#cursor = { segment: id, offset: 0 };
    await writeCursor(this.#options.dir, this.#cursor);
    for (const segment of done) {
      this.#sizes.delete(segment);
      if (this.#writer?.id === segment) {
        await this.#writer.handle.close();
        this.#writer = undefined;
      }
      await rm(join(this.#options.dir, segmentName(segment)), { force: true });
    }
  }

  /** A line that does not parse (never written whole): skipped, and said so. */
  async #skipCorrupt(segment: number, offset: number, bytes: number): Promise<void> {
    this.#options.log.error('spool: skipping an unreadable line', { segment, offset, bytes });
    if (segment !== this.#cursor.segment) await this.#advanceTo(segment);
    this.#cursor = { segment, offset: offset + bytes };
    this.#count--;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(task, task);
    this.#chain = run.catch(() => undefined);
    return run;
  }
}
