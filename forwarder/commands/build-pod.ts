import type { V1Container, V1Job, V1ObjectMeta, V1Pod } from '@kubernetes/client-node';
import { COMMAND_ID_ANNOTATION, JOB_COMPLETION_INDEX_ANNOTATION, JOB_TRACKING_FINALIZER } from '../../shared/job/index.ts';

/** Upstream `batch.kubernetes.io/job-index-failure-count` and `job-index-ignored-failure-count`. */
export const JOB_INDEX_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';

/** backoffLimitPerIndex: the failures of the index before this pod (upstream `addIndexFailureCountAnnotation`). */
export interface IndexFailureCounts {
  readonly failures: number | undefined;
  readonly ignored: number | undefined;
}

export { COMMAND_ID_ANNOTATION };
/** Upstream `completionIndexEnvName`. */
export const JOB_COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** Upstream `names.MaxGeneratedNameLength`: 63 minus the 5 random characters. */
const MAX_GENERATED_NAME_LENGTH = 58;

/**
 * The pod the Job controller would create for `index` (undefined for a NonIndexed Job), as
 * `manageJob` and `GetPodFromTemplate` build it:
 *
 * 1. the Job's pod template, copied;
 * 2. Indexed: `JOB_COMPLETION_INDEX` from the index annotation in every container and init
 *    container (`addCompletionIndexEnvVariables`);
 * 3. the `batch.kubernetes.io/job-tracking` finalizer (`appendJobCompletionFinalizerIfNotFound`);
 * 4. Indexed: the index annotation and label, hostname `<job>-<index>` and generateName
 *    `<job>-<index>-` (`podGenerateNameWithIndex`); NonIndexed: generateName `<job>-`;
 *    the subdomain is the template's own;
 * 5. the template's labels, annotations and spec, and a controller ownerReference to the Job;
 * 6. backoffLimitPerIndex: the index's failure count, and its ignored-failure count when above 0.
 */
export function buildPod(job: V1Job, index: number | undefined, commandId: string, counts?: IndexFailureCounts): V1Pod {
  const name = job.metadata?.name ?? '';
  const template = structuredClone(job.spec?.template ?? {});
  const spec = template.spec ?? { containers: [] };
  const labels: Record<string, string> = { ...template.metadata?.labels };
  const annotations: Record<string, string> = { ...template.metadata?.annotations, [COMMAND_ID_ANNOTATION]: commandId };
  const finalizers = [...(template.metadata?.finalizers ?? [])];
  if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
  let generateName = `${name}-`;
  if (index !== undefined) {
    for (const container of [...(spec.initContainers ?? []), ...spec.containers]) addCompletionIndexEnv(container);
    annotations[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
    labels[JOB_COMPLETION_INDEX_ANNOTATION] = String(index);
    spec.hostname = `${name}-${index}`;
    generateName = generateNameWithIndex(name, index);
    if (counts?.failures !== undefined) {
      annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = String(counts.failures);
      if ((counts.ignored ?? 0) > 0) annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(counts.ignored);
    }
  }
  const metadata: V1ObjectMeta = {
    generateName,
    namespace: job.metadata?.namespace,
    labels,
    annotations,
    finalizers,
    ownerReferences: [
      { apiVersion: 'batch/v1', kind: 'Job', name, uid: job.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true },
    ],
  };
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

function addCompletionIndexEnv(container: V1Container): void {
  const env = container.env ?? [];
  if (env.some((v) => v.name === JOB_COMPLETION_INDEX_ENV)) return;
  env.push({
    name: JOB_COMPLETION_INDEX_ENV,
    valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${JOB_COMPLETION_INDEX_ANNOTATION}']` } },
  });
  container.env = env;
}

/** Upstream `podGenerateNameWithIndex`: `<job>-<index>-`, the job name cut to fit. */
export function generateNameWithIndex(jobName: string, index: number): string {
  const appendix = `-${index}-`;
  const prefix = `${jobName}${appendix}`;
  return prefix.length > MAX_GENERATED_NAME_LENGTH ? `${prefix.slice(0, MAX_GENERATED_NAME_LENGTH - appendix.length)}${appendix}` : prefix;
}
