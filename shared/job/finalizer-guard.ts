import * as z from 'zod';
import type { LivePod } from './creation-guard.ts';

/**
 * Issue 21, "nothing cut silently", the finalizer side: why jobfold asks for a pod's
 * `batch.kubernetes.io/job-tracking` finalizer to go, carried by the RemovePodFinalizer command
 * (its `cause`), and whether the forwarder must refuse the removal because the live pod, read just
 * before acting, does not show that cause. Upstream removes the finalizer of a pod only in a sync
 * that can account for it (`canRemoveFinalizer`, and manageJob's `deleteJobPods`); jobfold's
 * request travels through an unordered queue and may reach the cluster before the deletion it was
 * decided with, or after the forwarder refused that deletion (shared/job/deletion-guard.ts), so the
 * forwarder checks the live pod by the cause, and by nothing it remembers. By cause:
 *
 * - `JobDeleting`: the Job has a deletionTimestamp (upstream: the entire Job is terminating, every
 *   finalizer goes). Never refused.
 * - `JobFinished`: the Job met a finish criterion (upstream: a finished condition was chosen; a
 *   running pod counts as failed unless the criterion is SuccessCriteriaMet, and is deleted
 *   with `deleteActivePods`). The log has decided the outcome, which no later change takes back:
 *   never refused.
 * - `PodSucceeded`: the pod was counted from its phase Succeeded (upstream: `pod.Status.Phase ==
 *   v1.PodSucceeded`).
 * - `PodFailed`: the pod was counted from upstream's `isPodFailed`: phase Failed, or a
 *   deletionTimestamp on a pod not succeeded (unless only failed pods are replaced).
 * - `PodDeleted`: jobfold deleted the pod as manageJob does (excess pods, a suspension, an invalid
 *   or duplicated index): upstream's `deleteJobPods` removes the finalizer with the deletion, and
 *   the pod is never counted.
 *
 * `PodSucceeded`, `PodFailed` and `PodDeleted` are refused (`pod-not-finished`,
 * `pod-not-deleted`) while the live pod is neither terminal nor being deleted: a phase does not
 * go back from Succeeded or Failed, nor does a deletionTimestamp go, so a pod that shows neither
 * was not what the decision saw — its deletion was refused, or has not reached it yet — and its
 * finalizer stays so its outcome is counted when it ends. A command without a cause (written by a
 * jobfold before causes, still in a queue or an outbox) and a cause this code does not know (a
 * newer jobfold's) are held to the same rule (`pod-not-ended`): removing nothing is always safe,
 * and jobfold asks again, with its cause, once its request expires (EXPECTATIONS_TIMEOUT_MS,
 * shared/job/finalizer-removal.ts removalDue) while the pod still shows the finalizer.
 *
 * Pure, so the forwarder (forwarder/commands/apply-command.ts) and the closed loop's simulated
 * cluster (test/property/job/managed-histories.ts) apply one and the same guard.
 */

export const FinalizerRemovalCauseSchema = z.enum(['JobDeleting', 'JobFinished', 'PodSucceeded', 'PodFailed', 'PodDeleted']);
export type FinalizerRemovalCause = z.infer<typeof FinalizerRemovalCauseSchema>;

export type FinalizerRefusal = 'pod-not-finished' | 'pod-not-deleted' | 'pod-not-ended';

/** Why the RemovePodFinalizer of `cause` must leave the live pod's finalizer on, or undefined when it may go. */
export function finalizerRemovalRefusal(cause: FinalizerRemovalCause | string | undefined, pod: Pick<LivePod, 'terminal' | 'deleting'>): FinalizerRefusal | undefined {
  if (cause === 'JobDeleting' || cause === 'JobFinished') return undefined;
  if (pod.terminal || pod.deleting) return undefined;
  switch (cause) {
    case 'PodSucceeded':
    case 'PodFailed':
      return 'pod-not-finished';
    case 'PodDeleted':
      return 'pod-not-deleted';
    default:
      return 'pod-not-ended';
  }
}
