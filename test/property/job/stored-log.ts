import { countAtSync } from '../../../shared/job/observe-pod.ts';
import { foldFromSnapshot } from '../../../shared/job/archive-restore.ts';
import { decide } from '../../../shared/job/decide.ts';
import { jobDecider } from '../../../shared/job/decider.ts';
import type { Decision } from '../../../shared/job/decisions.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { firstSightingSeqs, unseenPods } from '../../../shared/job/first-sightings.ts';
import { cloneState, restoreSnapshot, takeSnapshot, type ArchivedPod, type JobSnapshot } from '../../../shared/job/snapshot.ts';
import { DEFAULT_FOLD_CONFIG, initialState, type JobState } from '../../../shared/job/state.ts';
import { jobStatus, type JobStatusView } from '../../../shared/job/status.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../shared/log/pod-archive.ts';
import { CLUSTER, JOB_UID, jobObserved, T0 } from '../../support/builders.ts';
import type { Batch } from './arbitraries.ts';

// A Job's log as the writer stores it, without a store: the entries (as JSON, as read back), the
// first sightings it marks, the snapshots it takes (kept at their positions) and the pod archive
// beside them, written through the Job decider's own archive hooks (shared/job/decider.ts). What a
// fold from a snapshot reads is then what the query API (functions/query/job-state-at.ts foldTo)
// and a writer loaded cold (shared/decide/load-log.ts) read: the snapshot, the archived pods
// shared/job/archive-restore.ts restoreForTail puts back, and the tail.

const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid: JOB_UID };
const decider = jobDecider(DEFAULT_FOLD_CONFIG);

/** The pod archive as a store keeps it: one record a pod, replaced when stored again; whole reads counted. */
export class MemoryArchive implements Pick<PodArchive, 'saveArchivedPods' | 'loadArchivedPods' | 'loadAllArchivedPods'> {
  readonly #pods = new Map<string, string>();
  wholeReads = 0;

  async saveArchivedPods(_stream: StreamId, pods: readonly ArchivedPod[]): Promise<void> {
    for (const pod of pods) this.#pods.set(pod.uid, JSON.stringify(pod));
  }

  async loadArchivedPods(_stream: StreamId, uids: readonly string[]): Promise<ArchivedPod[]> {
    return uids.flatMap((uid) => {
      const stored = this.#pods.get(uid);
      return stored === undefined ? [] : [JSON.parse(stored) as ArchivedPod];
    });
  }

  async loadAllArchivedPods(): Promise<ArchivedPod[]> {
    this.wholeReads += 1;
    return [...this.#pods.values()].map((stored) => JSON.parse(stored) as ArchivedPod);
  }

  get asStore(): PodArchive {
    return this as unknown as PodArchive;
  }
}

/** One reconcile's output, as the property compares it. */
export interface Written {
  readonly decisions: readonly Decision[];
  readonly status: JobStatusView;
}

/** A writer's log: entries 1..head, first sightings, snapshots and the archive. */
export class StoredLog {
  readonly entries: JobEvent[] = [];
  readonly firstSightings = new Set<number>();
  readonly snapshots: { seq: number; snapshot: string }[] = [];
  readonly archive = new MemoryArchive();

  get head(): number {
    return this.entries.length;
  }

  /** Drops the entries after `head` (a batch not committed), with their first sightings. */
  truncate(head: number): void {
    this.entries.length = head;
    for (const seq of this.firstSightings) if (seq > head) this.firstSightings.delete(seq);
  }

  /** Logs `event` at the next position and folds it on `state` as read back (JSON). */
  append(state: JobState, event: JobEvent): void {
    const logged = JSON.parse(JSON.stringify({ ...event, seq: this.head + 1 })) as JobEvent;
    this.entries.push(logged);
    evolve(state, logged);
  }

  /** A snapshot of `state` at the head, its settled pods stored as the writer stores them. */
  async snapshot(state: JobState): Promise<void> {
    const { snapshot, archived } = takeSnapshot(state);
    this.snapshots.push({ seq: this.head, snapshot: JSON.stringify(snapshot) });
    await decider.archive!.save(this.archive.asStore, stream, state, archived);
  }

  /** The newest snapshot at or before `seq`. */
  snapshotAt(seq: number): { seq: number; snapshot: string } | undefined {
    return this.snapshots.filter((s) => s.seq <= seq).at(-1);
  }
}

/**
 * The first entry of a history: the Job observed at T0. Without a Job, the batches carry its
 * observation where it arrived (a delivery order, stored-orders.property.spec.ts).
 */
function started(job: Job | undefined, log: StoredLog): JobState {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  if (job !== undefined) log.append(state, jobObserved(job, T0));
  return state;
}

/** One batch as the writer takes it: observations logged, first sightings marked, a reconcile at the batch's time. */
function writeBatch(log: StoredLog, state: JobState, batch: Batch): Written {
  const unseen = unseenPods(state, batch.events as Observation[]);
  const from = log.head;
  for (const event of batch.events) log.append(state, event);
  for (const seq of firstSightingSeqs(log.entries.slice(from), unseen)) log.firstSightings.add(seq);
  const { decisions } = decide(state, batch.at);
  for (const decision of decisions) log.append(state, decision);
  return { decisions, status: jobStatus(state) };
}

/**
 * A writer kept warm (every pod in memory), snapshotting after the batches `snapshotAfter` marks:
 * its log, what each reconcile wrote, and the status after each entry (a replay's, index = seq).
 */
export async function writeWarm(job: Job | undefined, batches: readonly Batch[], snapshotAfter: readonly boolean[], afterBatch?: (state: JobState) => void) {
  const log = new StoredLog();
  const state = started(job, log);
  const statuses: JobStatusView[] = [jobStatus(initialState(DEFAULT_FOLD_CONFIG)), ...(log.head === 1 ? [jobStatus(state)] : [])];
  const written: Written[] = [];
  // The status after each entry: a replay of the log up to it.
  const replay = replayTo(log, log.head);
  for (const [i, batch] of batches.entries()) {
    const before = log.head;
    written.push(writeBatch(log, state, batch));
    afterBatch?.(state);
    for (const event of log.entries.slice(before)) {
      evolve(replay, event);
      // A reader's fold to this entry ends with the sync's count; the replay goes on uncounted.
      const view = cloneState(replay);
      countAtSync(view);
      statuses.push(jobStatus(view));
    }
    if (snapshotAfter[i] === true) await log.snapshot(state);
  }
  return { log, written, statuses };
}

/** The log's first `seq` entries folded from the start. */
export function replayTo(log: StoredLog, seq: number): JobState {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  for (const event of log.entries.slice(0, seq)) evolve(state, event);
  countAtSync(state);
  return state;
}

/**
 * A writer loaded cold for every batch (no cache): the newest snapshot of its own log, the
 * archived pods the decider's restoreForTail puts back, the tail, the archived pods the batch
 * names (restoreForBatch); then the batch. Snapshots after the batches `snapshotAfter` marks.
 */
export async function writeCold(job: Job | undefined, batches: readonly Batch[], snapshotAfter: readonly boolean[], afterBatch?: (state: JobState) => void): Promise<Written[]> {
  const log = new StoredLog();
  started(job, log);
  const written: Written[] = [];
  for (const [i, batch] of batches.entries()) {
    let loaded = await loadCold(log, batch, false);
    const head = log.head;
    let reconcile = writeBatch(log, loaded.state, batch);
    // Decisions that read every archived pod, decided on a partial state: decided again on the
    // whole archive (shared/decide/write-batch.ts), the entries of the first try dropped.
    if (loaded.partial && decider.archive!.readsEveryRecord(loaded.state, log.entries.slice(head))) {
      log.truncate(head);
      loaded = await loadCold(log, batch, true);
      reconcile = writeBatch(log, loaded.state, batch);
    }
    written.push(reconcile);
    afterBatch?.(loaded.state);
    if (snapshotAfter[i] === true) await log.snapshot(loaded.state);
  }
  return written;
}

async function loadCold(log: StoredLog, batch: Batch, whole: boolean): Promise<{ state: JobState; partial: boolean }> {
  const stored = log.snapshotAt(log.head);
  if (stored === undefined) return { state: replayTo(log, log.head), partial: false };
  const state = restoreSnapshot(JSON.parse(stored.snapshot) as JobSnapshot);
  const tail = log.entries.slice(stored.seq);
  const restoredWhole = await decider.archive!.restoreForTail(log.archive.asStore, stream, state, tail, log.firstSightings, whole);
  for (const event of tail) evolve(state, event);
  const wholeForBatch = !restoredWhole && (await decider.archive!.restoreForBatch(log.archive.asStore, stream, state, batch.events as Observation[]));
  return { state, partial: !restoredWhole && !wholeForBatch };
}

/**
 * The query API's fold to `seq` (foldTo): the newest snapshot at or before it, the pods
 * foldFromSnapshot puts back, the tail (again from the snapshot with the whole archive when a
 * finish walk read it; the whole log when a pod was stored after the snapshot).
 */
export async function queryFold(log: StoredLog, seq: number, whole = false): Promise<JobState> {
  const stored = log.snapshotAt(seq);
  if (stored === undefined) return replayTo(log, seq);
  const state = restoreSnapshot(JSON.parse(stored.snapshot) as JobSnapshot);
  const tail = log.entries.slice(stored.seq, seq);
  const folded = await foldFromSnapshot(log.archive, stream, state, tail, log.firstSightings, whole);
  if (folded === 'newer-than-snapshot') return replayTo(log, seq);
  if (folded === 'walk-read-archive') return queryFold(log, seq, true);
  countAtSync(state);
  return state;
}
