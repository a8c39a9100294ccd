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
 * count (`sent`), so the numbers an owner's events carry are contiguous, and a relist
 * of the counted kind starts them again at 1.
 *
 * Each Job event also carries `jobEvents`, its own place among the events of its Job sent within
 * the Job epoch, and each pod event the same count as it stands when the pod event is sent
 * (`jobEvents`, with the Job epoch it belongs to, `jobEpoch`): how many events of the pod's Job
 * were sent before it. By the same rules: watch events only, counted only when sent, a relist of
 * Jobs starts it again at 1 (a pod event names none until the Job's next event is sent).
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
  /** Events sent per Job uid in the current Job epoch. */
  readonly #jobEvents = new Map<string, number>();
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
    if (kind === 'Job') this.#jobEvents.clear();
  }

  /**
   * The stamp the next event about `uid` would carry; `commit` makes it taken. An event the
   * watch delivered (`watched`; not one a list shows) is counted: a pod's (`owner`: its Job's
   * uid) gets the Job's next pod count and the count of its Job's events sent so far, a Job's
   * its own next count among its Job's events, and a child Job's (`owner`: its JobSet's uid)
   * the JobSet's next count too; `sent` takes them.
   */
  peek(kind: WatchedKind, uid: string, watched?: { readonly owner: string | undefined }): ObjectSequence {
    if (!this.#epochs.has(kind)) this.relisted(kind);
    const stamp: ObjectSequence = { epoch: this.#epochs.get(kind) as number, seq: (this.#counts.get(uid) ?? 0) + 1 };
    if (watched === undefined) return stamp;
    const { owner } = watched;
    const counted = owner === undefined ? stamp : { ...stamp, [OWNER_COUNT[kind]]: (this.#ownerCounts.get(kind)?.get(owner) ?? 0) + 1 };
    if (kind === 'Job') return { ...counted, jobEvents: (this.#jobEvents.get(uid) ?? 0) + 1 };
    const jobEvents = owner === undefined ? undefined : this.#jobEvents.get(owner);
    const jobEpoch = this.#epochs.get('Job');
    return jobEvents === undefined || jobEpoch === undefined ? counted : { ...counted, jobEvents, jobEpoch };
  }

  commit(uid: string, sequence: ObjectSequence): void {
    this.#counts.set(uid, sequence.seq);
  }

  /** A counted event (peek's `watched`) of `kind` about `uid`, owned by `owner`, stamped `sequence`, was sent. */
  sent(kind: WatchedKind, uid: string, owner: string | undefined, sequence: ObjectSequence): void {
    const count = sequence[OWNER_COUNT[kind]];
    if (owner !== undefined && count !== undefined) this.#ownerCounts.get(kind)?.set(owner, count);
    if (kind === 'Job' && sequence.jobEvents !== undefined) this.#jobEvents.set(uid, sequence.jobEvents);
  }

  /**
   * A Job is gone: its pod count and its own count are no longer needed. (A pod event of it
   * sent later starts again at 1 and names no Job count; a deleted Job decides nothing, so its
   * log never waits on them.) A JobSet's
   * count is kept until the next list of Jobs: the forwarder does not watch JobSets, so it
   * never sees one go, and a JobSet whose child Jobs are all deleted (a restart) must not
   * start again at 1 (one number per JobSet seen since that list).
   */
  forgetJob(job: string): void {
    this.#ownerCounts.get('Pod')?.delete(job);
    this.#jobEvents.delete(job);
  }

  /** An object is gone for good: its counter is no longer needed. */
  forget(uid: string): void {
    this.#counts.delete(uid);
  }
}

/** The stamp field that carries the per-owner count of each kind's events (a pod's Job, a Job's JobSet). */
const OWNER_COUNT = { Pod: 'jobSeq', Job: 'jobSetSeq' } as const satisfies Record<WatchedKind, keyof ObjectSequence>;
