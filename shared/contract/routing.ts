import type { Pod } from '../k8s/pod.ts';
import { CONTROLLER_UID_LABEL } from '../job/constants.ts';

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
  const owner = pod.metadata.ownerReferences?.find((r) => r.kind === 'Job' && r.controller === true)
    ?? pod.metadata.ownerReferences?.find((r) => r.kind === 'Job');
  return owner?.uid ?? pod.metadata.labels?.[CONTROLLER_UID_LABEL];
}
