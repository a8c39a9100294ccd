import type { JobEvent } from './evolve.ts';
import type { Observation } from './events.ts';
import type { JobState } from './state.ts';

// First sightings (docs/data-model.md): the writer marks each logged observation that names a
// pod its fold had no record of, so a fold from a snapshot knows which pods its tail names for
// the first time and asks the pod archive only about the others. The writer can tell because
// its state holds every pod the log has named before the batch: kept warm it keeps settled
// pods, and loaded from a snapshot it has the archived records of the pods the batch names
// put back (shared/decide/load-log.ts `loadForWrite`). A pod it had no record of cannot be in
// the archive as of any earlier snapshot, which only ever holds pods some earlier state had.

/** The pods `observations` name that `state` has no record of, taken before the batch is folded. */
export function unseenPods(state: JobState, observations: readonly Observation[]): Set<string> {
  const unseen = new Set<string>();
  for (const observation of observations) {
    const uid = podNamed(observation);
    if (uid !== undefined && !state.pods.has(uid)) unseen.add(uid);
  }
  return unseen;
}

/** The seqs of the entries that name a pod of `unseen` first, in log order. */
export function firstSightingSeqs(entries: readonly JobEvent[], unseen: ReadonlySet<string>): number[] {
  const named = new Set<string>();
  const seqs: number[] = [];
  for (const event of entries) {
    const uid = podNamed(event);
    if (uid === undefined || !unseen.has(uid) || named.has(uid) || event.seq === undefined) continue;
    named.add(uid);
    seqs.push(event.seq);
  }
  return seqs;
}

/** The pod an observation names (what a fold from a snapshot may have to look up). */
export function podNamed(event: JobEvent | Observation): string | undefined {
  if (event.type === 'PodObserved') return event.pod.metadata.uid;
  if (event.type === 'PodDeleted') return event.uid;
  return undefined;
}
