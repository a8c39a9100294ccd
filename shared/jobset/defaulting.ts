import { PodTemplateSpecSchema, type JobSpec, type PodTemplateSpec } from '../k8s/job.ts';
import { defaultRuleName } from './constants.ts';
import type { DependsOn, FailurePolicyRule, JobSet, JobSetSpec, JobTemplateSpec, ReplicatedJob } from './schemas.ts';

/** A failure policy rule after defaulting: every list present, the name filled in. */
export interface DefaultedFailurePolicyRule {
  readonly name: string;
  readonly action: string;
  readonly onJobFailureReasons: readonly string[];
  readonly onJobFailureMessagePatterns: readonly string[];
  readonly targetReplicatedJobs: readonly string[];
}

export interface DefaultedFailurePolicy {
  readonly maxRestarts: number;
  readonly restartStrategy: string;
  readonly rules: readonly DefaultedFailurePolicyRule[];
}

export interface DefaultedReplicatedJob {
  readonly name: string;
  readonly groupName: string;
  readonly replicas: number;
  readonly template: JobTemplateSpec & { spec: JobSpec };
  /** Undefined when absent (Go's nil); an empty list is kept, as the webhook tells them apart. */
  readonly dependsOn?: readonly DependsOn[];
}

/** `spec.coordinator` with Go's zero values filled in. */
export interface DefaultedCoordinator {
  readonly replicatedJob: string;
  readonly jobIndex: number;
  readonly podIndex: number;
}

/** The spec the controller reads: what admission (CRD defaults + webhook `Default`) leaves. */
export interface DefaultedJobSetSpec {
  readonly replicatedJobs: readonly DefaultedReplicatedJob[];
  readonly network: { enableDNSHostnames: boolean; subdomain?: string; publishNotReadyAddresses: boolean };
  readonly successPolicy: { operator: string; targetReplicatedJobs: readonly string[] };
  readonly startupPolicy: { startupPolicyOrder: string };
  /** Absent stays absent: a nil failure policy fails on the first Job failure. */
  readonly failurePolicy: DefaultedFailurePolicy | undefined;
  readonly suspend: boolean;
  readonly coordinator?: DefaultedCoordinator;
  readonly managedBy?: string;
  readonly ttlSecondsAfterFinished?: number;
}

export interface DefaultedJobSet {
  readonly metadata: JobSet['metadata'];
  readonly spec: DefaultedJobSetSpec;
}

/**
 * Applies the JobSet webhook's `Default` and the CRD defaults: successPolicy `{operator: All}`,
 * startupPolicy `AnyOrder`, completionMode `Indexed`, pod restartPolicy `OnFailure`, DNS hostnames
 * on, rule names `failurePolicyRule<index>`, restartStrategy `Recreate`, replicas 1, groupName
 * `default`. Idempotent.
 */
export function defaultJobSet(jobSet: JobSet): DefaultedJobSet {
  return { metadata: jobSet.metadata, spec: defaultJobSetSpec(jobSet.spec) };
}

export function defaultJobSetSpec(spec: JobSetSpec): DefaultedJobSetSpec {
  const network = spec.network;
  return {
    replicatedJobs: spec.replicatedJobs.map(defaultReplicatedJob),
    network: {
      enableDNSHostnames: network?.enableDNSHostnames ?? true,
      publishNotReadyAddresses: network?.publishNotReadyAddresses ?? true,
      ...(network?.subdomain === undefined ? {} : { subdomain: network.subdomain }),
    },
    successPolicy: {
      operator: spec.successPolicy?.operator ?? 'All',
      targetReplicatedJobs: spec.successPolicy?.targetReplicatedJobs ?? [],
    },
    startupPolicy: { startupPolicyOrder: spec.startupPolicy?.startupPolicyOrder ?? 'AnyOrder' },
    failurePolicy:
      spec.failurePolicy === undefined
        ? undefined
        : {
            maxRestarts: spec.failurePolicy.maxRestarts ?? 0,
            restartStrategy: spec.failurePolicy.restartStrategy ?? 'Recreate',
            rules: (spec.failurePolicy.rules ?? []).map(defaultRule),
          },
    suspend: spec.suspend ?? false,
    ...(spec.coordinator === undefined
      ? {}
      : {
          coordinator: {
            replicatedJob: spec.coordinator.replicatedJob,
            jobIndex: spec.coordinator.jobIndex ?? 0,
            podIndex: spec.coordinator.podIndex ?? 0,
          },
        }),
    ...(spec.managedBy === undefined ? {} : { managedBy: spec.managedBy }),
    ...(spec.ttlSecondsAfterFinished === undefined ? {} : { ttlSecondsAfterFinished: spec.ttlSecondsAfterFinished }),
  };
}

/** A pod template with nothing set, for replicated jobs whose template leaves it out. */
const EMPTY_POD_TEMPLATE: PodTemplateSpec = PodTemplateSpecSchema.parse({ spec: {} });

function defaultReplicatedJob(rjob: ReplicatedJob): DefaultedReplicatedJob {
  const jobSpec = rjob.template.spec;
  const base = jobSpec.template ?? EMPTY_POD_TEMPLATE;
  const podTemplate: PodTemplateSpec = {
    ...base,
    spec: { ...base.spec, restartPolicy: base.spec.restartPolicy ?? 'OnFailure' },
  };
  return {
    name: rjob.name,
    groupName: rjob.groupName ?? 'default',
    replicas: rjob.replicas ?? 1,
    template: {
      ...rjob.template,
      spec: { ...jobSpec, completionMode: jobSpec.completionMode ?? 'Indexed', template: podTemplate },
    },
    ...(rjob.dependsOn === undefined ? {} : { dependsOn: rjob.dependsOn }),
  };
}

function defaultRule(rule: FailurePolicyRule, index: number): DefaultedFailurePolicyRule {
  return {
    // An empty name is defaulted too (`len(rule.Name) == 0`).
    name: rule.name === undefined || rule.name === '' ? defaultRuleName(index) : rule.name,
    action: rule.action,
    onJobFailureReasons: rule.onJobFailureReasons ?? [],
    onJobFailureMessagePatterns: rule.onJobFailureMessagePatterns ?? [],
    targetReplicatedJobs: rule.targetReplicatedJobs ?? [],
  };
}
