import type { ObjectSequence } from '../../shared/k8s/object-sequence.ts';
import type { WatchedKind } from '../observation.ts';
import type { EpochStore } from './epoch-file.ts';

/**
 * Stamps each event with its place among the events of the same object (docs/events.md,
 * "Ordering"): `epoch` is the start time of the kind's latest list, strictly increasing even if
 * the clock stalls or steps back; `seq` counts the events sent for one uid. A relist starts a
 * new epoch, because a list shows every object as it is now, newer than anything sent before.
 *
 * Pods also carry `jobSeq`, the count of pod events sent for the pod's Job within the pod
 * epoch, and a JobSet's child Jobs `jobSetSeq`, the count of Job events sent for the JobSet
 * within the Job epoch: one count, kept per owner (OWNER_COUNT). Only events actually sent
 * count (`sentForOwner`), so the numbers an owner's events carry are contiguous, and a relist
 * of the counted kind starts them again at 1.
 *
 * Counters live as long as the process. After a restart the first list starts a later epoch, so
 * the counters may begin again at 1 without ever ordering a new event before an old one: the
 * last epoch is kept beside the spool (epoch-file.ts), so a restart on a clock that is behind
 * the last run's still starts a later one.
 */
export class ObjectSequencer {
  readonly #now: () => number;
  readonly #epochs = new Map<WatchedKind, number>();
  readonly #counts = new Map<string, number>();
  /** Events sent per owner uid in the current epoch of the counted kind (Pod: per Job; Job: per JobSet). */
  readonly #ownerCounts = new Map<WatchedKind, Map<string, number>>([['Pod', new Map()], ['Job', new Map()]]);
  readonly #store: EpochStore | undefined;
  #lastEpoch: number;

  constructor(now: () => number, store?: EpochStore) {
    this.#now = now;
    this.#store = store;
    this.#lastEpoch = store?.last ?? 0;
  }

  /** A list of `kind` starts: events from now on belong to a new epoch. */
  relisted(kind: WatchedKind): void {
    const epoch = Math.max(this.#now(), this.#lastEpoch + 1);
    this.#store?.save(epoch); // before any event carries it
    this.#lastEpoch = epoch;
    this.#epochs.set(kind, epoch);
    this.#ownerCounts.get(kind)?.clear();
  }

  /**
   * The stamp the next event about `uid` would carry; `commit` makes it taken. A pod's event
   * (`owner`: its Job's uid) also gets the Job's next count, a child Job's (`owner`: its
   * JobSet's uid) the JobSet's next count; `sentForOwner` takes it.
   */
  peek(kind: WatchedKind, uid: string, owner?: string): ObjectSequence {
    if (!this.#epochs.has(kind)) this.relisted(kind);
    const stamp = { epoch: this.#epochs.get(kind) as number, seq: (this.#counts.get(uid) ?? 0) + 1 };
    if (owner === undefined) return stamp;
    return { ...stamp, [OWNER_COUNT[kind]]: (this.#ownerCounts.get(kind)?.get(owner) ?? 0) + 1 };
  }

  commit(uid: string, sequence: ObjectSequence): void {
    this.#counts.set(uid, sequence.seq);
  }

  /** An event of `kind` stamped with its owner's count (peek) for `owner` was sent. */
  sentForOwner(kind: WatchedKind, owner: string, sequence: ObjectSequence): void {
    const count = sequence[OWNER_COUNT[kind]];
    if (count !== undefined) this.#ownerCounts.get(kind)?.set(owner, count);
  }

  /**
   * A Job is gone: its pod count is no longer needed. (A pod event of it sent later starts
   * again at 1; a deleted Job decides nothing, so its log never waits on them.) A JobSet's
   * count is kept until the next list of Jobs: the forwarder does not watch JobSets, so it
   * never sees one go, and a JobSet whose child Jobs are all deleted (a restart) must not
   * start again at 1 (one number per JobSet seen since that list).
   */
  forgetJob(job: string): void {
    this.#ownerCounts.get('Pod')?.delete(job);
  }

  /** An object is gone for good: its counter is no longer needed. */
  forget(uid: string): void {
    this.#counts.delete(uid);
  }
}

/** The stamp field that carries the per-owner count of each kind's events (a pod's Job, a Job's JobSet). */
const OWNER_COUNT = { Pod: 'jobSeq', Job: 'jobSetSeq' } as const satisfies Record<WatchedKind, keyof ObjectSequence>;
