import type { Job, JobSpec, PodFailurePolicyRule } from '../k8s/job.ts';
import { IndexSet, parseIndexes } from '../indexes/index-set.ts';
import { stableHash } from './stable-hash.ts';
import { policyInterest, type PolicyInterest } from './pod-facts.ts';
import type { SuccessPolicyRuleSettings } from '../policies/success-policy.ts';

const MAX_INT32 = 2147483647;

/**
 * The Job spec with batch/v1 defaults applied: what the controller actually works with.
 * Built once per observed spec, so the fold never re-derives defaults per event.
 */
export interface JobSettings {
  readonly indexed: boolean;
  readonly parallelism: number;
  /** Unset for a work-queue Job (NonIndexed without completions). */
  readonly completions: number | undefined;
  readonly backoffLimit: number;
  readonly backoffLimitPerIndex: number | undefined;
  readonly maxFailedIndexes: number | undefined;
  readonly activeDeadlineSeconds: number | undefined;
  readonly suspend: boolean;
  /** `podReplacementPolicy: Failed`, which a pod failure policy implies (`onlyReplaceFailedPods`). */
  readonly onlyReplaceFailedPods: boolean;
  readonly podFailurePolicyRules: readonly PodFailurePolicyRule[] | undefined;
  /** What of a pod not failed the policy can match (pod-facts.ts); undefined without a policy. */
  readonly policyInterest: PolicyInterest | undefined;
  readonly successPolicyRules: readonly SuccessPolicyRuleSettings[] | undefined;
  readonly restartPolicyOnFailure: boolean;
  readonly managedBy: string | undefined;
  /** Init containers with `restartPolicy: Always`: their finish time counts (`getFinishedTime`). */
  readonly sidecarNames: ReadonlySet<string>;
  /** A hash of the pod template, carried by CreatePod so a creator can detect template drift. */
  readonly templateHash: string;
}

/** Applies batch/v1 defaulting (`SetDefaults_Job`) to a spec. */
export function jobSettings(spec: JobSpec): JobSettings {
  const indexed = spec.completionMode === 'Indexed';
  const bothUnset = spec.completions === undefined && spec.parallelism === undefined;
  const completions = bothUnset ? 1 : spec.completions;
  const backoffLimitPerIndex = spec.backoffLimitPerIndex;
  const podFailurePolicyRules = spec.podFailurePolicy?.rules;
  return {
    indexed,
    parallelism: spec.parallelism ?? 1,
    completions,
    backoffLimit: spec.backoffLimit ?? (backoffLimitPerIndex !== undefined ? MAX_INT32 : 6),
    backoffLimitPerIndex: indexed ? backoffLimitPerIndex : undefined,
    maxFailedIndexes: spec.maxFailedIndexes,
    activeDeadlineSeconds: spec.activeDeadlineSeconds,
    suspend: spec.suspend ?? false,
    onlyReplaceFailedPods:
      spec.podReplacementPolicy === 'Failed' || podFailurePolicyRules !== undefined,
    podFailurePolicyRules,
    policyInterest: policyInterest(podFailurePolicyRules),
    successPolicyRules:
      indexed && spec.successPolicy
        ? spec.successPolicy.rules.map((rule) => ({
            indexes:
              rule.succeededIndexes === undefined
                ? undefined
                : parseIndexes(rule.succeededIndexes, completions ?? 0),
            succeededCount: rule.succeededCount,
          }))
        : undefined,
    restartPolicyOnFailure: spec.template.spec.restartPolicy === 'OnFailure',
    managedBy: spec.managedBy,
    sidecarNames: new Set(
      (spec.template.spec.initContainers ?? [])
        .filter((c) => c.restartPolicy === 'Always')
        .map((c) => c.name),
    ),
    templateHash: stableHash(spec.template),
  };
}

/** The identity of a Job, as every decision and command names it. */
export interface JobIdentity {
  readonly clusterId: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly creationTimestamp: string | undefined;
  /** The controller that owns the Job (a JobSet, a CronJob …), from its ownerReferences. */
  readonly owner?: { readonly kind: string; readonly name: string; readonly uid: string };
  /** Labels, kept for owners that read them (JobSet: replicated job name, index, attempt). */
  readonly labels?: Readonly<Record<string, string>>;
}

export function jobIdentity(clusterId: string, job: Job): JobIdentity {
  const owner = job.metadata.ownerReferences?.find((r) => r.controller === true);
  return {
    clusterId,
    namespace: job.metadata.namespace ?? 'default',
    name: job.metadata.name,
    uid: job.metadata.uid ?? '',
    creationTimestamp: job.metadata.creationTimestamp,
    ...(owner ? { owner: { kind: owner.kind, name: owner.name ?? '', uid: owner.uid } } : {}),
    ...(job.metadata.labels ? { labels: job.metadata.labels } : {}),
  };
}
