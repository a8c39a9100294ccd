/**
 * Issue 21, "no harmful command from a transient view": whether a CreatePod must be skipped
 * because the cluster's live state, read just before acting, already holds what the decision
 * wanted. Upstream's Job controller decides on an informer view seconds old; jobfold's view may be
 * minutes old (a creation expectation expires while the created pods' first events are still in
 * flight), so the executor re-checks what upstream would re-check on its next sync:
 *
 * - `job-suspended`: the live Job is suspended; upstream creates no pod for a suspended Job
 *   (`manageJob` deletes the active ones instead).
 * - `parallelism-reached`: the live Job already has `spec.parallelism` active pods (not terminal,
 *   no deletionTimestamp); upstream's `wantActive` never exceeds parallelism, so it creates none.
 *   Under `podReplacementPolicy: Failed` (which a pod failure policy implies, upstream
 *   `onlyReplaceFailedPods`) terminating pods (a deletionTimestamp, not terminal yet) count too:
 *   upstream's `manageJob` creates `wantActive - terminating - active`.
 * - `index-active`: an Indexed Job already has an active pod of the command's index; upstream
 *   never creates a pod for an index with an active one (`firstPendingIndexes`).
 * - `index-terminating`: under `podReplacementPolicy: Failed`, the index has a terminating pod;
 *   `firstPendingIndexes` counts it covered until it is terminal.
 * - `index-failure-unseen` (backoffLimitPerIndex): the index has a failed pod still holding the
 *   tracking finalizer whose failure counts (`job-index-failure-count` and
 *   `job-index-ignored-failure-count` together) are at least the command's. Upstream replaces the
 *   index's failed pod that still holds the finalizer (`getPodsWithDelayedDeletionPerIndex`) and
 *   gives the replacement its counts plus that failure (`getNewIndexFailureCounts`), so the
 *   decision was made without that failure: upstream's next sync counts it first (it may fail the
 *   index or the Job, and its per-index backoff runs from it), and a pod created now would carry a
 *   failure count one too low. A failed pod whose finalizer is gone was counted and replaced
 *   already, or released (a pod deleted for a suspension): upstream starts the index's counts
 *   afresh past it, and so does jobfold.
 * - `completions-reached`: the pods the API server still holds already complete the Job: an
 *   Indexed Job has a succeeded pod of the index (a completed index is never run again); a
 *   NonIndexed Job has as many active (and, under `podReplacementPolicy: Failed`, terminating)
 *   and succeeded pods as `completions`, or, without `completions`, one succeeded pod (upstream
 *   then creates none: the work queue is done). Pods whose finalizer was removed may be gone, so
 *   this undercounts upstream's `succeeded`: it refuses only what upstream would refuse too.
 *
 * Pure, so the forwarder (forwarder/commands/apply-command.ts) and the closed loop's simulated
 * cluster (test/property/job/managed-histories.ts) apply one and the same guard. A skipped
 * command never wedges a Job: the fold's creation expectation expires and the next sync decides
 * on a view that holds the pods it did not know.
 */

/** One of the Job's pods as the API server shows it now. */
export interface LivePod {
  /** The completion index (undefined for a NonIndexed Job's pod, NaN for an unreadable annotation). */
  readonly index: number | undefined;
  /** Phase Succeeded or Failed. */
  readonly terminal: boolean;
  /** Phase Succeeded. */
  readonly succeeded: boolean;
  /** Has a deletionTimestamp. */
  readonly deleting: boolean;
  /** Holds the `batch.kubernetes.io/job-tracking` finalizer (its outcome not counted yet). */
  readonly tracked: boolean;
  /**
   * `job-index-failure-count` plus `job-index-ignored-failure-count` (backoffLimitPerIndex; an
   * absent annotation counts 0); undefined when the pod carries neither or one is unreadable.
   */
  readonly indexFailures?: number;
}

/** The live Job's fields the guard reads (parallelism as the API server defaults it: 1 when unset). */
export interface LiveJob {
  readonly parallelism: number;
  /** `spec.completions`; undefined when unset (a NonIndexed work queue). */
  readonly completions: number | undefined;
  readonly suspended: boolean;
  /** `podReplacementPolicy: Failed`, or a pod failure policy (upstream `onlyReplaceFailedPods`). */
  readonly onlyReplaceFailedPods: boolean;
}

/** What the CreatePod asks for: its index (undefined: NonIndexed) and, under backoffLimitPerIndex, the new pod's failure counts. */
export interface WantedPod {
  readonly index: number | undefined;
  readonly indexFailureCount?: number | undefined;
  readonly indexIgnoredFailureCount?: number | undefined;
}

export type CreationRefusal =
  | 'job-suspended'
  | 'parallelism-reached'
  | 'index-active'
  | 'index-terminating'
  | 'index-failure-unseen'
  | 'completions-reached';

/** Upstream `onlyReplaceFailedPods`, from the live Job's spec. */
export const onlyReplaceFailedPods = (spec: { readonly podReplacementPolicy?: string | null; readonly podFailurePolicy?: unknown }): boolean =>
  spec.podReplacementPolicy === 'Failed' || (spec.podFailurePolicy !== undefined && spec.podFailurePolicy !== null);

/** Why the CreatePod for `wanted` must not create, or undefined when it may. */
export function creationRefusal(job: LiveJob, wanted: WantedPod, pods: readonly LivePod[]): CreationRefusal | undefined {
  if (job.suspended) return 'job-suspended';
  const active = pods.filter((pod) => !pod.terminal && !pod.deleting);
  // Upstream `FilterTerminatingPods`: being deleted, not terminal yet; they block a replacement only under Failed.
  const terminating = job.onlyReplaceFailedPods ? pods.filter((pod) => !pod.terminal && pod.deleting) : [];
  if (active.length + terminating.length >= job.parallelism) return 'parallelism-reached';
  const { index } = wanted;
  if (index !== undefined) {
    if (active.some((pod) => pod.index === index)) return 'index-active';
    if (terminating.some((pod) => pod.index === index)) return 'index-terminating';
    if (pods.some((pod) => pod.succeeded && pod.index === index)) return 'completions-reached';
    return failureUnseen(wanted, pods) ? 'index-failure-unseen' : undefined;
  }
  const succeeded = pods.filter((pod) => pod.succeeded).length;
  const complete = job.completions === undefined ? succeeded > 0 : active.length + terminating.length + succeeded >= job.completions;
  return complete ? 'completions-reached' : undefined;
}

/** A tracked failed pod of the index whose failures the command's counts do not go beyond (only a command that carries counts). */
function failureUnseen(wanted: WantedPod, pods: readonly LivePod[]): boolean {
  if (wanted.indexFailureCount === undefined) return false;
  const asked = wanted.indexFailureCount + (wanted.indexIgnoredFailureCount ?? 0);
  return pods.some(
    (pod) => pod.terminal && !pod.succeeded && pod.tracked && pod.index === wanted.index && pod.indexFailures !== undefined && pod.indexFailures >= asked,
  );
}
