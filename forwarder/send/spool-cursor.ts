import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.ts';

/** How far replay got: the segment being replayed and the byte offset of its next line. */
export interface SpoolCursor {
  readonly segment: number;
  readonly offset: number;
}

const CURSOR_FILE = 'cursor.json';

/** The saved cursor, or the start of segment 1 for a new (or unreadable) spool. */
export async function readCursor(dir: string): Promise<SpoolCursor> {
  try {
    const value = JSON.parse(await readFile(join(dir, CURSOR_FILE), 'utf8')) as Partial<SpoolCursor>;
    if (Number.isSafeInteger(value.segment) && Number.isSafeInteger(value.offset)) {
      return { segment: value.segment as number, offset: value.offset as number };
    }
  } catch {
    // No cursor yet: nothing was replayed.
  }
  return { segment: 1, offset: 0 };
}

export function writeCursor(dir: string, cursor: SpoolCursor): Promise<void> {
  return writeFileAtomic(join(dir, CURSOR_FILE), JSON.stringify(cursor));
}
