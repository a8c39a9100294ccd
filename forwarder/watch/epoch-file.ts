import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.ts';

const EPOCH_FILE = 'last-epoch';

/** Where the sequencer keeps the last epoch it started (ObjectSequencer). */
export interface EpochStore {
  /** The last epoch started by any run of the forwarder on this spool directory (0: none). */
  readonly last: number;
  /** Records `epoch` as started; returns once it is on disk. */
  save(epoch: number): void;
}

/**
 * The last epoch kept beside the spool (docs/events.md, "Ordering"), so that a restart never
 * starts an epoch earlier than the last run's, whatever its clock says: a pod rescheduled to a
 * node whose clock is a minute slow would otherwise stamp every event "older" than the ones it
 * sent before, and a cluster without comparable resourceVersions would see them all dropped.
 * Written and fsynced, then renamed over, *before* an event of the new epoch is stamped: a
 * crash leaves the old value or the new one, never less than an epoch already sent.
 */
export class EpochFile implements EpochStore {
  readonly #path: string;
  #last: number;

  private constructor(path: string, last: number) {
    this.#path = path;
    this.#last = last;
  }

  static open(dir: string, log: Logger): EpochFile {
    const path = join(dir, EPOCH_FILE);
    let last = 0;
    try {
      const saved = Number(readFileSync(path, 'utf8').trim());
      if (Number.isSafeInteger(saved) && saved > 0) last = saved;
      else log.warn('last-epoch file unreadable; epochs start from the clock', { path });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn('last-epoch file unreadable; epochs start from the clock', { path, error });
    }
    return new EpochFile(path, last);
  }

  get last(): number {
    return this.#last;
  }

  save(epoch: number): void {
    const temporary = `${this.#path}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeSync(fd, `${epoch}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.#path);
    this.#last = epoch;
  }
}
