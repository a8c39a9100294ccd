import type { ObjectSequence } from '../../shared/k8s/object-sequence.ts';
import type { WatchedKind } from '../observation.ts';

/**
 * Stamps each event with its place among the events of the same object (docs/events.md,
 * "Ordering"): `epoch` is the start time of the kind's latest list, strictly increasing even if
 * the clock stalls or steps back; `seq` counts the events sent for one uid. A relist starts a
 * new epoch, because a list shows every object as it is now, newer than anything sent before.
 *
 * Counters live as long as the process. After a restart the first list starts a later epoch, so
 * the counters may begin again at 1 without ever ordering a new event before an old one (as
 * long as the forwarder's clock does not go back across the restart).
 */
export class ObjectSequencer {
  readonly #now: () => number;
  readonly #epochs = new Map<WatchedKind, number>();
  readonly #counts = new Map<string, number>();
  #lastEpoch = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** A list of `kind` starts: events from now on belong to a new epoch. */
  relisted(kind: WatchedKind): void {
    const epoch = Math.max(this.#now(), this.#lastEpoch + 1);
    this.#lastEpoch = epoch;
    this.#epochs.set(kind, epoch);
  }

  /** The stamp the next event about `uid` would carry; `commit` makes it taken. */
  peek(kind: WatchedKind, uid: string): ObjectSequence {
    if (!this.#epochs.has(kind)) this.relisted(kind);
    return { epoch: this.#epochs.get(kind) as number, seq: (this.#counts.get(uid) ?? 0) + 1 };
  }

  commit(uid: string, sequence: ObjectSequence): void {
    this.#counts.set(uid, sequence.seq);
  }

  /** An object is gone for good: its counter is no longer needed. */
  forget(uid: string): void {
    this.#counts.delete(uid);
  }
}
