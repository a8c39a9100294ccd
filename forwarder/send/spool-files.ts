import { mkdir, open, readdir, readFile, rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log.ts';
import type { OutgoingEvent } from '../observation.ts';
import { readCursor, type SpoolCursor } from './spool-cursor.ts';

const SEGMENT = /^segment-(\d{12})\.jsonl$/;
const NEWLINE = 0x0a;

export const segmentName = (id: number) => `segment-${String(id).padStart(12, '0')}.jsonl`;

/** What a spool directory holds after a restart. */
export interface RecoveredSpool {
  readonly cursor: SpoolCursor;
  /** Segment ids, oldest first, with their sizes in bytes. */
  readonly sizes: Map<number, number>;
  /** Events not yet replayed. */
  readonly count: number;
}

/**
 * Reads a spool directory (creating it if needed):
 * 1. deletes segments before the saved cursor (replayed, but not yet removed by a crash);
 * 2. truncates a torn last line, left by a crash in the middle of an append;
 * 3. counts the events after the cursor.
 * A cursor pointing at a missing segment means files were removed: replay starts at the
 * oldest segment left.
 */
export async function recoverSegments(dir: string, log: Logger): Promise<RecoveredSpool> {
  await mkdir(dir, { recursive: true });
  const found = (await readdir(dir)).flatMap((f) => SEGMENT.exec(f)?.[1] ?? []).map(Number).sort((a, b) => a - b);
  const saved = await readCursor(dir);
  for (const id of found.filter((id) => id < saved.segment)) await rm(join(dir, segmentName(id)), { force: true });
  const ids = found.filter((id) => id >= saved.segment);
  let cursor: SpoolCursor = ids[0] === saved.segment ? saved : { segment: ids[0] ?? saved.segment, offset: 0 };
  const sizes = new Map<number, number>();
  let count = 0;
  for (const id of ids) {
    const path = join(dir, segmentName(id));
    const bytes = await readFile(path);
    const complete = bytes.lastIndexOf(NEWLINE) + 1;
    if (complete < bytes.length) {
      log.warn('spool: dropping a torn last line left by a crash', { segment: id, bytes: bytes.length - complete });
      await truncate(path, complete);
    }
    if (id === cursor.segment && cursor.offset > complete) cursor = { segment: id, offset: complete };
    count += countLines(bytes, id === cursor.segment ? cursor.offset : 0, complete);
    sizes.set(id, complete);
  }
  return { cursor, sizes, count };
}

/** One spooled line back as an event; undefined for a line that was never written whole. */
export function parseLine(line: string): OutgoingEvent | undefined {
  try {
    const value = JSON.parse(line) as OutgoingEvent;
    return typeof value?.detail === 'string' && typeof value.source === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

function countLines(bytes: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = bytes.indexOf(NEWLINE, from); i >= 0 && i < to; i = bytes.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/** Up to `length` bytes of a file from `offset`, as UTF-8. */
export async function readRange(path: string, offset: number, length: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
