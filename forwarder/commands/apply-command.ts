import type { V1Job, V1Pod } from '@kubernetes/client-node';
import {
  CONTROLLER_UID_LABEL, creationRefusal, deletionRefusal, finalizerRemovalRefusal, isGuardedCause, JOB_TRACKING_FINALIZER, JOBFOLD_CONTROLLER_NAME,
  onlyReplaceFailedPods, readsJobPods, stableHash, type DeletionRefusal, type FinalizerRefusal,
} from '../../shared/job/index.ts';
import { trimJob } from '../trim.ts';
import { applyJobSetCommand } from './apply-jobset-command.ts';
import { buildPod } from './build-pod.ts';
import type { Command, PoisonReason } from './command-message.ts';
import { BatchPods, livePod } from './job-pods.ts';
import { statusOf, type KubeOps } from './kube-ops.ts';

/**
 * What applying a command came to: `done` (its effect holds, or can no longer be wanted),
 * `refused` (the live Job and pods say the decision was made on a view they have left: nothing
 * was done, and the same command decided again later must be applied afresh), `transient` (try
 * again later), `poison` (it can never be applied).
 */
export type Outcome =
  | { readonly kind: 'done'; readonly note: string }
  | { readonly kind: 'refused'; readonly reason: Refusal; readonly message: string }
  | { readonly kind: 'transient'; readonly error: string }
  | { readonly kind: 'poison'; readonly reason: PoisonReason; readonly message: string };

/**
 * Why a command was refused: the deletion guard's answer (shared/job/deletion-guard.ts), or the
 * finalizer guard's (shared/job/finalizer-guard.ts): the live pod does not show the removal's cause.
 */
export type Refusal = DeletionRefusal | FinalizerRefusal;

const done = (note: string): Outcome => ({ kind: 'done', note });

/**
 * Applies one command. `pods`: the Jobs' pods for the batch the command came in (job-pods.ts),
 * which the guards read and which learn what this command did; without one, each command lists
 * afresh. A command that fails after it may have acted drops its Job's list from the batch.
 */
export async function applyCommand(
  command: Command,
  kube: KubeOps,
  pods: BatchPods = new BatchPods(kube),
): Promise<Outcome> {
  const outcome = await applyOne(command, kube, pods);
  if (outcome.kind === 'transient' || outcome.kind === 'poison') {
    if (command.type === 'TerminatePod' || command.type === 'CreatePod' || command.type === 'RemovePodFinalizer') pods.forget(command.namespace, command.jobUid);
  }
  return outcome;
}

async function applyOne(command: Command, kube: KubeOps, pods: BatchPods): Promise<Outcome> {
  try {
    switch (command.type) {
      case 'TerminatePod':
        return await terminatePod(command, kube, pods);
      case 'CreatePod':
        return await createPod(command, kube, pods);
      case 'UpdateJobStatus':
        return await updateJobStatus(command, kube);
      case 'RemovePodFinalizer':
        return await removePodFinalizer(command, kube, pods);
      case 'CreateJob':
      case 'DeleteJob':
      case 'SuspendJob':
      case 'ResumeJob':
      case 'DeleteJobSet':
        return await applyJobSetCommand(command, kube);
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  } catch (error) {
    return classify(command, error);
  }
}

type CommandOf<T extends Command['type']> = Extract<Command, { type: T }>;

/**
 * Deletes a pod only if it belongs to the command's Job: its controller ownerReference (or,
 * without one, the label batch.kubernetes.io/controller-uid) is the command's jobUid. It is
 * read in the command's namespace, so it is in that namespace. Any other pod is refused as
 * poison (logged, counted, dead-lettered): a command naming it is forged or broken. A deletion
 * decided on the Job's spec (excess pods, a suspension, an invalid or duplicated index) is made
 * only if the live Job and pods still call for it (deletionGuard); once it is made, the pod's
 * tracking finalizer goes with it (upstream `deleteJobPods` removes it for these causes, so the
 * pod is never counted): the RemovePodFinalizer decided with the deletion is refused while the
 * pod is not yet being deleted (shared/job/finalizer-guard.ts), and may reach the forwarder first.
 */
async function terminatePod(command: CommandOf<'TerminatePod'>, kube: KubeOps, pods: BatchPods): Promise<Outcome> {
  const pod = await kube.readPod(command.namespace, command.podName);
  if (!pod) return done('not-found');
  if (pod.metadata?.uid !== command.podUid) return done('uid-mismatch'); // the name belongs to another pod now
  const controller = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
  const owner = controller ? controller.kind === 'Job' && controller.uid : pod.metadata?.labels?.[CONTROLLER_UID_LABEL];
  if (owner !== command.jobUid) {
    const message = `pod ${command.namespace}/${command.podName} is not controlled by Job ${command.jobName} (uid ${command.jobUid}); refusing to delete it`;
    return { kind: 'poison', reason: 'pod-not-owned-by-job', message };
  }
  const refused = await deletionGuard(command, pod, kube, pods);
  if (refused) return refused;
  // 404: gone meanwhile. 409: the name now belongs to another pod, which must live.
  const result = await kube.deletePod(command.namespace, command.podName, command.podUid);
  await pods.touch(command.namespace, command.jobUid, (view) => (result === 'deleted' ? view.deleted(command.podUid) : view.gone(command.podUid)));
  // Deleted first, so a pod never runs on without its finalizer; a pod that had finished keeps it
  // (its outcome counts: jobfold removes it as PodSucceeded or PodFailed).
  if (result === 'deleted' && isGuardedCause(command.cause) && !livePod(pod).terminal) {
    const removal = { ...command, type: 'RemovePodFinalizer' as const, cause: 'PodDeleted' as const };
    const removed = await removeTrackingFinalizer(removal, kube, pods);
    return done(removed.kind === 'done' ? `deleted, ${removed.note}` : result);
  }
  return done(result);
}

/**
 * The decision was made on a view that may be minutes old: for the causes decided on the Job's
 * spec, the live Job and its pods have the last word (shared/job/deletion-guard.ts). A Job that is
 * gone or replaced has nothing to say: its pods are orphans, deleted as asked.
 */
async function deletionGuard(command: CommandOf<'TerminatePod'>, pod: V1Pod, kube: KubeOps, batch: BatchPods): Promise<Outcome | undefined> {
  if (!isGuardedCause(command.cause)) return undefined;
  const job = await kube.readJob(command.namespace, command.jobName);
  if (!job || job.metadata?.uid !== command.jobUid) return undefined;
  const live = {
    parallelism: job.spec?.parallelism ?? 1,
    completions: job.spec?.completions ?? undefined,
    suspended: job.spec?.suspend === true,
    indexed: job.spec?.completionMode === 'Indexed',
  };
  const target = livePod(pod);
  // The Job's other pods, for the causes whose verdict reads them (this batch's list of them).
  const pods = readsJobPods(command.cause) ? (await batch.of(command.namespace, command.jobUid)).live(command.podUid) : [];
  const refusal = deletionRefusal(command.cause, live, target, [...pods, target]);
  if (refusal === undefined) return undefined;
  const active = pods.filter((p) => !p.terminal && !p.deleting).length + (target.terminal || target.deleting ? 0 : 1);
  const counted = readsJobPods(command.cause) ? `, and ${active} active pods` : '';
  const message = `${command.cause} deletion of pod ${command.podName} refused: the live Job has parallelism ${live.parallelism}, completions ${live.completions ?? 'unset'}, suspend ${live.suspended}${counted}`;
  return { kind: 'refused', reason: refusal, message };
}

async function createPod(command: CommandOf<'CreatePod'>, kube: KubeOps, batch: BatchPods): Promise<Outcome> {
  const { job, outcome } = await managedJob(command, kube);
  if (!job) return outcome;
  const indexed = job.spec?.completionMode === 'Indexed';
  if (indexed !== (command.index !== null)) {
    return { kind: 'poison', reason: 'invalid-detail', message: `index ${command.index} for a ${indexed ? 'Indexed' : 'NonIndexed'} Job` };
  }
  // The decision was made on another template (the Job was edited while suspended): the
  // service will decide again on the new one.
  const trimmed = trimJob(job);
  const hash = trimmed.ok ? stableHash((trimmed.object as { spec: { template: unknown } }).spec.template) : undefined;
  if (hash !== command.templateHash) return done('template-changed');
  const pods = await batch.of(command.namespace, command.jobUid);
  if (pods.madeBy(command.commandId)) return done('already-created');
  // The decision was made on a view that may be minutes old: the live Job and pods have the last
  // word (shared/job/creation-guard.ts).
  const live = {
    parallelism: job.spec?.parallelism ?? 1,
    completions: job.spec?.completions ?? undefined,
    suspended: job.spec?.suspend === true,
    onlyReplaceFailedPods: onlyReplaceFailedPods(job.spec ?? {}),
  };
  const wanted = { index: command.index ?? undefined, indexFailureCount: command.indexFailureCount ?? undefined, indexIgnoredFailureCount: command.indexIgnoredFailureCount ?? undefined };
  const refusal = creationRefusal(live, wanted, pods.live());
  if (refusal !== undefined) return done(refusal);
  const counts = { failures: command.indexFailureCount ?? undefined, ignored: command.indexIgnoredFailureCount ?? undefined };
  const created = await kube.createPod(command.namespace, buildPod(job, command.index ?? undefined, command.commandId, counts));
  pods.created(created);
  return done('created');
}

/** Attempts at the guarded patch when the pod changes between the read and the patch. */
const FINALIZER_PATCH_ATTEMPTS = 3;

/**
 * Removes the tracking finalizer with a JSON patch whose `test` operations pin the pod's uid
 * and the finalizer's position, so a pod that took the name, or a list that changed since the
 * read, is never touched. The Job may be gone already (upstream cleans up orphans the same way).
 * The live pod must show the command's cause (shared/job/finalizer-guard.ts): a pod counted from
 * its end, or deleted by jobfold, that is neither terminal nor being deleted keeps its finalizer
 * (its deletion was refused, or has not reached it yet), so its outcome is counted when it ends.
 */
async function removePodFinalizer(command: CommandOf<'RemovePodFinalizer'>, kube: KubeOps, pods: BatchPods): Promise<Outcome> {
  const job = await kube.readJob(command.namespace, command.jobName);
  if (job && job.metadata?.uid === command.jobUid && job.spec?.managedBy !== JOBFOLD_CONTROLLER_NAME) {
    const message = `spec.managedBy is "${job.spec?.managedBy ?? ''}", not "${JOBFOLD_CONTROLLER_NAME}"`;
    return { kind: 'poison', reason: 'job-not-managed', message };
  }
  return removeTrackingFinalizer(command, kube, pods);
}

/** The guarded removal itself (removePodFinalizer, and terminatePod once it deleted the pod). */
async function removeTrackingFinalizer(command: Pick<CommandOf<'RemovePodFinalizer'>, 'namespace' | 'jobUid' | 'podName' | 'podUid' | 'cause'>, kube: KubeOps, pods: BatchPods): Promise<Outcome> {
  for (let attempt = 0; attempt < FINALIZER_PATCH_ATTEMPTS; attempt++) {
    const pod = await kube.readPod(command.namespace, command.podName);
    if (!pod) return done('pod-gone');
    if (pod.metadata?.uid !== command.podUid) return done('pod-replaced');
    const owner = pod.metadata?.ownerReferences?.find((r) => r.controller);
    if (owner?.uid !== command.jobUid) {
      return { kind: 'poison', reason: 'invalid-detail', message: `pod ${command.podName} is not controlled by Job uid ${command.jobUid}` };
    }
    const at = pod.metadata?.finalizers?.indexOf(JOB_TRACKING_FINALIZER) ?? -1;
    if (at < 0) return done('already-removed');
    const refusal = finalizerRemovalRefusal(command.cause, livePod(pod));
    if (refusal !== undefined) {
      const message = `pod ${command.podName} keeps its finalizer: the removal's cause is ${command.cause ?? 'not given'}, and the pod is neither finished nor being deleted`;
      return { kind: 'refused', reason: refusal, message };
    }
    try {
      await kube.patchPod(command.namespace, command.podName, [
        { op: 'test', path: '/metadata/uid', value: command.podUid },
        { op: 'test', path: `/metadata/finalizers/${at}`, value: JOB_TRACKING_FINALIZER },
        { op: 'remove', path: `/metadata/finalizers/${at}` },
      ]);
      await pods.touch(command.namespace, command.jobUid, (view) => view.finalizerRemoved(command.podUid));
      return done('finalizer-removed');
    } catch (error) {
      // 422: a `test` failed (the pod changed since the read); 409: a write conflict.
      const status = statusOf(error);
      if (status !== 422 && status !== 409) throw error;
    }
  }
  return { kind: 'transient', error: `pod ${command.podName} kept changing while its finalizer was removed` };
}

async function updateJobStatus(command: CommandOf<'UpdateJobStatus'>, kube: KubeOps): Promise<Outcome> {
  const { job, outcome } = await managedJob(command, kube);
  if (!job) return outcome;
  await kube.patchJobStatus(command.namespace, command.jobName, command.status);
  return done('patched');
}

/**
 * The Job a command acts on, if it still exists with the command's uid, is not being deleted
 * and names jobfold in `spec.managedBy`; otherwise the outcome to report.
 */
async function managedJob(
  command: CommandOf<'CreatePod' | 'UpdateJobStatus'>,
  kube: KubeOps,
): Promise<{ job: V1Job; outcome?: never } | { job?: never; outcome: Outcome }> {
  const job = await kube.readJob(command.namespace, command.jobName);
  if (!job) return { outcome: done('job-gone') };
  if (job.metadata?.uid !== command.jobUid) return { outcome: done('job-replaced') };
  if (job.spec?.managedBy !== JOBFOLD_CONTROLLER_NAME) {
    const message = `spec.managedBy is "${job.spec?.managedBy ?? ''}", not "${JOBFOLD_CONTROLLER_NAME}"`;
    return { outcome: { kind: 'poison', reason: 'job-not-managed', message } };
  }
  if (job.metadata?.deletionTimestamp) return { outcome: done('job-deleting') };
  return { job };
}

/**
 * 404 means the namespace or Job is gone: nothing left to do (a CreateJob whose namespace is
 * gone can no longer be wanted either). 400 and 422 mean the API server
 * refuses the request itself, which no retry changes. Everything else (403 quota, 409, 429,
 * 5xx, network) may pass later.
 */
function classify(command: Command, error: unknown): Outcome {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (status === 404) return done('not-found');
  if (status === 400 || status === 422) return { kind: 'poison', reason: 'rejected-by-api-server', message: `${command.type}: ${message}` };
  return { kind: 'transient', error: message };
}
