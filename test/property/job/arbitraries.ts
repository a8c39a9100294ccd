import fc from 'fast-check';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { JobEvent } from '../../../shared/job/evolve.ts';
import type { Job, PodFailurePolicyRule, SuccessPolicyRule } from '../../../shared/k8s/job.ts';
import type { PodPhase } from '../../../shared/k8s/pod.ts';
import { aJob, aPod, at, jobObserved, podDeleted, podObserved, tick, withSpec } from '../../support/builders.ts';

// Generators for the Job fold's properties: small valid Jobs of every shape the fold handles, and
// histories of what a cluster could report about them, in delivery batches. Every generated Job
// passes spec validation (the driver throws otherwise), so a property never runs on a rejected Job.

/** Pods a history talks about; with completions c, pod i runs index i % c. */
export const POD_COUNT = 6;

const FAIL_JOB: PodFailurePolicyRule = { name: 'Fatal', action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } };
const IGNORE_DISRUPTION: PodFailurePolicyRule = { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] };
const COUNT_ONE: PodFailurePolicyRule = { action: 'Count', onExitCodes: { operator: 'In', values: [1] } };
const FAIL_INDEX: PodFailurePolicyRule = { action: 'FailIndex', onExitCodes: { operator: 'In', values: [3] } };

export const jobArb: fc.Arbitrary<Job> = fc
  .record({
    indexed: fc.boolean(),
    completions: fc.integer({ min: 1, max: 4 }),
    parallelism: fc.integer({ min: 1, max: 3 }),
    backoffLimit: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    perIndex: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
    maxFailed: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    failurePolicy: fc.option(fc.subarray([FAIL_JOB, IGNORE_DISRUPTION, COUNT_ONE, FAIL_INDEX], { minLength: 1 }), { nil: undefined }),
    successPolicy: fc.option(fc.oneof(fc.constant<'leader' | 'count'>('leader'), fc.constant<'leader' | 'count'>('count')), { nil: undefined }),
    replacement: fc.option(fc.constantFrom('Failed', 'TerminatingOrFailed'), { nil: undefined }),
    deadline: fc.option(fc.constantFrom(60, 300, 900), { nil: undefined }),
    onFailure: fc.boolean(),
    managedByJobfold: fc.boolean(),
  })
  .map((g) => {
    const perIndex = g.indexed ? g.perIndex : undefined;
    let rules = g.failurePolicy;
    if (rules && perIndex === undefined) rules = rules.filter((r) => r.action !== 'FailIndex');
    if (rules && rules.length === 0) rules = undefined;
    const successRules: SuccessPolicyRule[] | undefined =
      g.indexed && g.successPolicy
        ? [g.successPolicy === 'leader' ? { succeededIndexes: '0' } : { succeededCount: Math.min(2, g.completions) }]
        : undefined;
    return aJob(
      {
        completionMode: g.indexed ? 'Indexed' : 'NonIndexed',
        completions: g.completions,
        parallelism: g.parallelism,
        backoffLimit: g.backoffLimit,
        backoffLimitPerIndex: perIndex,
        maxFailedIndexes: perIndex === undefined || g.maxFailed === undefined ? undefined : Math.min(g.maxFailed, g.completions),
        podFailurePolicy: rules ? { rules } : undefined,
        successPolicy: successRules ? { rules: successRules } : undefined,
        podReplacementPolicy: rules ? (g.replacement === undefined ? undefined : 'Failed') : g.replacement,
        activeDeadlineSeconds: g.deadline,
        managedBy: g.managedByJobfold ? JOBFOLD_CONTROLLER_NAME : undefined,
      },
      { restartPolicy: g.onFailure && !rules ? 'OnFailure' : 'Never' },
    );
  });

/** One thing a cluster reports, before it gets its time. */
export type Step =
  | {
      readonly kind: 'pod';
      readonly pod: number;
      readonly phase: PodPhase;
      readonly exitCode: number;
      readonly disrupted: boolean;
      readonly deleting: boolean;
      readonly finalizer: boolean;
      readonly ready: boolean;
      readonly restartCount: number;
      /** When a finished pod finished (seconds from T0): by default, a second before it is seen. */
      readonly finishedAt?: number;
    }
  | { readonly kind: 'deleted'; readonly pod: number }
  | { readonly kind: 'tick' }
  | { readonly kind: 'suspend'; readonly suspend: boolean }
  /** The user scales the Job: `parallelism` is mutable on every Job. */
  | { readonly kind: 'scale'; readonly parallelism: number };

const podStepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant('pod' as const),
  pod: fc.nat({ max: POD_COUNT - 1 }),
  phase: fc.constantFrom<PodPhase>('Pending', 'Running', 'Running', 'Succeeded', 'Failed', 'Failed'),
  exitCode: fc.constantFrom(1, 3, 42),
  disrupted: fc.boolean(),
  deleting: fc.boolean(),
  finalizer: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  ready: fc.boolean(),
  restartCount: fc.constantFrom(0, 0, 1, 2),
});

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: podStepArb },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleted' as const), pod: fc.nat({ max: POD_COUNT - 1 }) }) },
  { weight: 2, arbitrary: fc.constant<Step>({ kind: 'tick' }) },
  { weight: 1, arbitrary: fc.boolean().map((suspend): Step => ({ kind: 'suspend', suspend })) },
);

/** `stepArb` with the user scaling the Job now and then (elastic histories). */
const elasticStepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 13, arbitrary: stepArb },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 4 }).map((parallelism): Step => ({ kind: 'scale', parallelism })) },
);

/** Seconds between two steps: 0 puts them in the same batch (one reconcile after both). */
export const gapArb = fc.constantFrom(0, 0, 1, 5, 30, 400);

/** What the cluster reported between two reconciles, and when jobfold reconciled. */
export interface Batch {
  readonly at: string;
  readonly events: readonly JobEvent[];
}

export const historyArb = (job: Job): fc.Arbitrary<Batch[]> =>
  fc.array(fc.tuple(stepArb, gapArb), { minLength: 1, maxLength: 30 }).map((steps) => toBatches(job, steps));

/**
 * Histories a cluster can produce after a pod finished: its later observations keep the phase,
 * exit code and disruption it finished with, and what the controller or the API server took away
 * (the tracking finalizer, `deletionTimestamp` once set) does not come back. `historyArb` leaves
 * steps free (a pod may even go from Failed back to Pending), which is right for properties about
 * invariants; a property that reorders what is seen of finished pods needs finished to stay so.
 */
export const settledHistoryArb = (job: Job): fc.Arbitrary<Batch[]> =>
  fc.array(fc.tuple(stepArb, gapArb), { minLength: 1, maxLength: 30 }).map((steps) => toBatches(job, finishedStayFinished(steps)));

function finishedStayFinished(steps: readonly (readonly [Step, number])[]): (readonly [Step, number])[] {
  const finished = new Map<number, PodStep>();
  return steps.map(([step, gap]) => {
    if (step.kind !== 'pod') return [step, gap] as const;
    const last = finished.get(step.pod);
    if (last === undefined) {
      if (isFinished(step)) finished.set(step.pod, step);
      return [step, gap] as const;
    }
    const settled = afterFinished(last, step);
    finished.set(step.pod, settled);
    return [settled, gap] as const;
  });
}

type PodStep = Extract<Step, { kind: 'pod' }>;

const isFinished = (step: PodStep): boolean => step.phase === 'Succeeded' || step.phase === 'Failed';

/** A finished pod's later observation: its outcome kept, what was taken away still away. */
const afterFinished = (last: PodStep, step: PodStep): PodStep => ({
  ...step,
  phase: last.phase, exitCode: last.exitCode, disrupted: last.disrupted, restartCount: last.restartCount, finishedAt: last.finishedAt,
  finalizer: last.finalizer && step.finalizer,
  deleting: last.deleting || step.deleting,
});

const PHASE_ORDER: Readonly<Record<PodPhase, number>> = { Pending: 0, Unknown: 1, Running: 1, Succeeded: 2, Failed: 2 };

/**
 * Histories a cluster can produce, as the order properties need them (generated-orders): besides
 * what `settledHistoryArb` keeps, a live pod's phase never goes back (Running to Pending), its
 * restarts never decrease, the tracking finalizer once removed and `deletionTimestamp` once set
 * stay so, and a pod deleted (`PodDeleted`) is neither seen nor deleted again (those steps become
 * timer steps, which the bus does not deliver). A pod deleted before any observation of it stays
 * possible: the forwarder may have seen only its deletion.
 */
export const clusterHistoryArb = (job: Job): fc.Arbitrary<Batch[]> =>
  fc.array(fc.tuple(stepArb, gapArb), { minLength: 1, maxLength: 30 }).map((steps) => toBatches(job, clusterSteps(steps)));

/**
 * Cluster histories in which the user also changes `parallelism` (to 0 as well, which stops the
 * Job's pods as suspending does): a Job observation with the new spec, whose pods' events may
 * arrive before it or after. Measured apart (generated-orders) so that the other populations keep
 * their histories.
 */
export const elasticClusterHistoryArb = (job: Job): fc.Arbitrary<Batch[]> =>
  fc.array(fc.tuple(elasticStepArb, gapArb), { minLength: 1, maxLength: 30 }).map((steps) => toBatches(job, clusterSteps(steps)));

function clusterSteps(steps: readonly (readonly [Step, number])[]): (readonly [Step, number])[] {
  const seen = new Map<number, PodStep>();
  const deleted = new Set<number>();
  let seconds = 0;
  return steps.map(([step, gap], i): readonly [Step, number] => {
    if (i > 0) seconds += gap;
    if (step.kind === 'deleted' || step.kind === 'pod') {
      if (deleted.has(step.pod)) return [{ kind: 'tick' }, gap];
      if (step.kind === 'deleted') {
        deleted.add(step.pod);
        return [step, gap];
      }
    }
    if (step.kind !== 'pod') return [step, gap];
    const last = seen.get(step.pod);
    const next = last === undefined ? step : isFinished(last) ? afterFinished(last, step) : afterLive(last, step);
    // A container finishes once: every later observation tells the same finishedAt.
    if (isFinished(next) && next.finishedAt === undefined) {
      const finished = { ...next, finishedAt: seconds - 1 };
      seen.set(step.pod, finished);
      return [finished, gap];
    }
    seen.set(step.pod, next);
    return [next, gap];
  });
}

/** A live pod's later observation: its phase and restarts move forward, what was taken away stays away. */
const afterLive = (last: PodStep, step: PodStep): PodStep => ({
  ...step,
  phase: PHASE_ORDER[step.phase] < PHASE_ORDER[last.phase] ? last.phase : step.phase,
  restartCount: Math.max(last.restartCount, step.restartCount),
  finalizer: last.finalizer && step.finalizer,
  deleting: last.deleting || step.deleting,
});

/** Lays the steps out in time, starting at T0, and groups those sharing a time into batches. */
export function toBatches(job: Job, steps: readonly (readonly [Step, number])[]): Batch[] {
  const batches: { at: string; events: JobEvent[] }[] = [];
  let seconds = 0;
  // The Job as the user last wrote it: a Job observation shows every change made so far, and,
  // for a Job the built-in controller runs, the start time it wrote (upstream sets it at the
  // first sync of the unsuspended Job and resets it when the Job is resumed; the creation's
  // observation, at T0, has none yet). jobfold writes a Job it runs' status itself.
  let current = job;
  let startTime = job.spec.suspend === true || job.spec.managedBy === JOBFOLD_CONTROLLER_NAME ? undefined : at(0);
  steps.forEach(([step, gap], i) => {
    if (i > 0) seconds += gap;
    const when = at(seconds);
    const last = batches.at(-1);
    const batch = last && last.at === when ? last : { at: when, events: [] };
    if (batch !== last) batches.push(batch);
    if (step.kind === 'suspend') {
      if (current.spec.suspend === true && !step.suspend && startTime !== undefined) startTime = when;
      current = withSpec(current, { suspend: step.suspend });
    }
    if (step.kind === 'scale') current = withSpec(current, { parallelism: step.parallelism });
    batch.events.push(toEvent(startTime === undefined ? current : { ...current, status: { ...current.status, startTime } }, step, seconds));
  });
  return batches;
}

function toEvent(job: Job, step: Step, seconds: number): JobEvent {
  const when = at(seconds);
  switch (step.kind) {
    case 'tick':
      return tick(when);
    case 'deleted':
      return podDeleted(`p${step.pod}`, when);
    case 'suspend':
    case 'scale':
      return jobObserved(job, when);
    case 'pod': {
      const completions = job.spec.completions ?? 1;
      const terminal = step.phase === 'Succeeded' || step.phase === 'Failed';
      const pod = aPod({
        name: `p${step.pod}`,
        index: job.spec.completionMode === 'Indexed' ? step.pod % completions : undefined,
        failureCount: Math.floor(step.pod / completions),
        phase: step.phase,
        exitCode: step.phase === 'Failed' ? step.exitCode : undefined,
        finishedAt: terminal ? at(step.finishedAt ?? seconds - 1) : undefined,
        conditions: step.phase === 'Failed' && step.disrupted ? [{ type: 'DisruptionTarget' }] : [],
        deletionTimestamp: step.deleting ? when : undefined,
        finalizer: step.finalizer,
        ready: step.ready && step.phase === 'Running',
        restartCount: step.restartCount,
      });
      return podObserved(pod, when);
    }
  }
}
