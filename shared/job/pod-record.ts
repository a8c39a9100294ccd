import type { PodFacts } from './pod-facts.ts';
import type { PodFailureMatch } from '../policies/pod-failure-policy.ts';
import type { ObjectSequence, ObservationOrder } from '../k8s/object-sequence.ts';
import type { Pod } from '../k8s/pod.ts';
import { parseTime } from '../k8s/time.ts';

/**
 * How the fold has accounted for a finished pod. `none` until counted; each pod is counted at
 * most once, whatever order its observations arrive in.
 */
export type PodCount = 'none' | 'succeeded' | 'failed' | 'ignored';

/** The fold's record of one pod: the merged observations plus the fold's own bookkeeping. */
export interface PodRecord extends PodFacts {
  /** First-seen order: upstream's pod listing order, which decides "first matching pod". */
  readonly seq: number;
  /** Log position of the observation that last changed this record. */
  lastSeq: number;
  /** The forwarder's stamp of the newest observation folded, when stamped: older ones are late. */
  order: ObjectSequence | undefined;
  /** The resourceVersion of the newest observation folded, when comparable (KEP-5504): older ones are late. */
  version?: string;
  /**
   * The earliest observedAt (epoch ms) of an observation that showed the tracking finalizer gone:
   * an observation stamped earlier that showed the pod finished with it was read by an earlier
   * sync, which counted the pod (observe-pod.ts countByEvidence).
   */
  strippedAt?: number;
  /**
   * The earliest observedAt (epoch ms) of an observation that showed the pod finished (or being
   * deleted, when that counts as failed) while it still carried the tracking finalizer. A pod held uncounted for its index (counting.ts
   * `holdForReplacement`) that is then seen without the finalizer was counted by the sync that
   * removed it: that earlier observation is the evidence (observe-pod.ts), exactly as when it
   * arrives late.
   */
  finishedTrackedAt?: number;
  /** An observation showed the pod carrying the tracking finalizer: the Job tracked it. */
  trackedSeen?: boolean;
  /**
   * An observation showed the tracking finalizer gone while the pod had not finished (phase
   * neither Succeeded nor Failed): the controller removed it before the pod ended, so how the
   * pod counts is decided by why it was removed, not by how the pod ended later
   * (observe-pod.ts countStrippedLive). Phases only move forward: once true, every older
   * observation without the finalizer shows the pod unfinished too.
   */
  strippedLive?: boolean;
  /**
   * eventId of the last observation of this pod the fold took (not judged stale): the log writer
   * drops the same event delivered again without a per-event marker (shared/job/known-observation.ts).
   */
  lastEventId?: string;
  counted: PodCount;
  /** The pod failure policy's verdict, once the pod has failed and the spec is known. */
  failureMatch: PodFailureMatch | undefined;
  /** When jobfold asked for this pod's deletion (epoch ms); at most once per pod. */
  terminationRequestedAt: number | undefined;
  /** The tracking finalizer, as the newest observation (or a removal observed before it) shows it. */
  hasFinalizer: boolean;
  /**
   * jobfold decided to delete the pod the way manageJob does (excess, suspended, duplicated or
   * invalid index): the finalizer goes first, so the pod is never counted for that, only if an
   * observation shows it already finished while still carrying the finalizer (it finished
   * before the deletion reached it; counting.ts `isTracked`).
   */
  released?: boolean;
  /**
   * Until when (epoch ms) jobfold's deletion of a `released` pod was expected: the time it asked
   * plus the expectations timeout. A deletion requested after it is not the one jobfold asked
   * for (the forwarder's guard refused that one and the expectation lapsed,
   * termination-lapse.ts): it releases nothing (`isReleased`).
   */
  releasedUntil?: number;
  /**
   * When the pod's deletion was requested, on the API server's clock: its deletionTimestamp less
   * its deletionGracePeriodSeconds, the earliest any observation shows (a shortened grace period
   * moves both later; isReleased).
   */
  deletionRequestedAt?: number;
  /** Managed Jobs: jobfold asked for the tracking finalizer's removal (once per pod). */
  finalizerRemovalRequested?: boolean;
  /** When the last removal was asked for (epoch ms), and how many times it was asked. */
  finalizerRemovalRequestedAt?: number;
  finalizerRemovalAttempts?: number;
  /**
   * The hash (decider.ts storedFormHash) of the archived form (snapshot.ts archivePod) last stored in the pod
   * archive or restored from it (not persisted): a snapshot stores the pod again only when its
   * form differs. A hash, not the form: 16 characters a settled pod of a warm state. A record
   * changed after it was stored (an observation of a settled pod kept warm: seen running without
   * its finalizer after it was archived failed) was not stored again before, and a fold that
   * restored it from the archive counted it otherwise than the state that kept it (snapshot
   * property, named-only restore, seed 62).
   */
  storedAs?: string;
  /** `PodDeleted` was observed: the pod left the cluster (its record stays as a tombstone). */
  gone: boolean;
  /**
   * The uid of the Job that controls the pod now (another Job adopted it): the pod left this Job
   * as if gone, uncounted, and nothing it does later is this Job's (observe-pod.ts releaseToController).
   */
  controlledBy?: string;
  /**
   * Where the pod's outcome stands against the final status of a Job jobfold finished
   * (late-outcome.ts settleAfterFinish): `outside`, counted after the finish by observations made
   * after it, so not in the final status (upstream no longer syncs a finished Job); `owed`, seen
   * at or before the finish instant on the cluster's clock but arriving after it, so the
   * cluster's Job waited for it and its outcome belongs in the final status once it is counted.
   */
  finalCount?: 'outside' | 'owed';
  /**
   * The log position of the finish `finalCount` refers to (state.finishedAt): a finish taken back
   * and decided again counts every pod counted by then, so an older mark (an archived pod's
   * included) no longer holds.
   */
  finalCountOf?: number;
  /**
   * The earliest instant (epoch ms, the cluster's clock) of any observation of the pod folded,
   * stale ones and its deletion included: whether the cluster's controller could have seen it
   * before it finished the Job (cluster-finish.ts). Unset on records older than the field.
   */
  firstSeenAt?: number;
  /** The latest such instant: until when the cluster may have waited for the pod (cluster-finish.ts). */
  lastSeenAt?: number;
}

/**
 * An observation of the pod made at `at` was folded (firstSeenAt, lastSeenAt). A record without
 * firstSeenAt predates the field (restored): it stays unknown, not set by a later observation.
 */
export function noteSeen(pod: PodRecord, at: number): void {
  if (pod.firstSeenAt !== undefined && at < pod.firstSeenAt) pod.firstSeenAt = at;
  if (pod.lastSeenAt === undefined || at > pod.lastSeenAt) pod.lastSeenAt = at;
}

/** Where the newest observation the record holds stands among the pod's observations. */
export const recordOrder = (pod: PodRecord): ObservationOrder => ({ version: pod.version, sequence: pod.order });

/** Which part of the Job's status a pod contributes to. */
export type PodClass = 'active' | 'terminating' | 'finished' | 'gone';

export const isTerminalPhase = (phase: string): boolean =>
  phase === 'Succeeded' || phase === 'Failed';

/**
 * jobfold's deletion released the pod uncounted (`released`), unless the pod's deletion was
 * requested after that deletion stopped being expected (`releasedUntil`; `deletionRequestedAt`,
 * the cluster's own stamp, the same in every observation whatever order they arrive in). Such a pod's deletion was refused (the forwarder's guard, on the live Job
 * and pods, docs/forwarder.md) and someone else deleted it later: upstream's `deleteJobPods`
 * lowers the expectation when a delete fails and leaves the pod, and its tracking finalizer,
 * as they were, so a later deletion of it while it runs counts it failed (`isPodFailed`).
 * Whichever of the lapse and the deletion reaches the fold first, the answer is the same.
 */
export const isReleased = (pod: PodRecord): boolean =>
  pod.released === true && !(pod.releasedUntil !== undefined && pod.deletionRequestedAt !== undefined && pod.deletionRequestedAt > pod.releasedUntil);

/** Notes when an observation shows the pod's deletion was requested (deletionRequestedAt). */
export function noteDeletionRequested(pod: PodRecord, metadata: Pod['metadata']): void {
  if (metadata.deletionTimestamp === undefined) return;
  const requestedAt = parseTime(metadata.deletionTimestamp) - (metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  if (!(requestedAt >= (pod.deletionRequestedAt ?? Infinity))) pod.deletionRequestedAt = requestedAt;
}

/**
 * Upstream `FilterActivePods` / `CountTerminatingPods`, with one addition: a pod whose deletion
 * jobfold requested counts as terminating until its deletion is observed, exactly as upstream
 * counts a pod it deleted in the same sync.
 */
export function podClass(pod: PodRecord): PodClass {
  if (pod.gone) return 'gone';
  if (isTerminalPhase(pod.phase)) return 'finished';
  if (pod.deletionTimestamp !== undefined || pod.terminationRequestedAt !== undefined) {
    return 'terminating';
  }
  return 'active';
}

/** Not finished on the cluster as far as the view tells: active, or terminating but not ended. */
export const isUnfinished = (pod: PodRecord): boolean => {
  const cls = podClass(pod);
  return cls === 'active' || cls === 'terminating';
};

const PHASE_RANK: Readonly<Record<string, number>> = {
  Pending: 0,
  Unknown: 1,
  Running: 1,
  Succeeded: 2,
  Failed: 2,
};

/**
 * Merges a new observation into what the fold knows. Observations arrive out of order, so the
 * merge only moves forward: a phase never goes back, a terminal phase is final, a deletion
 * timestamp stays once seen, and a removed finalizer never comes back.
 * Returns undefined when the observation adds nothing (a replay or a stale state).
 */
export function mergeFacts(known: PodFacts, seen: PodFacts): PodFacts | undefined {
  const knownRank = PHASE_RANK[known.phase] ?? 0;
  const seenRank = PHASE_RANK[seen.phase] ?? 0;
  const stale = seenRank < knownRank || (knownRank === 2 && seen.phase !== known.phase);
  const base = stale || (knownRank === 2 && seenRank === 2) ? known : seen;
  // Without a stamp, the Ready condition tells an older readiness from a newer one: its
  // transition time, and its absence (the kubelet adds it at the pod's first sync and never
  // takes it away), so a late `not ready` from before the pod became ready does not flip it back.
  const olderReadiness = base === seen && !isTerminalPhase(seen.phase) && (
    (reportsReady(known) && !reportsReady(seen))
    || (known.readyChangedAt !== undefined && seen.readyChangedAt !== undefined && seen.readyChangedAt < known.readyChangedAt));
  const readiness = olderReadiness ? known : base;
  // Field by field, not spread: `base` may be the record, and spreading it (and the overrides)
  // copied some forty fields per pod event (issue 20).
  const merged: PodFacts = {
    uid: base.uid,
    name: base.name,
    namespace: base.namespace,
    phase: base.phase,
    index: known.index >= 0 ? known.index : seen.index,
    failureCount: base.failureCount,
    ignoredFailureCount: base.ignoredFailureCount,
    deletionTimestamp: known.deletionTimestamp ?? seen.deletionTimestamp,
    hasFinalizer: known.hasFinalizer && seen.hasFinalizer,
    ready: readiness.ready,
    readySince: readiness.readySince,
    readyChangedAt: readiness.readyChangedAt,
    assigned: base.assigned,
    restartCount: base.restartCount,
    maxRestarts: base.maxRestarts,
    creationTimestamp: base.creationTimestamp,
    finishedAt: base.finishedAt,
    terminated: base.terminated,
    // A condition the policy can match stays once seen, unless the pod reports it otherwise.
    conditions: base === seen && !isTerminalPhase(seen.phase) ? keptConditions(known, seen) : base.conditions,
  };
  return sameFacts(known, merged) ? undefined : merged;
}

/** What a new record starts with besides the facts; the rest of its bookkeeping starts unset. */
export type NewRecordFields = Pick<PodRecord, 'seq' | 'lastSeq' | 'order' | 'version' | 'gone' | 'firstSeenAt' | 'lastSeenAt'>;

/**
 * A new pod record, every field in one literal and one order: built by spreading the facts and
 * setting the optional fields later (in varying orders), records had many hidden classes, every
 * access to a pod was megamorphic and each record grew its property store step by step (issue
 * 20). test/unit/job/take-facts.spec.ts fails for a fact left out.
 */
export function newPodRecord(facts: PodFacts, own: NewRecordFields): PodRecord {
  return {
    uid: facts.uid,
    name: facts.name,
    namespace: facts.namespace,
    phase: facts.phase,
    index: facts.index,
    failureCount: facts.failureCount,
    ignoredFailureCount: facts.ignoredFailureCount,
    deletionTimestamp: facts.deletionTimestamp,
    hasFinalizer: facts.hasFinalizer,
    ready: facts.ready,
    readySince: facts.readySince,
    readyChangedAt: facts.readyChangedAt,
    assigned: facts.assigned,
    restartCount: facts.restartCount,
    maxRestarts: facts.maxRestarts,
    creationTimestamp: facts.creationTimestamp,
    finishedAt: facts.finishedAt,
    terminated: facts.terminated,
    conditions: facts.conditions,
    seq: own.seq,
    lastSeq: own.lastSeq,
    order: own.order,
    version: own.version,
    counted: 'none',
    failureMatch: undefined,
    terminationRequestedAt: undefined,
    gone: own.gone,
    lastEventId: undefined,
    strippedAt: undefined,
    finishedTrackedAt: undefined,
    trackedSeen: undefined,
    strippedLive: undefined,
    released: undefined,
    releasedUntil: undefined,
    deletionRequestedAt: undefined,
    finalizerRemovalRequested: undefined,
    finalizerRemovalRequestedAt: undefined,
    finalizerRemovalAttempts: undefined,
    storedAs: undefined,
    controlledBy: undefined,
    finalCount: undefined,
    finalCountOf: undefined,
    firstSeenAt: own.firstSeenAt,
    lastSeenAt: own.lastSeenAt,
  };
}

/**
 * Puts merged facts on the record, field by field. Object.assign's generic copy (and the object
 * it was handed for lastSeq) was a good part of a pod event's cost (issue 20). Every field of
 * PodFacts is copied: test/unit/job/take-facts.spec.ts fails for one left out.
 */
export function takeFacts(record: PodRecord, facts: PodFacts): void {
  const to: { -readonly [K in keyof PodFacts]: PodFacts[K] } = record;
  to.uid = facts.uid;
  to.name = facts.name;
  to.namespace = facts.namespace;
  to.phase = facts.phase;
  to.index = facts.index;
  to.failureCount = facts.failureCount;
  to.ignoredFailureCount = facts.ignoredFailureCount;
  to.deletionTimestamp = facts.deletionTimestamp;
  to.hasFinalizer = facts.hasFinalizer;
  to.ready = facts.ready;
  to.readySince = facts.readySince;
  to.readyChangedAt = facts.readyChangedAt;
  to.assigned = facts.assigned;
  to.restartCount = facts.restartCount;
  to.maxRestarts = facts.maxRestarts;
  to.creationTimestamp = facts.creationTimestamp;
  to.finishedAt = facts.finishedAt;
  to.terminated = facts.terminated;
  to.conditions = facts.conditions;
}

/** Whether the observation carried a Ready condition (any status). */
export const reportsReady = (facts: PodFacts): boolean => facts.ready || facts.readyChangedAt !== undefined;

function keptConditions(known: PodFacts, seen: PodFacts): PodFacts['conditions'] {
  // Most pods never had one: no filtered copy per pod event.
  if (known.conditions.length === 0) return seen.conditions;
  const kept = known.conditions.filter((c) => !seen.conditions.some((s) => s.type === c.type));
  return kept.length === 0 ? seen.conditions : [...seen.conditions, ...kept];
}

// Most pods' lists are empty: compared without serializing them (run per pod event).
const sameList = <T>(a: readonly T[], b: readonly T[]): boolean =>
  a === b || (a.length === b.length && (a.length === 0 || JSON.stringify(a) === JSON.stringify(b)));

function sameFacts(a: PodFacts, b: PodFacts): boolean {
  return (
    a.phase === b.phase &&
    sameList(a.conditions, b.conditions) &&
    sameList(a.terminated, b.terminated) &&
    a.deletionTimestamp === b.deletionTimestamp &&
    a.hasFinalizer === b.hasFinalizer &&
    a.ready === b.ready &&
    a.restartCount === b.restartCount &&
    a.index === b.index &&
    a.assigned === b.assigned &&
    a.failureCount === b.failureCount &&
    a.ignoredFailureCount === b.ignoredFailureCount
  );
}

/**
 * When a pod's outcome was first seen: an observation showing it finished (or being deleted,
 * which counts as failed) with the tracking finalizer, or one showing the finalizer gone (the
 * sync that counted it read it finished before); else its deletion.
 */
export function outcomeSeenAt(pod: PodRecord): number | undefined {
  const seen = Math.min(pod.finishedTrackedAt ?? Infinity, pod.strippedAt ?? Infinity);
  return seen === Infinity ? pod.deletionTimestamp : seen;
}
