import { evolve, type JobEvent } from '../job/evolve.ts';
import { countAtSync } from '../job/observe-pod.ts';
import type { PodRecord } from '../job/pod-record.ts';
import { initialState, type FoldConfig, type JobState } from '../job/state.ts';
import type { Job, JobSpec } from '../k8s/job.ts';
import { parseTime } from '../k8s/time.ts';
import { outcomeOf, recordedOutcome } from '../whatif/outcome.ts';
import { podSpans, recordedAfter, type PodSpans } from '../whatif/pod-spans.ts';

// What one finished Job's record says that policy advice is mined from: how it ended and when,
// every failed pod with its exit code or disruption and whether a retry of it ever succeeded,
// the failures its successes needed, and (Indexed) how long its workers ran past the leader.
// Read from the record alone: the log folded as recorded (its own decisions, no new ones).

/** A Job by name, as the advice lists it. */
export interface JobRef {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** The parts of a Job's spec advice reads and patches. */
export type PolicySpec = Pick<
  JobSpec,
  | 'completionMode' | 'completions' | 'parallelism' | 'backoffLimit' | 'backoffLimitPerIndex' | 'maxFailedIndexes'
  | 'activeDeadlineSeconds' | 'podFailurePolicy' | 'successPolicy' | 'podReplacementPolicy'
> & { readonly restartPolicy: string | undefined; readonly containers: readonly string[] };

export interface FailureFact {
  readonly pod: string;
  /** The completion index (Indexed Jobs). */
  readonly index: number | undefined;
  /** The first container that exited non-zero (regular containers first, as the policy reads them). */
  readonly exit: { readonly container: string; readonly code: number } | undefined;
  /** The pod has `DisruptionTarget=True`: evicted, preempted, its node drained. */
  readonly disruption: boolean;
  /** The recorded policy's verdict on it: a rule's action, or undefined (default handling). */
  readonly action: string | undefined;
  /** Counted towards backoffLimit (false: ignored by a rule). */
  readonly counted: boolean;
  /** A later pod succeeded where it failed: the Job (NonIndexed), its index (Indexed). */
  readonly retrySucceeded: boolean;
  /** Recorded pod-seconds. */
  readonly podSeconds: number;
}

export interface JobFacts {
  readonly ref: JobRef;
  readonly job: Job;
  readonly createdAt: string;
  readonly spec: PolicySpec;
  readonly outcome: 'Succeeded' | 'Failed';
  readonly reason: string | null;
  /** From startTime to the outcome, seconds. */
  readonly runSeconds: number;
  readonly podSeconds: number;
  readonly failures: readonly FailureFact[];
  /** Succeeded Jobs: the failures it had counted when it succeeded; without disruptions; the most restarts of running pods (OnFailure). */
  readonly success?: { readonly failed: number; readonly failedWithoutDisruptions: number; readonly restarts: number };
  /** Indexed Jobs that succeeded: the most counted failures one index had before it succeeded, all and without disruptions. */
  readonly perIndex?: { readonly failed: number; readonly failedWithoutDisruptions: number };
  /** Indexed Jobs without a success policy: the leader (index 0) succeeded while workers still ran. */
  readonly leader?: { readonly workersRunning: number; readonly workersTerminated: number; readonly workerSecondsAfter: number };
  /** Counted failures of a failed Job (how far past what successes needed it went). */
  readonly failedCount: number;
}

/** The facts of a finished Job's record; undefined while it runs (or when it holds no Job). */
export function jobFacts(log: readonly JobEvent[], config: FoldConfig, cluster: string): JobFacts | undefined {
  const first = log.find((e) => e.type === 'JobObserved');
  if (first?.type !== 'JobObserved') return undefined;
  const outcome = recordedOutcome(log);
  if (outcome.outcome === 'Running' || outcome.at === null) return undefined;
  const job = first.job;
  const state = initialState(config);
  let atSuccess: { failed: number; restarts: number } | undefined;
  let restarts = 0;
  for (const event of log) {
    if ('at' in event && !atSuccess && outcomeOf(event)?.outcome === 'Succeeded') {
      // The sync that decided the success counted its run's pods first (the Job's count at the sync).
      countAtSync(state);
      atSuccess = { failed: state.status.failed + state.heldCountable, restarts };
    }
    evolve(state, event);
    if (!atSuccess) restarts = Math.max(restarts, state.counts.restartsOfRunningPods);
  }
  countAtSync(state);
  const spans = podSpans(log);
  const indexed = job.spec.completionMode === 'Indexed';
  const succeeded = outcome.outcome === 'Succeeded';
  const decidedAt = parseTime(outcome.at);
  const startedAt = state.status.startTime === undefined ? decidedAt : parseTime(state.status.startTime);
  const pods = [...state.pods.values()];
  const failures = pods.filter(isFailure).map((pod) => failureFact(pod, state, succeeded, indexed, spans));
  const counted = failures.filter((f) => f.counted);
  const disruptedBeforeSuccess = counted.filter((f) => f.disruption).length;
  return {
    ref: { cluster, namespace: job.metadata.namespace ?? 'default', name: job.metadata.name, uid: job.metadata.uid ?? '' },
    job,
    createdAt: job.metadata.creationTimestamp ?? first.observedAt,
    spec: policySpec(job.spec),
    outcome: outcome.outcome,
    reason: outcome.reason,
    runSeconds: Math.max(0, (decidedAt - startedAt) / 1000),
    podSeconds: pods.reduce((sum, pod) => sum + recordedAfter(spans, pod.uid, Number.NEGATIVE_INFINITY), 0) / 1000,
    failures,
    ...(atSuccess ? { success: { failed: atSuccess.failed, failedWithoutDisruptions: atSuccess.failed - disruptedBeforeSuccess, restarts: atSuccess.restarts } } : {}),
    ...(indexed && succeeded ? { perIndex: perIndexNeeds(counted, state) } : {}),
    ...(indexed && !job.spec.successPolicy ? leaderOf(pods, spans) : {}),
    failedCount: state.status.failed,
  };
}

/** A pod that failed: Failed, or gone without succeeding after the Job counted it. */
const isFailure = (pod: PodRecord): boolean => pod.phase === 'Failed' || pod.counted === 'failed' || pod.counted === 'ignored';

function failureFact(pod: PodRecord, state: JobState, jobSucceeded: boolean, indexed: boolean, spans: PodSpans): FailureFact {
  const exit = pod.terminated.find((c) => c.exitCode !== 0);
  const index = indexed && pod.index >= 0 ? pod.index : undefined;
  return {
    pod: pod.name,
    index,
    exit: exit ? { container: exit.name, code: exit.exitCode } : undefined,
    disruption: pod.conditions.some((c) => c.type === 'DisruptionTarget' && c.status === 'True'),
    action: pod.failureMatch?.action,
    counted: pod.counted !== 'ignored' && pod.failureMatch?.countFailed !== false,
    retrySucceeded: index === undefined ? jobSucceeded : state.status.completedIndexes.has(index),
    podSeconds: recordedAfter(spans, pod.uid, Number.NEGATIVE_INFINITY) / 1000,
  };
}

/** The most counted failures one index had before it succeeded (what backoffLimitPerIndex must tolerate). */
function perIndexNeeds(counted: readonly FailureFact[], state: JobState): { failed: number; failedWithoutDisruptions: number } {
  const all = new Map<number, number>();
  const withoutDisruptions = new Map<number, number>();
  for (const failure of counted) {
    if (failure.index === undefined || !state.status.completedIndexes.has(failure.index)) continue;
    all.set(failure.index, (all.get(failure.index) ?? 0) + 1);
    if (!failure.disruption) withoutDisruptions.set(failure.index, (withoutDisruptions.get(failure.index) ?? 0) + 1);
  }
  return { failed: largest(all.values()), failedWithoutDisruptions: largest(withoutDisruptions.values()) };
}

/** The largest count, 0 for none. A loop, not Math.max(...): a spread of ~200,000 indexes overflows V8's call stack. */
function largest(counts: Iterable<number>): number {
  let most = 0;
  for (const count of counts) most = Math.max(most, count);
  return most;
}

/** The leader (index 0) succeeded at t0 while workers ran: how many, how many were then terminated, their time past t0. */
function leaderOf(pods: readonly PodRecord[], spans: PodSpans): Pick<JobFacts, 'leader'> {
  const leaderEnds = pods.filter((p) => p.index === 0 && p.phase === 'Succeeded').map((p) => spans.ends.get(p.uid) ?? spans.lastAt);
  if (leaderEnds.length === 0) return {};
  const t0 = leaderEnds.reduce((earliest, end) => Math.min(earliest, end));
  const workers = pods.filter((p) => p.index !== 0 && (spans.ends.get(p.uid) ?? spans.lastAt) > t0);
  if (workers.length === 0) return {};
  const running = workers.filter((p) => (spans.starts.get(p.uid) ?? t0) <= t0);
  return {
    leader: {
      workersRunning: running.length,
      workersTerminated: workers.filter((p) => p.phase !== 'Succeeded').length,
      workerSecondsAfter: workers.reduce((sum, p) => sum + recordedAfter(spans, p.uid, t0), 0) / 1000,
    },
  };
}

function policySpec(spec: JobSpec): PolicySpec {
  const template = spec.template.spec;
  const containers = [...(template.containers ?? []), ...(template.initContainers ?? [])].map((c) => c.name);
  const picked: Record<string, unknown> = {};
  for (const key of ['completionMode', 'completions', 'parallelism', 'backoffLimit', 'backoffLimitPerIndex', 'maxFailedIndexes', 'activeDeadlineSeconds', 'podFailurePolicy', 'successPolicy', 'podReplacementPolicy'] as const) {
    if (spec[key] !== undefined) picked[key] = spec[key];
  }
  return { ...(picked as Partial<PolicySpec>), restartPolicy: template.restartPolicy, containers };
}
