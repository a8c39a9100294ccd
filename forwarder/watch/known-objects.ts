import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.ts';
import type { Logger } from '../log.ts';
import { observationsIn, type ObjectIdentity, type OutgoingEvent } from '../observation.ts';

const KNOWN_FILE = 'known-objects.json';

/**
 * The objects the service has been told exist (an Observed event is durable) and not yet told
 * are gone, saved next to the spool. After a restart, the first list of each kind is compared
 * with it: whatever it names that the list lacks was deleted while the forwarder was down, and
 * is reported deleted. It is updated only from durable events, so a crash never makes it claim
 * the service knows something it was not told.
 */
export class KnownObjects {
  readonly #path: string;
  readonly #log: Logger;
  readonly #objects: Map<string, ObjectIdentity>;
  #dirty = false;
  #writing: Promise<void> = Promise.resolve();

  private constructor(path: string, log: Logger, objects: Map<string, ObjectIdentity>) {
    this.#path = path;
    this.#log = log;
    this.#objects = objects;
  }

  static async load(dir: string, log: Logger): Promise<KnownObjects> {
    const path = join(dir, KNOWN_FILE);
    const objects = new Map<string, ObjectIdentity>();
    try {
      const saved = JSON.parse(await readFile(path, 'utf8')) as { objects?: ObjectIdentity[] };
      for (const identity of saved.objects ?? []) objects.set(identity.uid, identity);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn('known objects file unreadable; starting without it', { path, error });
    }
    return new KnownObjects(path, log, objects);
  }

  /** Every remembered object. */
  list(): ObjectIdentity[] {
    return [...this.#objects.values()];
  }

  /** Records durable events, in order. */
  apply(events: readonly OutgoingEvent[]): void {
    for (const event of events.flatMap(observationsIn)) {
      if (event.deleted) this.#objects.delete(event.subject.uid);
      else this.#objects.set(event.subject.uid, event.subject);
    }
    if (events.length > 0) this.#dirty = true;
  }

  /** Writes the file if anything changed since the last flush. */
  flush(): Promise<void> {
    if (!this.#dirty) return this.#writing;
    this.#dirty = false;
    const text = JSON.stringify({ objects: this.list() });
    this.#writing = this.#writing
      .then(() => writeFileAtomic(this.#path, text))
      .catch((error: unknown) => {
        this.#dirty = true;
        this.#log.error('could not save the known objects file', { path: this.#path, error });
      });
    return this.#writing;
  }
}
