import type { Pod } from '../k8s/pod.ts';
import { CONTROLLER_UID_LABEL } from '../k8s/job-controller.ts';
import { LABELS } from '../jobset/constants.ts';

/** Which log an event belongs to: one per Job (or JobSet) in one cluster. */
export interface StreamKey {
  readonly kind: 'Job' | 'JobSet';
  readonly clusterId: string;
  readonly namespace: string;
  readonly uid: string;
}

/**
 * The Job a pod belongs to: its controller ownerReference of kind Job, else the label
 * `batch.kubernetes.io/controller-uid` (set by the Job controller on every pod it creates).
 */
export function owningJobUid(pod: Pick<Pod, 'metadata'>): string | undefined {
  const owner = controllingJob(pod) ?? pod.metadata.ownerReferences?.find((r) => r.kind === 'Job');
  return owner?.uid ?? pod.metadata.labels?.[CONTROLLER_UID_LABEL];
}

/**
 * The Job that created a pod now controlled by another Job: the label
 * `batch.kubernetes.io/controller-uid` (set when the pod is created, never changed by an
 * adoption) names one Job, the controller ownerReference another. Upstream, the pod's controllerRef
 * change re-syncs the old controller, whose `ClaimPods` ignores a pod owned by someone else; here
 * the old controller's log is told (parse-inbound.ts), or it would wait for the pod forever.
 * A pod released by a change of that label is not seen: its label no longer names the Job.
 */
export function creatorJobUid(pod: Pick<Pod, 'metadata'>): string | undefined {
  const controller = controllingJob(pod);
  const creator = pod.metadata.labels?.[CONTROLLER_UID_LABEL];
  return controller !== undefined && creator !== undefined && creator !== '' && creator !== controller.uid ? creator : undefined;
}

/** The pod's controller ownerReference, if a Job is its controller. */
const controllingJob = (pod: Pick<Pod, 'metadata'>) => pod.metadata.ownerReferences?.find((r) => r.kind === 'Job' && r.controller === true);

interface OwnedMeta {
  readonly labels?: Readonly<Record<string, string>> | undefined;
  readonly ownerReferences?: readonly { readonly kind?: unknown; readonly uid?: unknown; readonly controller?: unknown }[] | undefined;
}

/**
 * The JobSet a Job or pod belongs to: the `jobset.sigs.k8s.io/jobset-uid` label, else (a Job)
 * its controlling ownerReference of kind JobSet.
 */
export function owningJobSetUid(metadata: OwnedMeta | undefined): string | undefined {
  const label = metadata?.labels?.[LABELS.jobSetUid];
  if (typeof label === 'string' && label !== '') return label;
  const owner = metadata?.ownerReferences?.find((r) => r.kind === 'JobSet' && r.controller === true);
  return typeof owner?.uid === 'string' && owner.uid !== '' ? owner.uid : undefined;
}
