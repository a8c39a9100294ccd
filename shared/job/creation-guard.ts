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
 * - `index-active`: an Indexed Job already has an active pod of the command's index; upstream
 *   never creates a pod for an index with an active one (`firstPendingIndexes`).
 * - `completions-reached`: the pods the API server still holds already complete the Job: an
 *   Indexed Job has a succeeded pod of the index (a completed index is never run again); a
 *   NonIndexed Job has as many active and succeeded pods as `completions`, or, without
 *   `completions`, one succeeded pod (upstream then creates none: the work queue is done). Pods
 *   whose finalizer was removed may be gone, so this undercounts upstream's `succeeded`: it
 *   refuses only what upstream would refuse too.
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
}

/** The live Job's fields the guard reads (parallelism as the API server defaults it: 1 when unset). */
export interface LiveJob {
  readonly parallelism: number;
  /** `spec.completions`; undefined when unset (a NonIndexed work queue). */
  readonly completions: number | undefined;
  readonly suspended: boolean;
}

export type CreationRefusal = 'job-suspended' | 'parallelism-reached' | 'index-active' | 'completions-reached';

/** Why the CreatePod for `index` (undefined: NonIndexed) must not create, or undefined when it may. */
export function creationRefusal(job: LiveJob, index: number | undefined, pods: readonly LivePod[]): CreationRefusal | undefined {
  if (job.suspended) return 'job-suspended';
  const active = pods.filter((pod) => !pod.terminal && !pod.deleting);
  if (active.length >= job.parallelism) return 'parallelism-reached';
  if (index !== undefined) {
    if (active.some((pod) => pod.index === index)) return 'index-active';
    return pods.some((pod) => pod.succeeded && pod.index === index) ? 'completions-reached' : undefined;
  }
  const succeeded = pods.filter((pod) => pod.succeeded).length;
  const complete = job.completions === undefined ? succeeded > 0 : active.length + succeeded >= job.completions;
  return complete ? 'completions-reached' : undefined;
}
