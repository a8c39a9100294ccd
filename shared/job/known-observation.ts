import type { Decision } from './decisions.ts';
import type { RefusedObservation } from '../decide/keep-news.ts';
import type { Observation } from './events.ts';
import { podFacts } from './pod-facts.ts';
import { stableHash } from './stable-hash.ts';
import { clockSkewOf, type JobState } from './state.ts';
import { compareOrder, isStaleObservation } from '../k8s/object-sequence.ts';
import { compareTimes, parseTime } from '../k8s/time.ts';
import { observedInstant } from './cluster-clock.ts';
import { jobObservationOrder, staleJobObservationTells } from './observe-job.ts';
import { podObservationOrder } from './observe-pod.ts';
import { mergeFacts, recordOrder } from './pod-record.ts';
import { podCountUnlogged } from './pod-view-gap.ts';
import { jobCountUnlogged } from './job-view-gap.ts';

// What a Job's fold already holds, and what a Job's log refuses (shared/decide/keep-news.ts runs
// them after its lookup of the eventId against the whole log): the Job decider's `known`,
// `content`, `refuses` and `refusal`.

/** Why an observation is not logged. */
export type KnownReason =
  | 'same-event' // its eventId is in the log already, with the same content (or is the last one the fold took for that object)
  | 'conflict' // its eventId is in the log already, with another content: refused (ObservationRefused)
  | 'uid-reused' // a Job observation naming the log's uid under another name: refused (ObservationRefused)
  | 'stale' // its resourceVersion or the forwarder's stamp (neither: a Job's time) says it is older than what the fold took
  | 'unchanged' // unstamped, no newer than what the fold saw, and changes nothing (a replay)
  | 'already-gone' // a deletion of a pod (or Job) the fold already saw deleted
  | 'old-tick'; // a Tick at or before the newest Tick folded

/**
 * Whether the fold already holds `observation` (and why), or undefined when it is news.
 * Logged as before, changing nothing: an unstamped older pod version that still differs from
 * what the fold knows (the fold's merge rules keep it from moving the pod backwards).
 */
export function knownObservation(state: JobState, observation: Observation): KnownReason | undefined {
  switch (observation.type) {
    case 'PodObserved': {
      const known = state.pods.get(observation.pod.metadata.uid);
      if (!known) return undefined;
      if (known.lastEventId === observation.eventId) return 'same-event';
      // Late and changing nothing of its pod, but its count is what a Job jobfold runs waits for.
      if (observation.controlledBy === undefined && podCountUnlogged(state, observation.sequence)) return undefined;
      const order = podObservationOrder(observation);
      if (isStaleObservation(recordOrder(known), order)) return 'stale';
      // Unordered (older forwarders, no comparable versions): a replay is no newer than the newest
      // observation folded and changes nothing. A new version that changes nothing is still
      // logged: upstream syncs on it (a pod update with a new resourceVersion), at its time.
      if (compareOrder(order, recordOrder(known)) !== undefined) return undefined;
      if (state.newestObservedAt === undefined || compareTimes(observation.observedAt, state.newestObservedAt) > 0) return undefined;
      const facts = podFacts(observation.pod, state.settings?.sidecarNames ?? new Set(), state.settings?.policyInterest);
      return mergeFacts(known, facts) === undefined ? 'unchanged' : undefined;
    }
    case 'PodDeleted':
      return state.pods.get(observation.uid)?.gone && !podCountUnlogged(state, observation.sequence) ? 'already-gone' : undefined;
    case 'JobObserved': {
      if (state.jobEventId === observation.eventId) return 'same-event';
      // Late or a replay, its `jobSetSeq` is what the JobSet's log waits for (child-job-status.ts).
      if (observation.sequence?.jobSetSeq !== undefined) return undefined;
      // Late or a replay, its own count is what a Job jobfold runs waits for (job-view-gap.ts).
      if (jobCountUnlogged(state, observation.sequence)) return undefined;
      const order = jobObservationOrder(observation);
      const known = { version: state.jobVersion, sequence: state.jobOrder };
      // Older by its order: the fold takes no spec from it, but may learn what it tells of then.
      if (isStaleObservation(known, order)) {
        return staleJobObservationTells(state, observation, observedInstant(observation, clockSkewOf(state.config)).at) ? undefined : 'stale';
      }
      if (compareOrder(order, known) !== undefined || state.jobObservedAt === undefined) return undefined;
      // Unordered: observed before the newest Job observation the fold took with a trusted
      // stamp, it is older (a watch delivers an object's versions in order); at or before the
      // newest observation with the spec the fold holds (and no refused update to withdraw), it
      // is a replay. Compared on the cluster's clock: a stamp beyond the allowed skew counts as
      // its arrival time, and never as the time later ones are judged by (observe-job.ts).
      const observedAt = observedInstant(observation, clockSkewOf(state.config)).at;
      if (observedAt < parseTime(state.jobObservedAt)) return 'stale';
      const replay = state.refusedUpdate === undefined && stableHash(observation.job.spec) === stableHash(state.spec);
      return replay && state.newestObservedAt !== undefined && compareTimes(observation.observedAt, state.newestObservedAt) <= 0 ? 'unchanged' : undefined;
    }
    case 'JobDeleted':
      return state.deleted ? 'already-gone' : undefined;
    case 'Tick':
      return state.lastTickAt !== undefined && compareTimes(observation.observedAt, state.lastTickAt) <= 0 ? 'old-tick' : undefined;
  }
}

/** What an observation says, without its eventId and stamps (observedAt, the forwarder's sequence). */
export function observationContent(observation: Observation): unknown {
  switch (observation.type) {
    case 'PodObserved':
      return [observation.type, observation.pod];
    case 'PodDeleted':
      return [observation.type, observation.uid, observation.name ?? null, observation.namespace ?? null];
    case 'JobObserved':
      return [observation.type, observation.job];
    case 'JobDeleted':
      return [observation.type, observation.uid];
    case 'Tick':
      return [observation.type];
    default: {
      const exhaustive: never = observation;
      throw new Error(`unknown observation ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** A Job observation naming the log's uid under another name is refused: the message, or undefined. */
export function reusedUid(state: JobState, observation: Observation): string | undefined {
  if (observation.type !== 'JobObserved' || !state.identity || observation.job.metadata.name === state.identity.name) return undefined;
  return `uid ${state.identity.uid} is Job ${state.identity.namespace}/${state.identity.name} in this log; an observation names it ${observation.job.metadata.name}: refused`;
}

/** The record a Job's log keeps of a refused observation, in its place: it changes nothing and starts no sync. */
export function refusalRecord(refused: RefusedObservation<Observation>, contentKey: string): Decision {
  const { observation, reason, message, conflict } = refused;
  return {
    type: 'ObservationRefused', eventId: `${observation.eventId}/refused/${contentKey}`, at: observation.observedAt,
    refusedEventId: observation.eventId, refusedType: observation.type, reason, message, ...(conflict ? { conflict } : {}),
  };
}
