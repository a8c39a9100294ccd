import type { Observation } from './events.ts';
import type { Decision } from './decisions.ts';
import { applyDecision } from './apply-decision.ts';
import { observeJob } from './observe-job.ts';
import { countAtSync, observePod, podDeleted } from './observe-pod.ts';
import { clockSkewOf, type JobState } from './state.ts';
import { advance, readObservation } from './cluster-clock.ts';
import { laterTime, parseTime } from '../k8s/time.ts';
import { trackChildStatus } from './child-status-version.ts';
import { noteJobSetSeq } from './child-job-status.ts';
import { enterRun, startsRun } from './run.ts';
import { countLateOutcome, countsBeforeLateOutcome, settleAfterFinish } from './late-outcome.ts';
import { notePodCount } from './pod-view-gap.ts';
import { noteJobEventCount, noteJobEventsNamed } from './job-view-gap.ts';
import { deletionMovesNoInstant, observationMovesNoInstant, podObservationMark } from './criterion-instants.ts';
import { metBeforeMark, noteObservationMetBefore, openMetBefore } from './met-before.ts';
import { isTerminalPhase, type PodCount } from './pod-record.ts';

const isObservation = (event: JobEvent): boolean =>
  event.type === 'PodObserved' || event.type === 'PodDeleted' || event.type === 'JobObserved' || event.type === 'JobDeleted';

/**
 * The pod's count before an observation of the pod is folded (late-outcome.ts settleAfterFinish).
 * Looked up only once jobfold finished the Job (folding a pod event never finishes it), when
 * settleAfterFinish reads it: a lookup among 100,000 pods is a good part of a pod event's cost.
 */
const countedBefore = (state: JobState, uid: string): PodCount =>
  state.finishedInstant === undefined ? 'none' : (state.pods.get(uid)?.counted ?? 'none');

/** Everything a Job's log holds. */
export type JobEvent = Observation | Decision;

/**
 * The fold: applies one logged event to the Job's state. Pure in the sense that matters (no
 * I/O, clock or randomness: the same log always gives the same state), but it updates the
 * given state in place and returns it, so folding stays O(1) per event. Callers hand the state
 * over; keep a copy (`cloneState`) if the old one is still needed.
 */
export function evolve(state: JobState, event: JobEvent): JobState {
  state.position = event.seq ?? state.position + 1;
  // Read once here for the run (parseTime remembers it for the clock's reading below).
  const observedMs = 'observedAt' in event ? parseTime(event.observedAt) : undefined;
  // A run ended: its sync counted what its observations changed (observe-pod.ts countAtSync).
  if (state.countDue.size > 0 && startsRun(state, event, observedMs)) countAtSync(state);
  enterRun(state, event, observedMs);
  if (state.finishedAt !== undefined && isObservation(event)) state.observedAfterFinish += 1;
  let at = 0;
  const clockBefore = state.clock.now;
  if ('observedAt' in event) {
    at = readObservation(state.clock, event, clockSkewOf(state.config));
    state.newestObservedAt = laterTime(event.observedAt, state.newestObservedAt);
  } else {
    // A decision was taken at its time: later reconciles do not run earlier.
    advance(state.clock, parseTime(event.at));
  }
  // Decided on since, the criteria's instants stay remembered only if this event cannot move
  // one: a pod observation is judged by what it changed (below), others before they are folded.
  if (event.type !== 'PodObserved' && !(event.type === 'PodDeleted' && deletionMovesNoInstant(state, event.uid))) {
    state.criterionMemo.epoch += 1;
    openMetBefore(state);
  }
  switch (event.type) {
    case 'PodObserved': {
      const uid = event.pod.metadata.uid;
      const mark = podObservationMark(state, uid);
      const beforeMark = metBeforeMark(state, uid);
      const counted = countedBefore(state, uid);
      const finalBefore = state.finalStatus;
      const before = countsBeforeLateOutcome(state, at);
      observePod(state, event, at);
      if (before) countLateOutcome(state, before);
      settleAfterFinish(state, uid, isTerminalPhase(event.pod.status?.phase ?? 'Pending') ? undefined : at, counted, finalBefore);
      if (!observationMovesNoInstant(state, uid, mark)) {
        state.criterionMemo.epoch += 1;
        // An outcome seen at or after the finish's instant keeps criterionMetEarlier from walking the pods.
        noteObservationMetBefore(state, uid, beforeMark);
      }
      // A copy for the Job that created a pod another Job controls carries that Job's count.
      if (event.controlledBy === undefined) {
        notePodCount(state, event.sequence, at);
        noteJobEventsNamed(state, event.sequence, at);
      }
      break;
    }
    case 'PodDeleted': {
      const counted = countedBefore(state, event.uid);
      const finalBefore = state.finalStatus;
      const before = countsBeforeLateOutcome(state, at);
      podDeleted(state, event, at);
      if (before) countLateOutcome(state, before);
      settleAfterFinish(state, event.uid, undefined, counted, finalBefore);
      notePodCount(state, event.sequence, at);
      noteJobEventsNamed(state, event.sequence, at);
      break;
    }
    case 'JobObserved':
      observeJob(state, event, at, clockBefore);
      noteJobSetSeq(state, event);
      noteJobEventCount(state, event.sequence, at);
      break;
    case 'JobDeleted':
      state.deleted = true;
      break;
    case 'Tick':
      state.lastTickAt = laterTime(event.observedAt, state.lastTickAt);
      break;
    default:
      applyDecision(state, event);
  }
  trackChildStatus(state);
  return state;
}

