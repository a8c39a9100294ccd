import { CONTROLLER_UID_LABEL, JOB_NAME_LABEL } from '../../../shared/job/index.ts';
import type { JobState } from '../../../shared/job/index.ts';
import { jobStatus } from '../../../shared/job/index.ts';
import type { JobSpec } from '../../../shared/k8s/job.ts';
import { objectVersion } from '../resource-version.ts';
import { compact, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL, metaTime, withJobfoldLabels, type FoldedObject, type ServedObject } from './meta.ts';

// A batch/v1 Job as this API serves it: the object as jobfold last observed it, with the
// defaults the API server applies (batch/v1 SetDefaults_Job, the generated selector and pod
// template labels) where the observation left them out, and the status jobfold folded from
// the log — the status the Job controller computes (shared/job/status.ts), conditions and all.
// jobfold keeps of a Job's metadata its name, namespace, uid, creation time, labels and owner;
// annotations and the cluster's own resourceVersion are not kept (docs/kubectl.md).

/** A Job folded from its log, with where the log stood. */
export type FoldedJob = FoldedObject<JobState>;

export type JobObject = ServedObject<'batch/v1', 'Job'>;

export function jobObject(job: FoldedJob): JobObject {
  const { summary, state } = job;
  const identity = state.identity;
  const name = identity?.name ?? summary.name;
  const uid = summary.uid;
  const spec = state.spec === undefined ? undefined : specOf(state, state.spec, name, uid);
  const templateLabels = (spec?.['template'] as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels;
  // batch/v1 defaulting: a Job created without labels takes its pod template's.
  const ownLabels = identity?.labels !== undefined && Object.keys(identity.labels).length > 0 ? identity.labels : templateLabels;
  const owner = identity?.owner;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: compact({
      name,
      namespace: summary.namespace,
      uid,
      resourceVersion: objectVersion(job.headRecordedAt, job.head),
      creationTimestamp: metaTime(identity?.creationTimestamp ?? summary.createdAt),
      labels: withJobfoldLabels(ownLabels, { deleted: state.deleted, superseded: job.superseded }),
      ownerReferences: owner === undefined ? undefined : [{
        apiVersion: ownerApiVersion(owner.kind), kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true,
      }],
    }),
    spec: spec ?? {},
    status: statusOf(state),
  };
}

function ownerApiVersion(kind: string): string {
  if (kind === 'JobSet') return 'jobset.x-k8s.io/v1alpha2';
  if (kind === 'CronJob' || kind === 'Job') return 'batch/v1';
  return 'v1';
}

/** The spec as observed, with the API server's defaults where it left them out. */
function specOf(state: JobState, spec: JobSpec, name: string, uid: string): Record<string, unknown> {
  const settings = state.settings;
  const generated = { [CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: name, [LEGACY_CONTROLLER_UID_LABEL]: uid, [LEGACY_JOB_NAME_LABEL]: name };
  const template = spec.template;
  return compact({
    parallelism: settings?.parallelism ?? spec.parallelism,
    completions: settings === undefined ? spec.completions : settings.completions,
    activeDeadlineSeconds: spec.activeDeadlineSeconds,
    podFailurePolicy: spec.podFailurePolicy,
    successPolicy: spec.successPolicy,
    backoffLimit: settings?.backoffLimit ?? spec.backoffLimit,
    backoffLimitPerIndex: spec.backoffLimitPerIndex,
    maxFailedIndexes: spec.maxFailedIndexes,
    selector: spec.selector?.matchLabels !== undefined ? spec.selector : { matchLabels: { [CONTROLLER_UID_LABEL]: uid } },
    manualSelector: spec.manualSelector,
    template: {
      metadata: compact({
        labels: spec.manualSelector === true ? template.metadata?.labels : { ...template.metadata?.labels, ...generated },
        annotations: template.metadata?.annotations,
      }),
      spec: template.spec,
    },
    ttlSecondsAfterFinished: spec.ttlSecondsAfterFinished,
    completionMode: spec.completionMode ?? (settings?.indexed ? 'Indexed' : 'NonIndexed'),
    suspend: settings?.suspend ?? spec.suspend ?? false,
    podReplacementPolicy: spec.podReplacementPolicy ?? (spec.podFailurePolicy === undefined ? 'TerminatingOrFailed' : 'Failed'),
    managedBy: spec.managedBy,
  });
}

/**
 * batch/v1 JobStatus as the API server writes it: counters and strings left out when zero or
 * empty (omitempty), `ready` and `terminating` always (the controller sets them), times to the
 * second.
 */
function statusOf(state: JobState): Record<string, unknown> {
  const status = jobStatus(state);
  return compact({
    conditions: status.conditions.length === 0 ? undefined : status.conditions.map((c) => compact({
      type: c.type,
      status: c.status,
      lastProbeTime: metaTime(c.lastProbeTime ?? c.lastTransitionTime),
      lastTransitionTime: metaTime(c.lastTransitionTime),
      reason: c.reason === '' ? undefined : c.reason,
      message: c.message === '' ? undefined : c.message,
    })),
    startTime: metaTime(status.startTime ?? undefined),
    completionTime: metaTime(status.completionTime ?? undefined),
    active: status.active === 0 ? undefined : status.active,
    succeeded: status.succeeded === 0 ? undefined : status.succeeded,
    failed: status.failed === 0 ? undefined : status.failed,
    completedIndexes: status.completedIndexes === '' ? undefined : status.completedIndexes,
    failedIndexes: status.failedIndexes ?? undefined,
    terminating: state.identity === undefined ? undefined : status.terminating,
    uncountedTerminatedPods: state.identity === undefined ? undefined : {},
    ready: state.identity === undefined ? undefined : status.ready,
  });
}

/** What `status.successful` selects on (the API server's Job field set). */
export function jobFields(job: JobObject): Record<string, string> {
  return {
    'metadata.name': job.metadata.name,
    'metadata.namespace': job.metadata.namespace,
    'status.successful': String((job.status['succeeded'] as number | undefined) ?? 0),
  };
}
