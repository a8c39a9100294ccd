import type { TerminationCause } from './decisions.ts';
import type { LiveJob, LivePod } from './creation-guard.ts';

/**
 * Issue 21, "no harmful command from a transient view", the deletion side: whether a
 * TerminatePod must be refused because the cluster's live Job and pods, read just before acting,
 * no longer call for it. Upstream's `manageJob` deletes pods only in a sync that has just read
 * the Job's spec from its informer; jobfold decides on a view that may be minutes old (the
 * update that undid a scale-down or a suspension may still be in flight), so the executor
 * re-checks what that sync would have read. By the command's cause:
 *
 * - `ExcessPods`: refused (`not-excess`) when the live Job is not suspended and its active pods
 *   (not terminal, no deletionTimestamp) are no more than upstream's `wantActive` on the live
 *   spec: `min(completions − succeeded, parallelism)`, or, without `completions`, `parallelism`
 *   until a pod has succeeded and then every active pod (upstream deletes none then). Succeeded
 *   counts the Succeeded pods the API server still holds (distinct valid indexes for an Indexed
 *   Job); a pod removed since undercounts it, which can only make the guard refuse, never delete.
 * - `JobSuspended`: refused (`job-not-suspended`) when the live Job is not suspended.
 * - `InvalidIndex`: refused (`index-valid`) when the pod's completion index is valid on the live
 *   spec (an integer below `completions`: an elastic Job scaled back up).
 * - `DuplicateIndex`: refused (`index-not-duplicated`) when no other active pod of the live Job
 *   has the pod's index.
 * - `JobFinishing`, `JobFinished`: never refused. They follow an outcome the log has decided
 *   (a failure or success counted from pods' own terminal observations, a deadline passed, a
 *   success policy met), which no later spec change takes back: upstream too deletes every active
 *   pod once the Job is finishing or finished.
 *
 * Pure, so the forwarder (forwarder/commands/apply-command.ts) and the closed loop's simulated
 * cluster (test/property/job/managed-histories.ts) apply one and the same guard. A refused
 * deletion wedges nothing: the fold's request lapses once its deletion expectation expires
 * unseen (shared/job/termination-lapse.ts), the pod is active again in its view, and its next
 * sync decides on a view that has had that much longer to catch up.
 */

export type DeletionRefusal = 'not-excess' | 'job-not-suspended' | 'index-valid' | 'index-not-duplicated';

/** The live Job as the deletion guard reads it: the creation guard's spec fields, and its completion mode. */
export interface LiveDeletionJob extends Pick<LiveJob, 'parallelism' | 'completions' | 'suspended'> {
  readonly indexed: boolean;
}

/** The causes whose deletion the guard re-checks (the ones decided on the Job's spec, and that release the pod). */
export const isGuardedCause = (cause: string): boolean =>
  cause === 'ExcessPods' || cause === 'JobSuspended' || cause === 'InvalidIndex' || cause === 'DuplicateIndex';

/**
 * The guarded causes whose verdict reads the Job's other pods (`ExcessPods` counts them,
 * `DuplicateIndex` looks for another of the index); `JobSuspended` and `InvalidIndex` read only the
 * live Job and the target, so the executor need not list the Job's pods for them.
 */
export const readsJobPods = (cause: string): boolean => cause === 'ExcessPods' || cause === 'DuplicateIndex';

/**
 * Why the TerminatePod of `cause` for `target` must not delete it, or undefined when it may.
 * `pods`: every pod of the Job the API server holds, `target` among them (for a cause that does not
 * read them, readsJobPods, `[target]` is enough). A cause this code does
 * not know (a newer jobfold's) is not refused.
 */
export function deletionRefusal(cause: TerminationCause | string, job: LiveDeletionJob, target: LivePod, pods: readonly LivePod[]): DeletionRefusal | undefined {
  switch (cause) {
    case 'ExcessPods':
      return !job.suspended && activeOf(pods).length <= wantActive(job, pods) ? 'not-excess' : undefined;
    case 'JobSuspended':
      return job.suspended ? undefined : 'job-not-suspended';
    case 'InvalidIndex':
      return validIndex(job, target.index) ? 'index-valid' : undefined;
    case 'DuplicateIndex':
      return activeOf(pods).some((pod) => pod !== target && pod.index === target.index) ? undefined : 'index-not-duplicated';
    default:
      return undefined;
  }
}

const activeOf = (pods: readonly LivePod[]): LivePod[] => pods.filter((pod) => !pod.terminal && !pod.deleting);

const validIndex = (job: LiveDeletionJob, index: number | undefined): boolean =>
  index !== undefined && Number.isInteger(index) && index >= 0 && index < (job.completions ?? 0);

/** Upstream `manageJob`'s `wantActive` on the live spec, from the pods the API server holds. */
function wantActive(job: LiveDeletionJob, pods: readonly LivePod[]): number {
  const active = activeOf(pods).length;
  const succeededPods = pods.filter((pod) => pod.succeeded);
  const succeeded = job.indexed ? new Set(succeededPods.filter((pod) => validIndex(job, pod.index)).map((pod) => pod.index)).size : succeededPods.length;
  if (job.completions === undefined) return succeeded > 0 ? active : job.parallelism;
  return Math.max(0, Math.min(job.completions - succeeded, job.parallelism));
}
