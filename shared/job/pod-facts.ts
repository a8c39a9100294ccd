import type { PodFailurePolicyRule } from '../k8s/job.ts';
import type { ContainerStatus, Pod, PodPhase } from '../k8s/pod.ts';
import { parseTime } from '../k8s/time.ts';
import type { PodConditionFact, TerminatedContainer } from '../policies/pod-failure-policy.ts';
import {
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
  JOB_TRACKING_FINALIZER,
} from '../k8s/job-controller.ts';

/**
 * What the pod failure policy can match on a pod that has not failed: the condition types its
 * `onPodConditions` rules name, and whether any rule looks at exit codes. Upstream matches the
 * policy on every pod it counts as failed because the Job is failing, a Running one included
 * (a Running pod with `DisruptionTarget` under an Ignore rule is not a failure). Only these
 * facts are kept for pods that have not failed, so a Job without a policy keeps none.
 */
export interface PolicyInterest {
  readonly conditionTypes: ReadonlySet<string>;
  readonly exitCodes: boolean;
}

/** Year 1, which is what Go's zero `metav1.Time` compares as: "long ago". */
export const ZERO_TIME_MS = -62135596800000;

/**
 * What one pod observation says, reduced to the facts the Job controller reads.
 * Times are epoch milliseconds. Built once per observation, so the fold never walks a raw
 * pod object twice.
 */
export interface PodFacts {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  readonly phase: PodPhase;
  /** Completion index, or -1 when the annotation is missing or not a number. */
  readonly index: number;
  readonly failureCount: number;
  readonly ignoredFailureCount: number;
  readonly deletionTimestamp: number | undefined;
  readonly hasFinalizer: boolean;
  readonly ready: boolean;
  readonly readySince: number | undefined;
  /** `lastTransitionTime` of the Ready condition, whatever its status: orders unstamped observations. */
  readonly readyChangedAt: number | undefined;
  readonly assigned: boolean;
  /** Sum of restarts over containers and init containers (`pastBackoffLimitOnFailure`). */
  readonly restartCount: number;
  /** Highest restart count of one container (`controller.ActivePods` ordering). */
  readonly maxRestarts: number;
  readonly creationTimestamp: number | undefined;
  /** `getFinishedTime`, meaningful once the pod is terminal. */
  readonly finishedAt: number;
  /**
   * Terminated containers, regular ones first, then init containers (failure policy order): all
   * of a Failed pod's; of a pod not terminal, only when the policy looks at exit codes.
   */
  readonly terminated: readonly TerminatedContainer[];
  /** A Failed pod's conditions; of a pod not terminal, those the policy names (PolicyInterest). */
  readonly conditions: readonly PodConditionFact[];
}

/** The empty list most pod events' facts share (never written to: PodFacts' lists are readonly). */
const NONE: readonly never[] = Object.freeze([]);

const atMost = (time: number, bound: number | undefined): number => (bound !== undefined && time > bound ? bound : time);

const toMs = (time: string | undefined): number | undefined =>
  time === undefined ? undefined : parseTime(time);

/** Upstream `getCompletionIndex`: a non-negative integer annotation, else unknown (-1). */
function parseIndexAnnotation(value: string | undefined): number {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return -1;
  const index = Number(value);
  return index <= 2147483647 ? index : -1;
}

/** Upstream reads failure counts leniently: a bad annotation counts as 0. */
function parseCountAnnotation(value: string | undefined): number {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return 0;
  return Number(value);
}

/**
 * `observedAt` (epoch ms), when given, bounds the finish time: a pod observed at an instant
 * finished no later than it (a node clock far ahead must not hold the recreation backoff).
 */
export function podFacts(pod: Pod, sidecarNames: ReadonlySet<string>, interest?: PolicyInterest, observedAt?: number): PodFacts {
  const meta = pod.metadata;
  const status = pod.status;
  const annotations = meta.annotations ?? {};
  const containers = status?.containerStatuses ?? [];
  const initContainers = status?.initContainerStatuses ?? [];
  const readyCondition = status?.conditions?.find((c) => c.type === 'Ready');
  const deletionTimestamp = toMs(meta.deletionTimestamp);
  let restartCount = 0;
  let maxRestarts = 0;
  for (const c of containers) {
    restartCount += c.restartCount ?? 0;
    maxRestarts = Math.max(maxRestarts, c.restartCount ?? 0);
  }
  for (const c of initContainers) restartCount += c.restartCount ?? 0;
  const phase = status?.phase ?? 'Pending';
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  return {
    uid: meta.uid,
    name: meta.name,
    namespace: meta.namespace ?? 'default',
    phase,
    index: parseIndexAnnotation(annotations[JOB_COMPLETION_INDEX_ANNOTATION]),
    failureCount: parseCountAnnotation(annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION]),
    ignoredFailureCount: parseCountAnnotation(
      annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION],
    ),
    deletionTimestamp,
    hasFinalizer: (meta.finalizers ?? []).includes(JOB_TRACKING_FINALIZER),
    ready: readyCondition?.status === 'True',
    readySince: readyCondition?.status === 'True' ? toMs(readyCondition.lastTransitionTime) : undefined,
    readyChangedAt: toMs(readyCondition?.lastTransitionTime),
    assigned: (pod.spec?.nodeName ?? '') !== '',
    restartCount,
    maxRestarts,
    creationTimestamp: toMs(meta.creationTimestamp),
    finishedAt: terminal
      ? atMost(finishedTime(pod, containers, initContainers, sidecarNames, deletionTimestamp), observedAt)
      : ZERO_TIME_MS,
    terminated: phase === 'Failed' || (!terminal && interest?.exitCodes) ? terminatedContainers(containers, initContainers) : NONE,
    // Filtered only where a condition can be kept: the other pod events share one empty list.
    conditions: phase === 'Failed' || (!terminal && interest !== undefined)
      ? (status?.conditions ?? [])
        .filter((c) => phase === 'Failed' || (!terminal && interest?.conditionTypes.has(c.type)))
        .map((c) => ({ type: c.type, status: c.status }))
      : NONE,
  };
}

/** The facts of pods not terminal that the policy's rules can match (none without a policy). */
export function policyInterest(rules: readonly PodFailurePolicyRule[] | undefined): PolicyInterest | undefined {
  if (rules === undefined || rules.length === 0) return undefined;
  return {
    conditionTypes: new Set(rules.flatMap((rule) => (rule.onPodConditions ?? []).flatMap((pattern) => pattern.type ?? []))),
    exitCodes: rules.some((rule) => rule.onExitCodes !== undefined),
  };
}

function terminatedContainers(
  containers: readonly ContainerStatus[],
  initContainers: readonly ContainerStatus[],
): TerminatedContainer[] {
  const result: TerminatedContainer[] = [];
  for (const c of [...containers, ...initContainers]) {
    const terminated = c.state?.terminated;
    if (terminated) result.push({ name: c.name, exitCode: terminated.exitCode });
  }
  return result;
}

/**
 * Upstream `getFinishedTime`, fallbacks in order: the latest `finishedAt` of the containers
 * (plus sidecar init containers) if every one terminated; else the `lastTransitionTime` of a
 * `Ready=False` condition; else `deletionTimestamp - gracePeriod`; else `creationTimestamp`.
 */
function finishedTime(
  pod: Pod,
  containers: readonly ContainerStatus[],
  initContainers: readonly ContainerStatus[],
  sidecarNames: ReadonlySet<string>,
  deletionTimestamp: number | undefined,
): number {
  // As upstream, a regular container still running and "no containers" both give no time,
  // and the sidecar pass may then supply one.
  const fromContainers = latestFinish(undefined, containers);
  const sidecars = initContainers.filter((c) => sidecarNames.has(c.name));
  const latest = latestFinish(fromContainers, sidecars);
  if (latest !== undefined) return latest;
  const readyFalse = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'False');
  const readyFalseAt = toMs(readyFalse?.lastTransitionTime);
  if (readyFalseAt !== undefined) return readyFalseAt;
  if (deletionTimestamp !== undefined) {
    return deletionTimestamp - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  }
  return toMs(pod.metadata.creationTimestamp) ?? ZERO_TIME_MS;
}

/** Upstream `latestFinishTime`: undefined as soon as one container has not terminated. */
function latestFinish(previous: number | undefined, statuses: readonly ContainerStatus[]) {
  let latest = previous;
  for (const c of statuses) {
    const terminated = c.state?.terminated;
    if (!terminated) return undefined;
    const at = toMs(terminated.finishedAt) ?? ZERO_TIME_MS;
    if (latest === undefined || latest < at) latest = at;
  }
  return latest;
}
