import { z } from 'zod';

/**
 * Where one observation of an object stands among the others of the same object, as the
 * forwarder that watched it stamps it (docs/events.md, "Ordering"). EventBridge neither orders
 * nor deduplicates, so a pod's `Running, ready` can arrive before its older `Running, not
 * ready`; the stamp lets the fold tell which is newer without reading resourceVersions, which
 * Kubernetes says to compare only for equality.
 *
 * - `epoch` changes whenever the forwarder lists the object's kind again (a start, a restart,
 *   a relist after 410 Gone or a lost watch): it is the list's start time in epoch
 *   milliseconds, strictly increasing per kind and forwarder. A list shows each object as it is
 *   now, so anything stamped with a later epoch is newer than everything stamped before it.
 * - `seq` counts the observations of one object (by uid) the forwarder sent, from 1.
 *   Within one epoch the watch delivers an object's versions in order, so a higher `seq` is newer.
 */
export const ObjectSequenceSchema = z.object({
  epoch: z.number().int().nonnegative(),
  seq: z.number().int().positive(),
});
export type ObjectSequence = z.infer<typeof ObjectSequenceSchema>;

/** Negative when `a` is older than `b`, 0 for the same observation, positive when newer. */
export function compareSequence(a: ObjectSequence, b: ObjectSequence): number {
  return a.epoch !== b.epoch ? a.epoch - b.epoch : a.seq - b.seq;
}

/**
 * Whether an observation stamped `seen` adds nothing to what is known from one stamped `known`:
 * it is the same observation again, or an older one arriving late. Unstamped observations
 * (older forwarders) are never judged stale here; the fold's own rules order them.
 */
export function isStaleObservation(known: ObjectSequence | undefined, seen: ObjectSequence | undefined): boolean {
  return known !== undefined && seen !== undefined && compareSequence(seen, known) <= 0;
}
