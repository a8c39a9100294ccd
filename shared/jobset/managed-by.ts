import { JOBFOLD_JOBSET_CONTROLLER_NAME, JOBSET_CONTROLLER_NAME } from './constants.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';

const RECONCILED_MANAGERS: ReadonlySet<string> = new Set([JOBSET_CONTROLLER_NAME, JOBFOLD_JOBSET_CONTROLLER_NAME]);

/**
 * `managedByExternalController` (jobset_controller.go), negated: a JobSet with no `managedBy`, or
 * one naming the JobSet controller or jobfold, is reconciled. Upstream returns before listing
 * the child Jobs for any other value (MultiKueue and the like), so such a JobSet gets no
 * decision and no status at all, not even `replicatedJobsStatus`.
 */
export function isReconciled(spec: DefaultedJobSetSpec): boolean {
  return RECONCILED_MANAGERS.has(spec.managedBy ?? JOBSET_CONTROLLER_NAME);
}
