import type { Observation } from './events.ts';
import type { Decision } from './decisions.ts';
import { applyDecision } from './apply-decision.ts';
import { observeJob } from './observe-job.ts';
import { observePod, podDeleted } from './observe-pod.ts';
import type { JobState } from './state.ts';
import { trackChildStatus } from './child-status-version.ts';
import { enterRun } from './run.ts';

const isObservation = (event: JobEvent): boolean =>
  event.type === 'PodObserved' || event.type === 'PodDeleted' || event.type === 'JobObserved' || event.type === 'JobDeleted';

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
  enterRun(state, event);
  if (state.finishedAt !== undefined && isObservation(event)) state.observedAfterFinish += 1;
  if ('observedAt' in event && (state.newestObservedAt === undefined || event.observedAt > state.newestObservedAt)) {
    state.newestObservedAt = event.observedAt;
  }
  switch (event.type) {
    case 'PodObserved':
      observePod(state, event);
      break;
    case 'PodDeleted':
      podDeleted(state, event);
      break;
    case 'JobObserved':
      observeJob(state, event);
      break;
    case 'JobDeleted':
      state.deleted = true;
      break;
    case 'Tick':
      if (state.lastTickAt === undefined || event.observedAt > state.lastTickAt) state.lastTickAt = event.observedAt;
      break;
    default:
      applyDecision(state, event);
  }
  trackChildStatus(state);
  return state;
}
