import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// With `npm start -- --data DIR`, which traces were fed into DIR's database, so that a restart
// on the same DIR does not feed the sample fleet (or a --replay file) a second time. A trace is
// known by its bytes (SHA-256), not its path. It is recorded `feeding` before its first event
// and `fed` once the system went quiet after its last one: a stack stopped or killed in between
// feeds it again from the start on the next run, and ingest drops what is already stored
// (eventIds are idempotency keys), so nothing is lost and nothing is decided twice.

export type FeedState = 'feeding' | 'fed';

interface FeedEntry {
  readonly file: string;
  readonly state: FeedState;
  readonly at: string;
}

/** The file in DIR that holds the records, next to DynamoDB Local's own files. */
export const FEED_RECORD_FILE = 'jobfold-fed-traces.json';

export class FeedRecord {
  readonly #path: string;

  constructor(dataDir: string) {
    this.#path = join(dataDir, FEED_RECORD_FILE);
  }

  /** The trace's state in this directory, or undefined when it was never fed here. */
  stateOf(traceFile: string): FeedState | undefined {
    return this.#read()[traceDigest(traceFile)]?.state;
  }

  mark(traceFile: string, state: FeedState, now: string): void {
    const records = { ...this.#read(), [traceDigest(traceFile)]: { file: traceFile, state, at: now } };
    // Written aside and renamed: a kill mid-write leaves the old record, never half a file.
    const temporary = `${this.#path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(records, null, 2)}\n`);
    renameSync(temporary, this.#path);
  }

  #read(): Record<string, FeedEntry> {
    let text: string;
    try {
      text = readFileSync(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      return JSON.parse(text) as Record<string, FeedEntry>;
    } catch (error) {
      throw new Error(`${this.#path}: not the JSON jobfold wrote (${(error as Error).message}); remove it to feed the traces again`);
    }
  }
}

function traceDigest(traceFile: string): string {
  return createHash('sha256').update(readFileSync(traceFile)).digest('hex');
}
