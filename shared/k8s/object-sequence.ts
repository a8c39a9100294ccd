import * as z from 'zod';

/**
 * Where one observation of an object stands among the others of the same object, as the
 * forwarder that watched it stamps it (docs/events.md, "Ordering"). EventBridge neither orders
 * nor deduplicates, so a pod's `Running, ready` can arrive before its older `Running, not
 * ready`. Since Kubernetes 1.35 (KEP-5504) the resourceVersion says which is newer
 * (`compareVersions`); the stamp says it for clusters whose versions are not plain integers.
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

/**
 * A pod's stamp adds `jobSeq` (optional: older forwarders send none): the count of the pod
 * events the forwarder sent in this epoch for the pod's Job (the uid its log is keyed by), from
 * 1, in the order sent. One watch delivers a Job's pods in the cluster's order, so the counts a
 * Job's log holds say whether it has every pod event sent before the newest it holds, or lacks
 * one that EventBridge is still delivering (shared/job/pod-view-gap.ts).
 */
export const PodSequenceSchema = ObjectSequenceSchema.extend({
  jobSeq: z.number().int().positive().optional(),
  /**
   * Optional (older forwarders send none; then nothing is known): how many events of the pod's
   * Job (watch events, in the Job epoch `jobEpoch`) the forwarder had sent when it sent this pod
   * event, each Job event carrying its own count (JobSequenceSchema). A Job's log holding this
   * pod event but not every Job event up to that count lacks a Job observation the cluster
   * showed before the pod's (shared/job/job-view-gap.ts). Set together with `jobEpoch`.
   */
  jobEvents: z.number().int().positive().optional(),
  jobEpoch: z.number().int().nonnegative().optional(),
});

/**
 * A Job's stamp adds `jobSetSeq` when a JobSet owns the Job (optional: older forwarders send
 * none): the count of the Job events the forwarder sent in this Job epoch for the Job's JobSet
 * (its `jobset.sigs.k8s.io/jobset-uid` label, else its JobSet owner), from 1, in the order sent.
 * One watch delivers the JobSet's Jobs in the cluster's order, as upstream's Job informer does.
 */
export const JobSequenceSchema = ObjectSequenceSchema.extend({
  jobSetSeq: z.number().int().positive().optional(),
  /**
   * Optional (older forwarders send none): the Job event's own count among the events of its
   * Job the forwarder sent in this Job epoch (`epoch`), from 1, in the order sent; watch events
   * only, as `jobSeq`. Pod events name the count as it stood when they were sent (PodSequenceSchema).
   */
  jobEvents: z.number().int().positive().optional(),
});
/**
 * Any object's stamp (`jobSeq`, `jobEpoch` only ever set on a pod's, `jobSetSeq` on a JobSet's
 * child Job's, `jobEvents` on a Job's and a pod's).
 */
export type ObjectSequence = z.infer<typeof PodSequenceSchema> & z.infer<typeof JobSequenceSchema>;

/** Negative when `a` is older than `b`, 0 for the same observation, positive when newer. */
export function compareSequence(a: ObjectSequence, b: ObjectSequence): number {
  return a.epoch !== b.epoch ? a.epoch - b.epoch : a.seq - b.seq;
}

/**
 * A resourceVersion as KEP-5504 (stable in Kubernetes 1.35) makes it comparable: within a
 * cluster, the versions of objects of one resource type are increasing integers. A version that
 * is not a plain decimal integer (an older cluster's, an aggregated API's) is compared for
 * equality only, as Kubernetes asked before: undefined here.
 */
export function comparableVersion(resourceVersion: string | undefined): string | undefined {
  return resourceVersion !== undefined && /^[1-9][0-9]{0,39}$/.test(resourceVersion) ? resourceVersion : undefined;
}

/** Negative when version `a` is older than `b` (both from comparableVersion). */
export function compareVersions(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** What orders one observation of an object among the others: its version and the forwarder's stamp. */
export interface ObservationOrder {
  /** The object's resourceVersion when comparable (comparableVersion). */
  readonly version?: string | undefined;
  readonly sequence?: ObjectSequence | undefined;
}

/**
 * Negative when `a` is older than `b`, 0 for the same observation, positive when newer;
 * undefined when the two cannot be ordered (neither both versions nor both stamps). The
 * resourceVersion decides first: the cluster's own order, whatever the forwarder's clock did
 * to the stamp's epoch (a restart with a clock behind starts an epoch that looks older).
 */
export function compareOrder(a: ObservationOrder, b: ObservationOrder): number | undefined {
  if (a.version !== undefined && b.version !== undefined) return compareVersions(a.version, b.version);
  if (a.sequence !== undefined && b.sequence !== undefined) return compareSequence(a.sequence, b.sequence);
  return undefined;
}

/**
 * Whether an observation ordered `seen` adds nothing to what is known from one ordered `known`:
 * it is the same observation again, or an older one arriving late. Observations that cannot
 * be ordered (older forwarders, no comparable versions) are never judged stale here; the fold's
 * own rules order them.
 */
export function isStaleObservation(known: ObservationOrder | undefined, seen: ObservationOrder): boolean {
  if (known === undefined) return false;
  const order = compareOrder(seen, known);
  return order !== undefined && order <= 0;
}
