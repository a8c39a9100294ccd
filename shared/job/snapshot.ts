import { parseIndexes } from '../indexes/index-set.ts';
import { rebuildAggregates } from './aggregates.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { jobSettings } from './job-settings.ts';
import { isReleased, isTerminalPhase, isUnfinished, newPodRecord, type PodRecord } from './pod-record.ts';
import { DEFAULT_FOLD_CONFIG, initialState, type FoldConfig, type JobState } from './state.ts';
import { mayExtendClusterFinish, notePodFirstSeen } from './cluster-finish.ts';
import { newClock } from './cluster-clock.ts';
import type { PodFacts } from './pod-facts.ts';
import type { ObjectSequence } from '../k8s/object-sequence.ts';
import { childStatusKeyOf } from './child-status-version.ts';
import { interimMayRecount } from './observe-pod.ts';
import { eventIdCode, eventIdOf, nameCode, nameOf, packUid, unpackUid, versionCode, versionOf, type Previous } from './pod-field-codes.ts';

/**
 * Snapshots: the state as JSON, so a reconciler reads the snapshot plus the events after it.
 *
 * A Job with 100,000 completions has more than 100,000 pods, far more than one DynamoDB item
 * holds. So a snapshot keeps only the pods that can still change the Job ("live" pods); a pod
 * that is settled for good (terminal and counted, or gone) is *archived*: reduced to the few
 * facts that make a late or repeated observation of it change nothing, and stored beside the
 * snapshot. A reconciler restores the archived records of the pods its new events name.
 * Counts and per-index bookkeeping are derived, so they are rebuilt, not stored.
 */

/**
 * 2: a live pod's tuple stores its uid, name, seq, lastSeq, resourceVersion and last eventId by
 * the codes of pod-field-codes.ts (a realistic 10,000-pod Job's snapshot: 42.6 -> 23 brotli
 * bytes a live pod); 1, every field whole, still reads.
 */
export const SNAPSHOT_VERSION = 2;

/**
 * A snapshot as takeSnapshot takes it. Its live pods are under `livePods`, a name versions that
 * know only form 1 do not read: one of them restoring it (a rollback) fails on the missing `pods`
 * instead of taking a coded uid for a uid.
 */
export interface JobSnapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  readonly state: Record<string, unknown>;
  readonly livePods: readonly unknown[];
}

/** A snapshot taken before form 2 (up to 2026-11-29): its live pods under `pods`, every field whole. */
export interface JobSnapshotForm1 {
  readonly version: 1;
  readonly state: Record<string, unknown>;
  readonly pods: readonly unknown[];
}

/** What an archived pod keeps: enough to recognise it and never count it twice. */
export interface ArchivedPod {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  readonly phase: string;
  readonly index: number;
  readonly counted: PodRecord['counted'];
  readonly gone: boolean;
  readonly seq: number;
  /** The pod's last eventId (pod-record.ts), so the log writer still drops a re-sent event. */
  readonly lastEventId?: string;
  /** When the newest observation of a pod never counted was made: a late, older one may still count it (observe-pod.ts). */
  readonly strippedAt?: number;
  /** Of a pod never counted: it was seen tracked, seen stripped before it finished (pod-record.ts); a late observation may still count it. */
  readonly trackedSeen?: boolean;
  readonly strippedLive?: boolean;
  /**
   * Of a pod never counted, what a late observation counts it by (observe-pod.ts
   * countStrippedLive, countByEvidence): being deleted is a failure where not only Failed pods
   * are replaced, and its index's failure counts. Without them a restored pod counted nowhere
   * where the fold that never stored it counted it failed (snapshot property, seed -1154655645).
   */
  readonly deletionTimestamp?: number;
  readonly failureCount?: number;
  readonly ignoredFailureCount?: number;
  readonly finishedAt?: number;
  /**
   * Of a pod never counted: jobfold deleted it the way manageJob does (pod-record.ts `released`),
   * so its finalizer went first and a recount (FailureTarget) does not count it. Without it a
   * restored pod counted failed where the fold that never stored it did not (snapshot property,
   * "a round trip after every reconcile", seed 2128693570).
   */
  readonly released?: boolean;
  /** Of a pod whose outcome a late observation may still move into the final status (pod-record.ts finalCount). */
  readonly finalCount?: PodRecord['finalCount'];
  readonly finalCountOf?: number;
  /**
   * Of a counted pod of a Job with a success policy (`instantFacts`): when its outcome was seen
   * tracked (pod-record.ts). With strippedAt and deletionTimestamp, what `outcomeSeenAt` reads.
   */
  readonly finishedTrackedAt?: number;
  /**
   * Of a pod kept with its instants or never counted: when it was first and last seen
   * (pod-record.ts firstSeenAt, lastSeenAt): whether the cluster saw it before it finished the
   * Job, and until when it may have waited for it (cluster-finish.ts).
   */
  readonly firstSeenAt?: number;
  readonly lastSeenAt?: number;
  /**
   * The order of the newest observation folded (pod-record.ts `version`, `order`): a late copy of
   * an older one, re-delivered after a restore, is told stale as the warm state tells it (without
   * them it was folded as news and could move the pod's outcome instant earlier).
   */
  readonly version?: string;
  readonly order?: ObjectSequence;
  /**
   * The log position of the snapshot whose save stored this form (decider.ts save). A pod archived
   * again by a later save (its form changed: pod-record.ts storedAs) is read back in its newest
   * form, which a fold from an older snapshot must not take (archive-restore.ts newerThanSnapshot).
   */
  readonly archivedAt?: number;
  /** pod-record.ts lastSeq: what a decision's evidence names the pod by. */
  readonly lastSeq?: number;
}

/** The latest instant the archived pod was seen at: what finish-walk.ts compares with the instants of the cluster's finish. */
export function archivedPodInstant(pod: ArchivedPod): number {
  return Math.max(
    pod.firstSeenAt ?? -Infinity, pod.lastSeenAt ?? -Infinity, pod.finishedTrackedAt ?? -Infinity,
    pod.strippedAt ?? -Infinity, pod.deletionTimestamp ?? -Infinity,
  );
}

/** A pod whose future observations can no longer change the Job. */
export function isSettled(state: JobState, pod: PodRecord): boolean {
  // Before the Job is seen nothing about its pods is decided: its spec (failure policy, success
  // policy, completion mode) may count any of them once it arrives (a delivery may bring pods first).
  if (state.settings === undefined) return false;
  if (state.held.get(pod.index) === pod.uid) return false;
  // Its sync has not counted it yet (observe-pod.ts countAtSync).
  if (state.countDue.has(pod.uid)) return false;
  // What the pod's deletion counted may still give way to its own events (observe-pod.ts).
  if (state.inferred.has(pod.uid)) return false;
  // decide reads the match (container, pod condition) of the pod that fails the Job for the evidence.
  if (state.policyFailure?.uid === pod.uid) return false;
  // An interim condition's walk may still count or uncount it (observe-pod.ts).
  if (interimMayRecount(state, pod)) return false;
  // Or it pushes the cluster's finish of the Job later (cluster-finish.ts).
  if (mayExtendClusterFinish(state, pod)) return false;
  // A gone pod never counted that still holds its finalizer is not settled: its terminal state
  // may still arrive and count (archived records restore without the finalizer) — a released
  // one too, if that late observation shows it finished with the finalizer (counting.ts
  // isTracked), even after the Job finished (late-outcome.ts). The cluster's own report of the
  // finalizer's removal settles it.
  if (pod.gone) return pod.counted !== 'none' || !pod.hasFinalizer;
  // A managed Job's pod is settled once its tracking finalizer is seen gone: until then the
  // removal may have to be asked for again (after a restore, or a command that was lost).
  if (state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME && pod.hasFinalizer) return false;
  return isTerminalPhase(pod.phase) && (pod.counted !== 'none' || !pod.hasFinalizer);
}

export function archivePod(pod: PodRecord): ArchivedPod {
  const { uid, name, namespace, phase, index, counted, gone, seq, lastEventId, version, order, lastSeq } = pod;
  return {
    uid, name, namespace, phase, index, counted, gone, seq,
    // The log position of its last change: decisions name their pods with it (evidence `pods`, `tippedBy`).
    ...(lastSeq === 0 ? {} : { lastSeq }),
    ...(lastEventId === undefined ? {} : { lastEventId }),
    ...(version === undefined ? {} : { version }),
    ...(order === undefined ? {} : { order: { epoch: order.epoch, seq: order.seq } }),
    ...(pod.finalCount === undefined ? {} : { finalCount: pod.finalCount, finalCountOf: pod.finalCountOf }),
    ...(counted === 'none' ? uncountedFacts(pod) : instantFacts(pod)),
  };
}

/**
 * Whether the Job's outcome reads the instants of all its pods: only failure against the success
 * policy competes (finish-condition.ts firstMet, outcome-correction.ts), and its instants are
 * read from the pods (criterion-instants.ts). For such a Job the writer restores the whole
 * archive on a cold load (archive-restore.ts); another Job's writer only for a batch whose
 * decisions read every pod (interim-instants.ts readsEveryPod), and every Job's interim
 * condition logs the instants its fold notes. Every Job's archived pods keep their instants (takeSnapshot): without
 * them a restored pod tells none, and a fold's finish depended on when snapshots were taken
 * (issues 20, 21; snapshot property, seeds 7, 11 and 12).
 */
export const outcomeReadsArchivedInstants = (state: JobState): boolean => state.settings?.successPolicyRules !== undefined;

/** What a counted pod keeps for `outcomeSeenAt` (pod-record.ts), and when it was first and last seen (cluster-finish.ts): at most five numbers. */
function instantFacts(pod: PodRecord): Partial<ArchivedPod> {
  const { finishedTrackedAt, strippedAt, deletionTimestamp, firstSeenAt, lastSeenAt, finishedAt, failureCount, ignoredFailureCount } = pod;
  return {
    // What the earliest bound of its outcome reads (criterion-instants.ts, upstream getFinishedTime).
    ...(finishedAt === 0 ? {} : { finishedAt }),
    // Its index's failure counts (annotations): a later observation of the pod merges with them
    // (pod-record.ts), and a count restored as 0 failed the index where the warm state did not.
    ...(failureCount === 0 ? {} : { failureCount }),
    ...(ignoredFailureCount === 0 ? {} : { ignoredFailureCount }),
    ...(firstSeenAt === undefined ? {} : { firstSeenAt }),
    ...(lastSeenAt === undefined ? {} : { lastSeenAt }),
    ...(finishedTrackedAt === undefined ? {} : { finishedTrackedAt }),
    ...(strippedAt === undefined ? {} : { strippedAt }),
    ...(deletionTimestamp === undefined ? {} : { deletionTimestamp }),
  };
}

/** What a pod never counted keeps in the archive, for the late observation that may still count it. */
function uncountedFacts(pod: PodRecord): Partial<ArchivedPod> {
  const { strippedAt, trackedSeen, strippedLive, deletionTimestamp, failureCount, ignoredFailureCount, finishedAt, released, firstSeenAt, lastSeenAt } = pod;
  return {
    ...(firstSeenAt === undefined ? {} : { firstSeenAt }),
    ...(lastSeenAt === undefined ? {} : { lastSeenAt }),
    // Released as the deletion the pod has shows (pod-record.ts isReleased): the archive keeps the answer.
    ...(released !== true || !isReleased(pod) ? {} : { released }),
    ...(strippedAt === undefined ? {} : { strippedAt }),
    ...(trackedSeen !== true ? {} : { trackedSeen }),
    ...(strippedLive !== true ? {} : { strippedLive }),
    ...(deletionTimestamp === undefined ? {} : { deletionTimestamp }),
    ...(failureCount === 0 ? {} : { failureCount }),
    ...(ignoredFailureCount === 0 ? {} : { ignoredFailureCount }),
    ...(finishedAt === 0 ? {} : { finishedAt }),
  };
}

/** The state without its settled pods, as JSON; `archived` lists the settled pods. */
export function takeSnapshot(state: JobState): { snapshot: JobSnapshot; archived: ArchivedPod[] } {
  const live: PodRecord[] = [];
  const archived: ArchivedPod[] = [];
  // The archive as of this snapshot: the pods archived before that the state lacks, and these.
  let archivedPodsUntil = state.archivedPodsUntil;
  for (const pod of state.pods.values()) {
    if (!isSettled(state, pod)) {
      live.push(pod);
      continue;
    }
    const form = archivePod(pod);
    archived.push(form);
    if (archivedPodsUntil !== undefined) archivedPodsUntil = Math.max(archivedPodsUntil, archivedPodInstant(form));
  }
  const { status, expectations } = state;
  const snapshot: JobSnapshot = {
    version: SNAPSHOT_VERSION,
    state: {
      config: state.config,
      identity: state.identity,
      spec: state.spec,
      rejected: state.rejected,
      rejectionRecorded: state.rejectionRecorded,
      refusedUpdate: state.refusedUpdate,
      refusedUpdateRecorded: state.refusedUpdateRecorded,
      deleted: state.deleted,
      deletionTimestamp: state.deletionTimestamp,
      nextPodSeq: state.nextPodSeq,
      position: state.position,
      status: {
        ...status,
        completedIndexes: status.completedIndexes.toString(),
        failedIndexes: status.failedIndexes.toString(),
      },
      held: [...state.held],
      heldCountable: state.heldCountable,
      backoff: state.backoff,
      // Stored under its first name, so that snapshots read the same both ways across a deploy.
      failJob: state.policyFailure,
      expectations: { ...expectations, deletions: [...expectations.deletions], ...(expectations.indexes ? { indexes: [...expectations.indexes] } : {}) },
      awaitingOutcome: [...state.awaitingOutcome],
      // Copied, as the others: the fold goes on changing its own in place after the snapshot.
      ...(state.podCounts === undefined ? {} : { podCounts: structuredClone(state.podCounts) }),
      ...(state.jobCounts === undefined ? {} : { jobCounts: structuredClone(state.jobCounts) }),
      inferred: [...state.inferred],
      earlyEvidence: [...state.earlyEvidence],
      ...(state.earlyDeletedTrackedAt.size === 0 ? {} : { earlyDeletedTrackedAt: [...state.earlyDeletedTrackedAt] }),
      lastSucceeded: state.lastSucceeded,
      creationRequests: state.creationRequests,
      lastStatusSent: state.lastStatusSent,
      ...(state.countDue.size === 0 ? {} : { countDue: [...state.countDue] }),
      finalStatus: state.finalStatus,
      finishedAt: state.finishedAt,
      ...(state.finishedInstant === undefined ? {} : { finishedInstant: state.finishedInstant }),
      ...(state.successMetAt === undefined ? {} : { successMetAt: state.successMetAt }),
      ...(state.parallelismChanges.length === 0 ? {} : { parallelismChanges: structuredClone(state.parallelismChanges) }),
      ...(state.suspendedBefore === true ? { suspendedBefore: true } : {}),
      ...(state.suspendHeld === true ? { suspendHeld: true } : {}),
      ...(state.suspensionObservedAt === undefined ? {} : { suspensionObservedAt: state.suspensionObservedAt }),
      ...(state.suspendChanges.length === 0 ? {} : { suspendChanges: structuredClone(state.suspendChanges) }),
      ...(state.suspensionObservedLate === true ? { suspensionObservedLate: true } : {}),
      ...(state.outcomeMetAt === undefined ? {} : { outcomeMetAt: state.outcomeMetAt }),
      // null: no archived pod tells an instant; absent (older snapshots): unknown (finish-walk.ts).
      ...(archivedPodsUntil === undefined ? {} : { archivedPodsUntil: archivedPodsUntil === -Infinity ? null : archivedPodsUntil }),
      ...waitedForItem(state),
      ...(state.reopenedBy === undefined ? {} : { reopenedBy: [...state.reopenedBy] }),
      observedAfterFinish: state.observedAfterFinish,
      jobOrder: state.jobOrder,
      jobVersion: state.jobVersion,
      specObservedAt: state.specObservedAt,
      jobEventId: state.jobEventId,
      jobObservedAt: state.jobObservedAt,
      lastTickAt: state.lastTickAt,
      newestObservedAt: state.newestObservedAt,
      clock: state.clock,
      childStatusKey: childStatusKeyOf(state),
      childStatusVersion: state.childStatusVersion,
      ...(state.jobSetSeq === undefined ? {} : { jobSetSeq: { ...state.jobSetSeq, counts: [...state.jobSetSeq.counts] } }),
      run: { at: state.run.at, changes: [...state.run.changes] },
    },
    livePods: encodePods(live, state.identity?.name),
  };
  return { snapshot, archived };
}

/**
 * The pods the finished Job still waits for, as the snapshot keeps them: only those still
 * unfinished, in their order. A pod that finished or went never counts as unfinished again (a
 * terminal phase and a deletion are absorbing, pod-record.ts), so reopenFinish, which names only
 * unfinished ones, reads the same after a restore; and every one kept is a live pod of the same
 * snapshot (isSettled), so the list is never larger than the pods beside it (a 100,000-pod Job
 * whose observations all arrived late keeps at most its live pods' uids, not every pod's).
 */
function waitedForItem(state: JobState): { waitedFor?: string[] } {
  if (state.waitedFor === undefined) return {};
  const waiting: string[] = [];
  for (const uid of state.waitedFor) {
    const pod = state.pods.get(uid);
    if (pod !== undefined && isUnfinished(pod)) waiting.push(uid);
  }
  return waiting.length === 0 ? {} : { waitedFor: waiting };
}

/** Rebuilds the state from a snapshot; archived pods can be restored with `restoreArchived`. */
export function restoreSnapshot(snapshot: JobSnapshot | JobSnapshotForm1): JobState {
  const s = snapshot.state as Record<string, any>;
  const state = initialState({ ...DEFAULT_FOLD_CONFIG, ...(s['config'] as FoldConfig) });
  const completions = (s['spec']?.completions as number | undefined) ?? Number.MAX_SAFE_INTEGER;
  Object.assign(state, {
    identity: s['identity'],
    spec: s['spec'],
    settings: s['spec'] ? jobSettings(s['spec']) : undefined,
    rejected: s['rejected'],
    rejectionRecorded: s['rejectionRecorded'],
    refusedUpdate: s['refusedUpdate'],
    refusedUpdateRecorded: s['refusedUpdateRecorded'] ?? false,
    deleted: s['deleted'],
    deletionTimestamp: s['deletionTimestamp'],
    nextPodSeq: s['nextPodSeq'],
    position: s['position'],
    held: new Map(s['held']),
    heldCountable: s['heldCountable'],
    backoff: s['backoff'],
    policyFailure: s['failJob'],
    expectations: { ...s['expectations'], deletions: new Set(s['expectations'].deletions) },
    awaitingOutcome: new Map(s['awaitingOutcome'] ?? []),
    podCounts: s['podCounts'] === undefined ? undefined : structuredClone(s['podCounts']),
    jobCounts: s['jobCounts'] === undefined ? undefined : structuredClone(s['jobCounts']),
    inferred: new Map(s['inferred'] ?? []),
    earlyEvidence: new Map(s['earlyEvidence'] ?? []),
    earlyDeletedTrackedAt: new Map(s['earlyDeletedTrackedAt'] ?? []),
    lastSucceeded: s['lastSucceeded'],
    creationRequests: s['creationRequests'],
    lastStatusSent: s['lastStatusSent'],
    countDue: new Set(s['countDue'] ?? []),
    finalStatus: s['finalStatus'],
    finishedAt: s['finishedAt'],
    ...(s['finishedInstant'] === undefined ? {} : { finishedInstant: s['finishedInstant'] }),
    ...(s['successMetAt'] === undefined ? {} : { successMetAt: s['successMetAt'] }),
    parallelismChanges: structuredClone(s['parallelismChanges'] ?? []),
    ...(s['suspendedBefore'] === true ? { suspendedBefore: true } : {}),
    ...(s['suspendHeld'] === true ? { suspendHeld: true } : {}),
    ...(typeof s['suspensionObservedAt'] === 'number' ? { suspensionObservedAt: s['suspensionObservedAt'] } : {}),
    suspendChanges: structuredClone(s['suspendChanges'] ?? []),
    ...(s['suspensionObservedLate'] === true ? { suspensionObservedLate: true } : {}),
    ...(s['outcomeMetAt'] === undefined ? {} : { outcomeMetAt: s['outcomeMetAt'] }),
    archivedPodsUntil: s['archivedPodsUntil'] === undefined ? undefined : ((s['archivedPodsUntil'] as number | null) ?? -Infinity),
    ...(s['waitedFor'] === undefined ? {} : { waitedFor: new Set(s['waitedFor']) }),
    ...(s['reopenedBy'] === undefined ? {} : { reopenedBy: [...s['reopenedBy']] }),
    observedAfterFinish: s['observedAfterFinish'] ?? 0,
    jobOrder: s['jobOrder'],
    jobVersion: s['jobVersion'],
    specObservedAt: s['specObservedAt'],
    jobEventId: s['jobEventId'],
    jobObservedAt: s['jobObservedAt'],
    lastTickAt: s['lastTickAt'],
    newestObservedAt: s['newestObservedAt'],
    // Snapshots from before the clock existed: it starts again from the tail's observations.
    clock: s['clock'] ?? newClock(),
    childStatusKey: s['childStatusKey'] ?? '',
    childStatusVersion: s['childStatusVersion'] ?? 0,
    ...(s['jobSetSeq'] === undefined ? {} : { jobSetSeq: { ...s['jobSetSeq'], counts: [...s['jobSetSeq'].counts] } }),
    run: { at: s['run']?.at, changes: new Map(s['run']?.changes ?? []), open: undefined },
  });
  state.status = {
    ...s['status'],
    completedIndexes: parseIndexes(s['status'].completedIndexes, completions),
    failedIndexes: parseIndexes(s['status'].failedIndexes, completions),
  };
  const form = podForm(snapshot.version, s['identity']?.name as string | undefined);
  const previous: Previous = { lastSeq: 0, version: 0 };
  for (const encoded of snapshot.version === 1 ? snapshot.pods : snapshot.livePods) {
    const pod = decodePod(encoded, form, previous);
    state.pods.set(pod.uid, pod);
    notePodFirstSeen(state, pod.firstSeenAt);
  }
  rebuildAggregates(state);
  state.successRuleProgress = (state.settings?.successPolicyRules ?? []).map((rule) =>
    rule.indexes ? rule.indexes.countWithin(state.status.completedIndexes) : 0,
  );
  return state;
}

/** Puts archived pods back, before folding events that name them. */
export function restoreArchived(state: JobState, pods: readonly ArchivedPod[]): void {
  for (const archived of pods) {
    if (state.pods.has(archived.uid)) continue;
    // Built as a new record is (newPodRecord), every field in one order, then the archived
    // bookkeeping set: records of another shape made every access to a pod megamorphic after a
    // restore (issue 20).
    const pod = newPodRecord(archivedFacts(archived), {
      seq: archived.seq, lastSeq: archived.lastSeq ?? 0, order: archived.order, version: archived.version, gone: archived.gone,
      firstSeenAt: archived.firstSeenAt, lastSeenAt: archived.lastSeenAt,
    });
    pod.counted = archived.counted;
    pod.lastEventId = archived.lastEventId;
    pod.strippedAt = archived.strippedAt;
    pod.finishedTrackedAt = archived.finishedTrackedAt;
    if (archived.trackedSeen === true) pod.trackedSeen = true;
    if (archived.strippedLive === true) pod.strippedLive = true;
    if (archived.released === true) pod.released = true;
    if (archived.finalCount !== undefined) {
      pod.finalCount = archived.finalCount;
      pod.finalCountOf = archived.finalCountOf;
    }
    state.pods.set(archived.uid, pod);
    notePodFirstSeen(state, archived.firstSeenAt);
  }
}

function archivedFacts(pod: ArchivedPod): PodFacts {
  return {
    uid: pod.uid,
    name: pod.name,
    namespace: pod.namespace,
    phase: pod.phase as PodFacts['phase'],
    index: pod.index,
    failureCount: pod.failureCount ?? 0,
    ignoredFailureCount: pod.ignoredFailureCount ?? 0,
    deletionTimestamp: pod.deletionTimestamp,
    hasFinalizer: false,
    ready: false,
    readySince: undefined,
    readyChangedAt: undefined,
    assigned: true,
    restartCount: 0,
    maxRestarts: 0,
    creationTimestamp: undefined,
    finishedAt: pod.finishedAt ?? 0,
    terminated: [],
    conditions: [],
  };
}

// Live pods are stored as positional arrays: a snapshot may hold thousands of them.
const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;
const COUNTS = ['none', 'succeeded', 'failed', 'ignored'] as const;
const FINALIZER = 1;
const READY = 2;
const ASSIGNED = 4;
const GONE = 8;
const FINALIZER_REMOVAL_REQUESTED = 16;
const RELEASED = 32;
const TRACKED_SEEN = 64;
const STRIPPED_LIVE = 128;
const FINAL_OUTSIDE = 256;
const FINAL_OWED = 512;

/** How a snapshot's pod tuples are read: form 1 whole; form 2 by pod-field-codes.ts, names after `<job>-`. */
interface PodForm {
  readonly coded: boolean;
  readonly prefix: string | undefined;
}

const podForm = (version: number, jobName: string | undefined): PodForm => ({
  coded: version >= 2,
  prefix: version >= 2 && jobName !== undefined ? `${jobName}-` : undefined,
});

/** The live pods in the snapshot's form; each pod's lastSeq and resourceVersion told from the one before it. */
function encodePods(pods: readonly PodRecord[], jobName: string | undefined): unknown[][] {
  const form = podForm(SNAPSHOT_VERSION, jobName);
  const previous: Previous = { lastSeq: 0, version: 0 };
  return pods.map((pod) => encodePod(pod, form, previous));
}

function encodePod(pod: PodRecord, form: PodForm, previous: Previous): unknown[] {
  const flags =
    (pod.hasFinalizer ? FINALIZER : 0) | (pod.ready ? READY : 0) | (pod.assigned ? ASSIGNED : 0) | (pod.gone ? GONE : 0) |
    (pod.finalizerRemovalRequested ? FINALIZER_REMOVAL_REQUESTED : 0) | (pod.released ? RELEASED : 0) |
    (pod.trackedSeen ? TRACKED_SEEN : 0) | (pod.strippedLive ? STRIPPED_LIVE : 0) |
    (pod.finalCount === 'outside' ? FINAL_OUTSIDE : 0) | (pod.finalCount === 'owed' ? FINAL_OWED : 0);
  const lastSeq = pod.lastSeq - previous.lastSeq;
  previous.lastSeq = pod.lastSeq;
  const tuple: unknown[] = [
    packUid(pod.uid),
    nameCode(pod.name, pod.index, form.prefix),
    pod.namespace,
    PHASES.indexOf(pod.phase as (typeof PHASES)[number]),
    pod.index,
    flags,
    // Upstream numbers an Indexed Job's pods about as their indexes; jobfold its first sightings.
    pod.seq - pod.index,
    lastSeq,
    COUNTS.indexOf(pod.counted),
    pod.failureCount,
    pod.ignoredFailureCount,
    pod.restartCount,
    pod.maxRestarts,
    pod.finishedAt,
    pod.creationTimestamp ?? null,
    pod.deletionTimestamp ?? null,
    pod.readySince ?? null,
    pod.terminationRequestedAt ?? null,
    pod.terminated.length > 0 ? pod.terminated : null,
    pod.conditions.length > 0 ? pod.conditions : null,
    pod.failureMatch ?? null,
    pod.order ? [pod.order.epoch, pod.order.seq] : null,
    pod.readyChangedAt ?? null,
    eventIdCode(pod.lastEventId, pod.uid, pod.version),
    pod.finalizerRemovalRequestedAt ?? null,
    pod.finalizerRemovalAttempts ?? null,
    versionCode(pod.version, previous),
    pod.strippedAt ?? null,
    pod.finishedTrackedAt ?? null,
    pod.controlledBy ?? null,
    pod.finalCountOf ?? null,
    pod.firstSeenAt ?? null,
    pod.lastSeenAt ?? null,
    pod.releasedUntil ?? null,
    pod.deletionRequestedAt ?? null,
  ];
  // Only empty slots go: a code 0 says something (no eventId beside a version; the same value as before).
  while (tuple.length > 9 && tuple.at(-1) === null) tuple.pop();
  return tuple;
}

function decodePod(encoded: unknown, form: PodForm, previous: Previous): PodRecord {
  const t = encoded as unknown[];
  const at = <T>(i: number, fallback: T): T => (t[i] === undefined || t[i] === null ? fallback : (t[i] as T));
  const flags = at(5, 0);
  const index = at(4, -1);
  const uid = form.coded ? unpackUid(t[0]) : at(0, '');
  const version = form.coded ? versionOf(t[26], previous) : at<string | undefined>(26, undefined);
  const lastSeq = form.coded ? (previous.lastSeq += at(7, 0)) : at(7, 0);
  // Built as a new record is (newPodRecord), then the bookkeeping set: see restoreArchived.
  const pod = newPodRecord(
    {
      uid,
      name: form.coded ? nameOf(t[1], index, form.prefix) : at(1, ''),
      namespace: at(2, 'default'),
      phase: PHASES[at(3, 0)] ?? 'Pending',
      index,
      failureCount: at(9, 0),
      ignoredFailureCount: at(10, 0),
      deletionTimestamp: at<number | undefined>(15, undefined),
      hasFinalizer: (flags & FINALIZER) !== 0,
      ready: (flags & READY) !== 0,
      readySince: at<number | undefined>(16, undefined),
      readyChangedAt: at<number | undefined>(22, undefined),
      assigned: (flags & ASSIGNED) !== 0,
      restartCount: at(11, 0),
      maxRestarts: at(12, 0),
      creationTimestamp: at<number | undefined>(14, undefined),
      finishedAt: at(13, 0),
      terminated: at(18, []),
      conditions: at(19, []),
    },
    {
      seq: form.coded ? at(6, 0) + index : at(6, 0),
      lastSeq,
      order: decodeOrder(at<[number, number] | undefined>(21, undefined)),
      version,
      gone: (flags & GONE) !== 0,
      firstSeenAt: at<number | undefined>(31, undefined),
      lastSeenAt: at<number | undefined>(32, undefined),
    },
  );
  pod.counted = COUNTS[at(8, 0)] ?? 'none';
  pod.failureMatch = at(20, undefined);
  pod.terminationRequestedAt = at<number | undefined>(17, undefined);
  pod.lastEventId = form.coded ? eventIdOf(t[23], uid, version) : at<string | undefined>(23, undefined);
  pod.finalizerRemovalRequestedAt = at<number | undefined>(24, undefined);
  pod.finalizerRemovalAttempts = at<number | undefined>(25, undefined);
  pod.strippedAt = at<number | undefined>(27, undefined);
  pod.finishedTrackedAt = at<number | undefined>(28, undefined);
  pod.controlledBy = at<string | undefined>(29, undefined);
  pod.finalCountOf = at<number | undefined>(30, undefined);
  pod.releasedUntil = at<number | undefined>(33, undefined);
  pod.deletionRequestedAt = at<number | undefined>(34, undefined);
  if ((flags & FINALIZER_REMOVAL_REQUESTED) !== 0) pod.finalizerRemovalRequested = true;
  if ((flags & RELEASED) !== 0) pod.released = true;
  if ((flags & TRACKED_SEEN) !== 0) pod.trackedSeen = true;
  if ((flags & STRIPPED_LIVE) !== 0) pod.strippedLive = true;
  if ((flags & FINAL_OUTSIDE) !== 0) pod.finalCount = 'outside';
  if ((flags & FINAL_OWED) !== 0) pod.finalCount = 'owed';
  return pod;
}

const decodeOrder = (pair: [number, number] | undefined) => (pair ? { epoch: pair[0], seq: pair[1] } : undefined);

/** A deep copy, through the snapshot form (archived pods included). */
export function cloneState(state: JobState): JobState {
  const { snapshot, archived } = takeSnapshot(state);
  const copy = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)) as JobSnapshot);
  restoreArchived(copy, archived);
  // Every pod is back: the copy's archive is the original's.
  copy.archivedPodsUntil = state.archivedPodsUntil;
  return copy;
}
