import { parseIndexes } from '../indexes/index-set.ts';
import { rebuildAggregates } from './aggregates.ts';
import { jobSettings } from './job-settings.ts';
import { isTerminalPhase, type PodRecord } from './pod-record.ts';
import { initialState, type FoldConfig, type JobState } from './state.ts';
import type { PodFacts } from './pod-facts.ts';

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

export const SNAPSHOT_VERSION = 1;

export interface JobSnapshot {
  readonly version: typeof SNAPSHOT_VERSION;
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
}

/** A pod whose future observations can no longer change the Job. */
export function isSettled(state: JobState, pod: PodRecord): boolean {
  if (state.held.get(pod.index) === pod.uid) return false;
  if (pod.gone) return true;
  return isTerminalPhase(pod.phase) && (pod.counted !== 'none' || !pod.hasFinalizer);
}

export function archivePod(pod: PodRecord): ArchivedPod {
  const { uid, name, namespace, phase, index, counted, gone, seq } = pod;
  return { uid, name, namespace, phase, index, counted, gone, seq };
}

/** The state without its settled pods, as JSON; `archived` lists the settled pods. */
export function takeSnapshot(state: JobState): { snapshot: JobSnapshot; archived: ArchivedPod[] } {
  const live: PodRecord[] = [];
  const archived: ArchivedPod[] = [];
  for (const pod of state.pods.values()) {
    if (isSettled(state, pod)) archived.push(archivePod(pod));
    else live.push(pod);
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
      deleted: state.deleted,
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
      failJob: state.failJob,
      expectations: { ...expectations, deletions: [...expectations.deletions] },
      lastSucceeded: state.lastSucceeded,
      creationRequests: state.creationRequests,
      lastStatusSent: state.lastStatusSent,
    },
    pods: live.map(encodePod),
  };
  return { snapshot, archived };
}

/** Rebuilds the state from a snapshot; archived pods can be restored with `restoreArchived`. */
export function restoreSnapshot(snapshot: JobSnapshot): JobState {
  const s = snapshot.state as Record<string, any>;
  const state = initialState(s['config'] as FoldConfig);
  const completions = (s['spec']?.completions as number | undefined) ?? Number.MAX_SAFE_INTEGER;
  Object.assign(state, {
    identity: s['identity'],
    spec: s['spec'],
    settings: s['spec'] ? jobSettings(s['spec']) : undefined,
    rejected: s['rejected'],
    rejectionRecorded: s['rejectionRecorded'],
    deleted: s['deleted'],
    nextPodSeq: s['nextPodSeq'],
    position: s['position'],
    held: new Map(s['held']),
    heldCountable: s['heldCountable'],
    backoff: s['backoff'],
    failJob: s['failJob'],
    expectations: { ...s['expectations'], deletions: new Set(s['expectations'].deletions) },
    lastSucceeded: s['lastSucceeded'],
    creationRequests: s['creationRequests'],
    lastStatusSent: s['lastStatusSent'],
  });
  state.status = {
    ...s['status'],
    completedIndexes: parseIndexes(s['status'].completedIndexes, completions),
    failedIndexes: parseIndexes(s['status'].failedIndexes, completions),
  };
  for (const encoded of snapshot.pods) {
    const pod = decodePod(encoded);
    state.pods.set(pod.uid, pod);
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
    state.pods.set(archived.uid, {
      ...archivedFacts(archived),
      seq: archived.seq,
      lastSeq: 0,
      counted: archived.counted,
      failureMatch: undefined,
      terminationRequestedAt: undefined,
      gone: archived.gone,
    });
  }
}

function archivedFacts(pod: ArchivedPod): PodFacts {
  return {
    uid: pod.uid,
    name: pod.name,
    namespace: pod.namespace,
    phase: pod.phase as PodFacts['phase'],
    index: pod.index,
    failureCount: 0,
    ignoredFailureCount: 0,
    deletionTimestamp: undefined,
    hasFinalizer: false,
    ready: false,
    readySince: undefined,
    assigned: true,
    restartCount: 0,
    maxRestarts: 0,
    creationTimestamp: undefined,
    finishedAt: 0,
    terminated: [],
    conditions: [],
  };
}

const encodePod = (pod: PodRecord): unknown => ({ ...pod });
const decodePod = (encoded: unknown): PodRecord => ({ ...(encoded as PodRecord) });

/** A deep copy, through the snapshot form (archived pods included). */
export function cloneState(state: JobState): JobState {
  const { snapshot, archived } = takeSnapshot(state);
  const copy = restoreSnapshot(JSON.parse(JSON.stringify(snapshot)) as JobSnapshot);
  restoreArchived(copy, archived);
  return copy;
}
