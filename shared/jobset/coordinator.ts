import type { DefaultedJobSet } from './defaulting.ts';

/**
 * `GetSubdomain` (jobset_controller.go): `spec.network.subdomain`, or the JobSet's name when it
 * is unset or empty. The headless Service and every pod's `subdomain` carry it.
 */
export function jobSetSubdomain(jobSet: DefaultedJobSet): string {
  const subdomain = jobSet.spec.network.subdomain;
  return subdomain === undefined || subdomain === '' ? jobSet.metadata.name : subdomain;
}

/**
 * `CoordinatorEndpoint`: the stable network endpoint of the coordinator pod,
 * `<jobset>-<replicatedJob>-<jobIndex>-<podIndex>.<subdomain>` — the pod's hostname (an Indexed
 * Job's pods are named `<job>-<completion index>`) under the JobSet's headless Service. Undefined
 * without `spec.coordinator`. Upstream stamps it as the `jobset.sigs.k8s.io/coordinator` label and
 * annotation on every child Job and its pod template.
 */
export function coordinatorEndpoint(jobSet: DefaultedJobSet): string | undefined {
  const coordinator = jobSet.spec.coordinator;
  if (coordinator === undefined) return undefined;
  const { replicatedJob, jobIndex, podIndex } = coordinator;
  return `${jobSet.metadata.name}-${replicatedJob}-${jobIndex}-${podIndex}.${jobSetSubdomain(jobSet)}`;
}
