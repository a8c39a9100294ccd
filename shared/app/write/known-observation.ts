import type { Decision } from '../../job/decisions.ts';
import type { Observation } from '../../job/events.ts';
import { podFacts } from '../../job/pod-facts.ts';
import { mergeFacts } from '../../job/pod-record.ts';
import { stableHash } from '../../job/stable-hash.ts';
import { clockSkewOf, type JobState } from '../../job/state.ts';
import { compareOrder, isStaleObservation } from '../../k8s/object-sequence.ts';
import { compareTimes, parseTime } from '../../k8s/time.ts';
import { observedInstant } from '../../job/cluster-clock.ts';
import { jobObservationOrder } from '../../job/observe-job.ts';
import { podObservationOrder } from '../../job/observe-pod.ts';
import { recordOrder } from '../../job/pod-record.ts';
import { contentFingerprint, contentHash, type EventIdIndex } from './event-id-index.ts';

// Dedupe without per-event markers: the single writer of a Job's log drops an observation the
// log already holds — by eventId against the whole log (event-id-index.ts), then what the fold
// already knows — judged against the state at the position the observation would take. So
// what is dropped depends on the log alone, never on how deliveries were batched.

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
      return state.pods.get(observation.uid)?.gone ? 'already-gone' : undefined;
    case 'JobObserved': {
      if (state.jobEventId === observation.eventId) return 'same-event';
      const order = jobObservationOrder(observation);
      const known = { version: state.jobVersion, sequence: state.jobOrder };
      if (isStaleObservation(known, order)) return 'stale';
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

/** An observation refused and recorded (ObservationRefused): its reason, message and, for a conflict, both contents. */
export interface RefusedObservation {
  readonly observation: Observation;
  readonly reason: 'ConflictingDuplicate' | 'UidReused';
  /** The inbound field the refusal names (for the rejection's error path). */
  readonly field: 'detail.eventId' | 'detail.object.metadata.name' | 'detail.object.metadata.namespace';
  readonly message: string;
  /** A conflicting duplicate: where the eventId is first (in the log, or earlier in the batch), and SHA-256 of both contents. */
  readonly conflict?: { readonly firstSeq: number; readonly firstHash: string; readonly refusedHash: string };
}

/** The log's entries a repeated eventId may point at, read back to tell a conflict from a fingerprint collision. */
export type StoredFirsts = ReadonlyMap<number, { readonly eventId: string; readonly hash: string }>;

/** What keepNews judges a batch against, and what it reports. */
export interface KnownLog {
  readonly index: EventIdIndex;
  readonly stored: StoredFirsts;
  readonly dropped: Map<KnownReason | 'in-batch', number>;
  readonly refused: RefusedObservation[];
}

/** The positions of `observations`' repeated eventIds whose content differs from the logged one's: to read back. */
export function conflictCandidates(index: EventIdIndex, observations: readonly Observation[]): number[] {
  const seqs = new Set<number>();
  for (const observation of observations) {
    const hits = index.lookup(observation.eventId);
    if (hits.length === 0) continue;
    const content = contentFingerprint(observation);
    if (hits.some((hit) => hit.content === content)) continue;
    for (const hit of hits) seqs.add(hit.seq);
  }
  return [...seqs].sort((a, b) => a - b);
}

/**
 * The `keep` of decideAtEachPosition for one batch: drops what the log already holds
 * (knownObservation), an eventId the log or the batch holds with the same content, and refuses
 * one it holds with another content or a Job's uid under another name, logging an
 * ObservationRefused in its place (once per refused content). Counts what it drops, by reason.
 */
export function keepNews(known: KnownLog): (state: JobState, observation: Observation) => boolean | Decision {
  const { index, stored, dropped, refused } = known;
  /** This batch's logged observations by eventId: position and content fingerprint. */
  const batch = new Map<string, { seq: number; content: number; observation: Observation }>();
  const refusals = new Set<string>();
  const drop = (reason: KnownReason | 'in-batch'): false => {
    dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
    return false;
  };
  return (state, observation) => {
    const content = contentFingerprint(observation);
    const earlier = batch.get(observation.eventId);
    if (earlier) {
      if (earlier.content === content) return drop('in-batch');
      const first = { seq: earlier.seq, hash: contentHash(earlier.observation) };
      return first.hash === contentHash(observation) ? drop('in-batch') : refuse(observation, first);
    }
    const hits = index.lookup(observation.eventId);
    if (hits.some((hit) => hit.content === content)) return drop('same-event');
    const first = hits.map((hit) => ({ seq: hit.seq, stored: stored.get(hit.seq) })).find((hit) => hit.stored?.eventId === observation.eventId);
    if (first?.stored) {
      return first.stored.hash === contentHash(observation) ? drop('same-event') : refuse(observation, { seq: first.seq, hash: first.stored.hash });
    }
    if (observation.type === 'JobObserved' && state.identity && observation.job.metadata.name !== state.identity.name) {
      return record(observation, 'UidReused',
        `uid ${state.identity.uid} is Job ${state.identity.namespace}/${state.identity.name} in this log; an observation names it ${observation.job.metadata.name}: refused`);
    }
    const reason = knownObservation(state, observation);
    if (reason !== undefined) return drop(reason);
    batch.set(observation.eventId, { seq: state.position + 1, content, observation });
    return true;
  };

  function refuse(observation: Observation, first: { seq: number; hash: string }): Decision | false {
    const refusedHash = contentHash(observation);
    return record(observation, 'ConflictingDuplicate',
      `eventId ${observation.eventId} is in the log at position ${first.seq} with content ${first.hash.slice(0, 16)}…; `
      + `this ${observation.type} has content ${refusedHash.slice(0, 16)}…: the first stays, this one is refused`,
      { firstSeq: first.seq, firstHash: first.hash, refusedHash });
  }

  /** Reports the refusal, and returns its record, or false when this very refusal is logged already. */
  function record(observation: Observation, reason: RefusedObservation['reason'], message: string,
    conflict?: RefusedObservation['conflict']): Decision | false {
    drop(reason === 'UidReused' ? 'uid-reused' : 'conflict');
    refused.push({ observation, reason, field: reason === 'UidReused' ? 'detail.object.metadata.name' : 'detail.eventId', message, ...(conflict ? { conflict } : {}) });
    const eventId = `${observation.eventId}/refused/${(conflict?.refusedHash ?? contentHash(observation)).slice(0, 16)}`;
    if (refusals.has(eventId) || index.lookup(eventId).length > 0) return false;
    refusals.add(eventId);
    return {
      type: 'ObservationRefused', eventId, at: observation.observedAt,
      refusedEventId: observation.eventId, refusedType: observation.type, reason, message, ...(conflict ? { conflict } : {}),
    };
  }
}
