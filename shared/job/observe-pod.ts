import { isStaleObservation } from '../k8s/object-sequence.ts';
import { parseTime } from '../k8s/time.ts';
import type { PodDeleted, PodObserved } from './events.ts';
import { enter, leave } from './aggregates.ts';
import { countPod, judgeFailure, judgeIndex, rejudgeIndexes, releaseHeld, unhold } from './counting.ts';
import { podFacts, ZERO_TIME_MS, type PodFacts } from './pod-facts.ts';
import { isTerminalPhase, mergeFacts, podClass, type PodRecord } from './pod-record.ts';
import { countingObservation, revokeRunCount } from './run.ts';
import type { JobState } from './state.ts';

/**
 * Folds a pod observation: merge, recount its contribution, apply the counting rules. An
 * observation the forwarder stamped older than (or the same as) one already folded is a late
 * replay: it stays in the log and changes nothing, so a pod never moves backwards.
 */
export function observePod(state: JobState, event: PodObserved, at: number): void {
  const known = state.pods.get(event.pod.metadata.uid);
  if (known && isStaleObservation(known.order, event.sequence)) return;
  const facts = podFacts(event.pod, state.settings?.sidecarNames ?? NO_SIDECARS, state.settings?.policyInterest, at);
  if (known && event.sequence !== undefined) known.order = event.sequence;
  if (known) known.lastEventId = event.eventId;
  if (!known) {
    const pod = newRecord(state, facts, false, event.sequence);
    pod.lastEventId = event.eventId;
    // Upstream `addPod` lowers the creation expectation for any new pod of the Job.
    if (state.expectations.creations > 0) state.expectations.creations -= 1;
    afterChange(state, pod);
    return;
  }
  const merged = mergeFacts(known, facts);
  if (!merged) return; // a replay, or a state older than what is known: nothing changes
  leave(state, known);
  Object.assign(known, merged, { lastSeq: state.position });
  // What was counted (or held) from an older state of the pod is judged again from this one.
  // After the merge: the merged facts may carry the record's old bookkeeping along.
  rejudgeIndexes(state, revokeRunCount(state, known.uid), known.uid);
  unhold(state, known);
  enter(state, known);
  afterChange(state, known);
}

const NO_SIDECARS: ReadonlySet<string> = new Set();

/** Folds the pod's disappearance; the record stays as a tombstone so late events count once. */
export function podDeleted(state: JobState, event: PodDeleted): void {
  const known = state.pods.get(event.uid);
  if (!known) {
    newRecord(state, tombstoneFacts(event), true, undefined).lastEventId = event.eventId;
    // Seeing a pod's deletion first still means the pod was created: lower the expectation,
    // or the arrival order would decide whether the Job waits for it.
    if (state.expectations.creations > 0) state.expectations.creations -= 1;
    return;
  }
  if (known.gone) return;
  leave(state, known);
  known.gone = true;
  known.lastEventId = event.eventId;
  known.lastSeq = state.position;
  enter(state, known);
  state.expectations.deletions.delete(known.uid);
  if (state.held.get(known.index) === known.uid) releaseHeld(state, known.index);
}

function afterChange(state: JobState, pod: PodRecord): void {
  if (pod.deletionTimestamp !== undefined || pod.gone) state.expectations.deletions.delete(pod.uid);
  // A later observation of the pod in this run may overtake what this one counts (run.ts);
  // what a terminal pod counts is final and is not journaled.
  countingObservation(state, pod.uid, !isTerminalPhase(pod.phase), () => {
    judgeFailure(state, pod);
    judgeIndex(state, pod);
    countPod(state, pod);
    if (podClass(pod) === 'active' && pod.index >= 0) releaseHeld(state, pod.index);
  });
}

function newRecord(state: JobState, facts: PodFacts, gone: boolean, order: PodRecord['order']): PodRecord {
  const pod: PodRecord = {
    ...facts,
    seq: state.nextPodSeq++,
    lastSeq: state.position,
    order,
    counted: 'none',
    failureMatch: undefined,
    terminationRequestedAt: undefined,
    gone,
  };
  state.pods.set(pod.uid, pod);
  enter(state, pod);
  return pod;
}

/** What a `PodDeleted` for an unseen pod tells: only that it existed and is gone. */
function tombstoneFacts(event: PodDeleted): PodFacts {
  return {
    uid: event.uid,
    name: event.name ?? event.uid,
    namespace: event.namespace ?? 'default',
    phase: 'Pending',
    index: -1,
    failureCount: 0,
    ignoredFailureCount: 0,
    deletionTimestamp: parseTime(event.observedAt),
    hasFinalizer: true,
    ready: false,
    readySince: undefined,
    readyChangedAt: undefined,
    assigned: false,
    restartCount: 0,
    maxRestarts: 0,
    creationTimestamp: undefined,
    finishedAt: ZERO_TIME_MS,
    terminated: [],
    conditions: [],
  };
}
