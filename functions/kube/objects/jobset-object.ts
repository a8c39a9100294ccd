import { jobSetStatus, type JobSetState } from '../../../shared/jobset/index.ts';
import { objectVersion } from '../resource-version.ts';
import { compact, metaTime, withJobfoldLabels, type FoldedObject, type ServedObject } from './meta.ts';

// A jobset.x-k8s.io/v1alpha2 JobSet as this API serves it: the spec as last observed with the
// JobSet webhook's and CRD's defaults (shared/jobset/defaulting.ts), and the status the JobSet
// controller computes, folded from the log (shared/jobset/status.ts).

export type FoldedJobSet = FoldedObject<JobSetState>;

export type JobSetObject = ServedObject<'jobset.x-k8s.io/v1alpha2', 'JobSet'>;

export function jobSetObject(jobSet: FoldedJobSet): JobSetObject {
  const { summary, state } = jobSet;
  const observed = state.jobSet;
  const meta = observed?.metadata;
  const status = jobSetStatus(state);
  return {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    metadata: compact({
      name: meta?.name || summary.name,
      namespace: summary.namespace,
      uid: summary.uid,
      resourceVersion: objectVersion(jobSet.headRecordedAt, jobSet.head),
      generation: meta?.generation,
      creationTimestamp: metaTime(meta?.creationTimestamp ?? summary.createdAt),
      labels: withJobfoldLabels(meta?.labels, { deleted: state.deleted, superseded: jobSet.superseded }),
      annotations: meta?.annotations,
      ownerReferences: meta?.ownerReferences,
      finalizers: meta?.finalizers,
    }),
    spec: observed === undefined ? {} : { ...observed.spec },
    status: compact({
      conditions: status.conditions.length === 0 ? undefined : status.conditions.map((c) => compact({
        type: c.type, status: c.status, lastTransitionTime: metaTime(c.lastTransitionTime),
        reason: c.reason === '' ? undefined : c.reason, message: c.message === '' ? undefined : c.message,
      })),
      restarts: status.restarts,
      restartsCountTowardsMax: status.restartsCountTowardsMax === 0 ? undefined : status.restartsCountTowardsMax,
      terminalState: status.terminalState === '' ? undefined : status.terminalState,
      replicatedJobsStatus: status.replicatedJobsStatus.length === 0 ? undefined : status.replicatedJobsStatus.map((r) => ({ ...r })),
    }),
  };
}
