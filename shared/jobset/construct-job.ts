import { createHash } from 'node:crypto';
import type { PodTemplateSpec } from '../k8s/job.ts';
import type { JobManifest } from './commands.ts';
import { JOBSET_API_VERSION, LABELS } from './constants.ts';
import { coordinatorEndpoint, jobSetSubdomain } from './coordinator.ts';
import type { DefaultedJobSet, DefaultedReplicatedJob } from './defaulting.ts';

/** `placement.GenJobName`: child Job names are `<jobset>-<replicatedJob>-<jobIndex>`. */
export const childJobName = (jobSetName: string, replicatedJobName: string, jobIndex: number): string =>
  `${jobSetName}-${replicatedJobName}-${jobIndex}`;

/**
 * `constructJob` (jobset_controller.go): the replicated job's template with the JobSet labels and
 * annotations on the Job and its pod template, the pods' `subdomain` when DNS hostnames are on,
 * `spec.suspend` following the JobSet, and the JobSet as controlling owner. Kubernetes defaults
 * `parallelism` to 1 (and `completions` to 1 when both are unset); that is applied here so the
 * controller's own view matches the API server's.
 */
export function constructJob(
  jobSet: DefaultedJobSet,
  rjob: DefaultedReplicatedJob,
  jobIndex: number,
  restartAttempt: number,
): JobManifest {
  const { metadata, spec } = jobSet;
  const name = childJobName(metadata.name, rjob.name, jobIndex);
  const stamp = jobSetLabels(jobSet, rjob, jobIndex, restartAttempt);
  const template = rjob.template.spec;
  const bothUnset = template.parallelism === undefined && template.completions === undefined;
  const pods = template.template;
  const podTemplate: PodTemplateSpec = {
    ...pods,
    metadata: {
      ...pods.metadata,
      labels: { ...pods.metadata?.labels, ...stamp },
      annotations: { ...pods.metadata?.annotations, ...stamp },
    },
    spec: spec.network.enableDNSHostnames ? { ...pods.spec, subdomain: jobSetSubdomain(jobSet) } : pods.spec,
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: metadata.namespace,
      labels: { ...rjob.template.metadata?.labels, ...stamp },
      annotations: { ...rjob.template.metadata?.annotations, ...stamp },
      ownerReferences: [
        {
          apiVersion: JOBSET_API_VERSION,
          kind: 'JobSet',
          name: metadata.name,
          uid: metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      ...template,
      parallelism: template.parallelism ?? 1,
      ...(bothUnset ? { completions: 1 } : {}),
      template: podTemplate,
      suspend: spec.suspend,
    },
  };
}

/**
 * `labelAndAnnotateObject`: the same map is used as labels and annotations, on the Job and on its
 * pod template. The coordinator's endpoint is added when `spec.coordinator` is set. (Exclusive
 * placement annotations are not carried: jobfold does not implement exclusive placement.)
 */
function jobSetLabels(
  jobSet: DefaultedJobSet,
  rjob: DefaultedReplicatedJob,
  jobIndex: number,
  restartAttempt: number,
): Record<string, string> {
  const { metadata, spec } = jobSet;
  const name = childJobName(metadata.name, rjob.name, jobIndex);
  let globalIndex = 0;
  for (const other of spec.replicatedJobs) {
    if (other.name === rjob.name) break;
    globalIndex += other.replicas;
  }
  const globalReplicas = spec.replicatedJobs.reduce((sum, other) => sum + other.replicas, 0);
  // `groupJobIndex` / `groupReplicas`: the same sums over the replicated jobs of rjob's group.
  const group = spec.replicatedJobs.filter((other) => other.groupName === rjob.groupName);
  let groupIndex = 0;
  for (const other of group) {
    if (other.name === rjob.name) break;
    groupIndex += other.replicas;
  }
  const groupReplicas = group.reduce((sum, other) => sum + other.replicas, 0);
  const coordinator = coordinatorEndpoint(jobSet);
  return {
    [LABELS.jobSetName]: metadata.name,
    [LABELS.jobSetUid]: metadata.uid ?? '',
    [LABELS.replicatedJobName]: rjob.name,
    [LABELS.restartAttempt]: String(restartAttempt),
    [LABELS.replicatedJobReplicas]: String(rjob.replicas),
    [LABELS.globalReplicas]: String(globalReplicas),
    [LABELS.jobIndex]: String(jobIndex),
    // `jobHashKey`: SHA-1 of `<namespace>/<jobName>`.
    [LABELS.jobKey]: createHash('sha1').update(`${metadata.namespace ?? ''}/${name}`).digest('hex'),
    [LABELS.jobGlobalIndex]: String(globalIndex + jobIndex),
    [LABELS.groupName]: rjob.groupName,
    [LABELS.groupReplicas]: String(groupReplicas),
    [LABELS.jobGroupIndex]: String(groupIndex + jobIndex),
    ...(coordinator === undefined ? {} : { [LABELS.coordinator]: coordinator }),
  };
}
