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
 * epoch: only events actually sent count (`sentForJob`), so the numbers a Job's log receives are
 * contiguous, and a relist of pods starts them again at 1.
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
  /** Pod events sent per Job uid in the current pod epoch. */
  readonly #jobCounts = new Map<string, number>();
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
    if (kind === 'Pod') this.#jobCounts.clear();
  }

  /**
   * The stamp the next event about `uid` would carry; `commit` makes it taken. A pod's event
   * (`job`: its Job's uid) also gets the Job's next count, which `sentForJob` takes.
   */
  peek(kind: WatchedKind, uid: string, job?: string): ObjectSequence {
    if (!this.#epochs.has(kind)) this.relisted(kind);
    const stamp = { epoch: this.#epochs.get(kind) as number, seq: (this.#counts.get(uid) ?? 0) + 1 };
    return kind === 'Pod' && job !== undefined ? { ...stamp, jobSeq: (this.#jobCounts.get(job) ?? 0) + 1 } : stamp;
  }

  commit(uid: string, sequence: ObjectSequence): void {
    this.#counts.set(uid, sequence.seq);
  }

  /** A pod event stamped with `sequence.jobSeq` for `job` was sent. */
  sentForJob(job: string, sequence: ObjectSequence): void {
    if (sequence.jobSeq !== undefined) this.#jobCounts.set(job, sequence.jobSeq);
  }

  /**
   * A Job is gone: its pod count is no longer needed. (A pod event of it sent later starts
   * again at 1; a deleted Job decides nothing, so its log never waits on them.)
   */
  forgetJob(job: string): void {
    this.#jobCounts.delete(job);
  }

  /** An object is gone for good: its counter is no longer needed. */
  forget(uid: string): void {
    this.#counts.delete(uid);
  }
}
