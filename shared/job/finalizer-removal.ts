import { EXPECTATIONS_TIMEOUT_MS, JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { podCommandTarget, type RemovePodFinalizer } from './commands.ts';
import { isPodFailed } from './counting.ts';
import type { FinalizerRemovalCause } from './finalizer-guard.ts';
import type { PodRecord } from './pod-record.ts';
import type { JobState } from './state.ts';
import { record, wakeAt, wakeWhenExpectationExpires, type Sync } from './sync.ts';

/**
 * Upstream's tracking-finalizer protocol for the Jobs jobfold runs (`spec.managedBy` names it):
 * once a pod's outcome is counted, or the pod is deleted because the Job is finishing or has
 * too many pods, its `batch.kubernetes.io/job-tracking` finalizer goes (upstream
 * `canRemoveFinalizer` / `removeTrackingFinalizerFromPods`). The count is in the log before the
 * command leaves, so the log is what upstream keeps in `uncountedTerminatedPods`. Each command
 * carries why (finalizer-guard.ts), so the forwarder removes nothing the live pod does not bear out.
 */
function removeFinalizers(sync: Sync, pods: readonly { readonly pod: PodRecord; readonly cause: FinalizerRemovalCause }[]): void {
  const { state } = sync;
  if (state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME) return;
  const targets = pods.filter(({ pod: p }) => p.hasFinalizer && !p.gone && !sync.finalizersRemoved?.has(p.uid) && removalDue(sync, p));
  if (targets.length === 0) return;
  record(sync, {
    type: 'PodFinalizersRemovalRequested',
    pods: targets.map(({ pod: p }) => ({ uid: p.uid, name: p.name, index: p.index, seq: p.seq })),
    causes: targets.map(({ cause }) => cause),
  });
  wakeWhenExpectationExpires(sync);
  const identity = state.identity;
  for (const { pod, cause } of targets) {
    (sync.finalizersRemoved ??= new Set()).add(pod.uid);
    const target = podCommandTarget(identity, pod, 'finalizer');
    // A repeated request is a new command: the outbox and the forwarder drop repeats by id.
    const attempts = pod.finalizerRemovalAttempts ?? 0;
    const commandId = attempts === 0 ? target.commandId : `${target.commandId}/${attempts + 1}`;
    const command: RemovePodFinalizer = { type: 'RemovePodFinalizer', ...target, commandId, cause };
    sync.commands.push(command);
  }
}

/**
 * Upstream asks again at every sync while the pod still shows the finalizer and no removal is
 * expected (`finalizerExpectations`; a failed patch drops the expectation). jobfold never hears
 * of a failed command, so, as its creation expectations do, a request expires after
 * EXPECTATIONS_TIMEOUT_MS: a pod still showing the finalizer then is asked for again, and the
 * Job is woken up for it. A request restored from an older snapshot without its time stays as is.
 */
function removalDue(sync: Sync, pod: PodRecord): boolean {
  if (!pod.finalizerRemovalRequested) return true;
  const at = pod.finalizerRemovalRequestedAt;
  if (at === undefined) return false;
  if (sync.now - at > EXPECTATIONS_TIMEOUT_MS) return true;
  wakeAt(sync, at + EXPECTATIONS_TIMEOUT_MS + 1);
  return false;
}

/**
 * Pods counted by the fold, or deleted (in this sync or before), that still carry the
 * finalizer; every pod of a Job being deleted (upstream `canRemoveFinalizer`: a running pod's
 * finalizer goes too, and the pod is not counted). Each with its cause (finalizerCause).
 * O(pods), for managed Jobs only.
 */
export function removeCountedFinalizers(sync: Sync): void {
  const { state } = sync;
  if (state.settings?.managedBy !== JOBFOLD_CONTROLLER_NAME) return;
  // Pods terminated in this sync: whether the termination released them (any cause but a finish).
  const deletedNow = new Map<string, boolean>();
  for (const decision of sync.decisions) {
    if (decision.type === 'PodsTerminationRequested') for (const ref of decision.pods) deletedNow.set(ref.uid, decision.finalizersRemoved);
  }
  const jobDeleting = state.deletionTimestamp !== undefined;
  // Terminated by a sync that met a finish criterion but could not declare it yet (expectations
  // unmet, or a pod event missing): upstream's deleteActivePods keeps the finalizer, and the sync
  // that declares FailureTarget or SuccessCriteriaMet counts the pod (failed, unless it
  // succeeded). Removed before, the pod would count as that earlier sync counted it: nowhere (the
  // managed generated histories: a deadline met before the pods the Job created were seen).
  const finishing = sync.conditions.some((c) => (c.type === 'FailureTarget' || c.type === 'SuccessCriteriaMet') && c.status === 'True');
  const done: { pod: PodRecord; cause: FinalizerRemovalCause }[] = [];
  for (const pod of state.pods.values()) {
    // A deletion taken back in this sync (termination-lapse.ts) releases nothing: it was not made.
    const requested = pod.terminationRequestedAt !== undefined && sync.lapsed?.has(pod.uid) !== true;
    const released = requested ? pod.released === true : deletedNow.get(pod.uid);
    if (jobDeleting || pod.counted !== 'none' || released === true || (released === false && finishing)) done.push({ pod, cause: finalizerCause(state, pod, jobDeleting, released === true) });
  }
  removeFinalizers(sync, done);
}

/**
 * Why the pod's finalizer goes, as upstream's `canRemoveFinalizer` tells its cases apart: the Job
 * is being deleted; the pod was counted from its own phase or deletion (`isPodFailed`); jobfold
 * deleted it uncounted (manageJob's `deleteJobPods`); or else the Job met a finish criterion (a
 * running pod counted failed, or deleted with the finalizer kept until the finish was declared).
 */
function finalizerCause(state: JobState, pod: PodRecord, jobDeleting: boolean, released: boolean): FinalizerRemovalCause {
  if (jobDeleting) return 'JobDeleting';
  if (pod.counted !== 'none') {
    if (pod.phase === 'Succeeded') return 'PodSucceeded';
    if (isPodFailed(state, pod)) return 'PodFailed';
    return 'JobFinished';
  }
  return released ? 'PodDeleted' : 'JobFinished';
}
