import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_CORPUS_ROOT, PROJECT_CORPUS_DIRS, scenarioFiles } from '../../../cli/conformance/run.ts';
import { isJobSetScenario, JobSetScenarioSchema, type JobSetScenario } from '../../../cli/scenario/jobset-scenario.ts';
import { applyMergePatch } from '../../../shared/whatif/patch.ts';
import type { JobSetCommand } from '../../../shared/jobset/commands.ts';
import { parseLabelInt } from '../../../shared/jobset/child-jobs.ts';
import { LABELS } from '../../../shared/jobset/constants.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { evolve } from '../../../shared/jobset/evolve.ts';
import type { JobSet } from '../../../shared/jobset/schemas.ts';
import { settle, type Settled } from '../../../shared/jobset/settle.ts';
import { initialState, type JobSetState } from '../../../shared/jobset/state.ts';
import { jobSetStatus } from '../../../shared/jobset/status.ts';
import { compareTimes } from '../../../shared/k8s/time.ts';
import { causalOrders, measureCausalOrders, type Answering, type KindDelivery } from '../causal-delivery.ts';

// Issue 21's delivery model (../causal-delivery.ts) for JobSets: the cluster's events of one
// JobSet (the JobSet, its child Jobs' snapshots and deletions) in any order, except that a child
// Job's deletion that answers jobfold's own DeleteJob arrives after the reconcile that sent it.
// Timers (Tick) are jobfold's own: once everything has arrived the JobSet is reconciled at the
// last time the scenario names, and at each timer it asks for after (the TTL after finished).

/** Every JobSet scenario of the conformance corpora: ../shared/conformance/jobset and test/conformance/jobset. */
export function jobSetScenarios(): JobSetScenario[] {
  const dirs = [join(DEFAULT_CORPUS_ROOT, 'jobset'), ...PROJECT_CORPUS_DIRS];
  return scenarioFiles(dirs)
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown)
    .filter(isJobSetScenario)
    .map((document) => JobSetScenarioSchema.parse(document));
}

/** A scenario's bus events in the cluster's order, each with the scenario event it came from. */
export interface BusEvents {
  readonly observations: readonly JobSetObservation[];
  /** For each observation, its scenario event (0: the JobSet's creation); a JobStatusBatch's Jobs share one. */
  readonly batches: readonly number[];
}

/**
 * The scenario's events as a Kubernetes 1.35 cluster's forwarder sends them, in the cluster's
 * order: the JobSet as created, then every event but the timers. A spec change or a deletion
 * mark is the JobSet observed again. Each JobSet and child-Job snapshot carries the
 * resourceVersion the cluster gave it (KEP-5504: increasing within a resource type), and each
 * child Job its uid (one per name and restart attempt: a restart recreates the Job), which its
 * deletion names as the forwarder's `Job Deleted` does, whether or not the Job was seen before;
 * a deletion that names its uid (a Job a user deleted, created again under its name) keeps it.
 */
export function busEvents(scenario: JobSetScenario): BusEvents {
  let version = 0;
  const nextVersion = () => String(++version);
  let jobSet: JobSet = scenario.jobset;
  const observeJobSet = (at: string): JobSetObservation => ({
    type: 'JobSetObserved',
    at,
    eventId: undefined,
    jobSet: { ...jobSet, metadata: { ...jobSet.metadata, resourceVersion: nextVersion() } },
  });
  // The restart attempt of the Job each name holds: 0 until a snapshot says otherwise; the Job
  // that follows a deleted one under its name is of the next attempt (a restart recreates them all).
  const attempts = new Map<string, number>();
  const uid = (name: string) => `${name}-${attempts.get(name) ?? 0}`;
  const observeJob = (at: string, job: JobSetScenarioJob): JobSetObservation => {
    const attempt = parseLabelInt(job.metadata.labels?.[LABELS.restartAttempt]);
    if (attempt !== undefined) attempts.set(job.metadata.name, attempt);
    const metadata = { ...job.metadata, uid: job.metadata.uid ?? uid(job.metadata.name), resourceVersion: nextVersion() };
    return { type: 'JobObserved', at, eventId: undefined, job: { ...job, metadata } };
  };
  const deleteJob = (at: string, name: string, named: string | undefined): JobSetObservation => {
    const deleted = named ?? uid(name);
    attempts.set(name, (attempts.get(name) ?? 0) + 1);
    return { type: 'JobDeleted', at, eventId: undefined, name, uid: deleted };
  };
  const observations = [observeJobSet(scenario.events[0]?.at ?? '1970-01-01T00:00:00Z')];
  const batches = [0];
  for (const [n, event] of scenario.events.entries()) {
    while (batches.length < observations.length) batches.push(n);
    switch (event.type) {
      case 'JobStatus':
        observations.push(observeJob(event.at, event.job));
        break;
      case 'JobStatusBatch':
        observations.push(...event.jobs.map((job) => observeJob(event.at, job)));
        break;
      case 'JobDeleted':
        observations.push(deleteJob(event.at, event.name, event.uid));
        break;
      case 'JobSetSpecUpdated':
        jobSet = { ...jobSet, spec: applyMergePatch(jobSet.spec, event.patch) as JobSet['spec'] };
        observations.push(observeJobSet(event.at));
        break;
      case 'JobSetMarkedForDeletion':
        jobSet = { ...jobSet, metadata: { ...jobSet.metadata, deletionTimestamp: event.at } };
        observations.push(observeJobSet(event.at));
        break;
      case 'JobSetDeleted':
        observations.push({ type: 'JobSetDeleted', at: event.at, eventId: undefined });
        break;
      case 'Tick':
        break;
      default: {
        const _exhaustive: never = event;
        return _exhaustive;
      }
    }
  }
  while (batches.length < observations.length) batches.push(scenario.events.length);
  return { observations, batches };
}

type JobSetScenarioJob = Extract<JobSetScenario['events'][number], { type: 'JobStatus' }>['job'];

/** The last time the scenario names (its timers included): where the last reconcile runs. */
function lastTime(scenario: JobSetScenario): string {
  const times = [scenario.events[0]?.at ?? '1970-01-01T00:00:00Z', ...scenario.events.map((e) => e.at)];
  return times.reduce((latest, at) => (compareTimes(at, latest) > 0 ? at : latest));
}

/**
 * jobfold's fold of one JobSet, as the writer's batches and the JobSet's reconcile after them
 * run it: each run of events is folded, then the JobSet settled. The reconcile's clock is the
 * newest time folded so far (a platform clock, never behind what has arrived).
 */
export function jobSetFold(start: string) {
  let state = initialState();
  let clock = start;
  const reconcile = (at: string): Settled => {
    const settled = settle(state, at);
    // A reconcile that never settles (two rules writing and taking back in turn) logs decisions
    // at every sync: whatever the end state, that delivery is wrong.
    if (!settled.converged) throw new Error(`the JobSet reconcile at ${at} did not settle in ${settled.passes} passes: ${settled.events.slice(0, 4).map((e) => e.type).join(', ')}…`);
    state = settled.state;
    return settled;
  };
  return {
    /** Folds a run of events and reconciles after it (at `now`, the platform's clock, if later): the commands sent. */
    fold: (run: readonly JobSetObservation[], now?: string): readonly JobSetCommand[] => {
      for (const observation of run) {
        state = evolve(state, observation);
        if (compareTimes(observation.at, clock) > 0) clock = observation.at;
      }
      if (now !== undefined && compareTimes(now, clock) > 0) clock = now;
      return reconcile(clock).commands;
    },
    reconcile,
    /** The newest time folded so far. */
    clock: () => clock,
    state: () => state,
  };
}

/**
 * A delivery of the scenario's bus events: each one is folded, then the JobSet settled (the Jobs
 * of one JobStatusBatch delivered one after the other are folded together first; jobSetFold).
 * Once everything has arrived the JobSet is settled at `end` (or the clock, if later), and at
 * each timer it asks for after (the TTL after finished).
 */
export function jobSetDelivery({ observations, batches }: BusEvents, end: string): KindDelivery<JobSetCommand, JobSetState> {
  const fold = jobSetFold(observations[0]?.at ?? end);
  return {
    count: observations.length,
    sameRun: (a, b) => batches[a] === batches[b],
    fold: (run) => fold.fold(run.map((i) => observations[i] as JobSetObservation)),
    reconcile: fold.reconcile,
    end: () => (compareTimes(end, fold.clock()) > 0 ? end : fold.clock()),
    state: fold.state,
  };
}

/**
 * The observations that answer a DeleteJob: the child Job's next deletion after the reconcile
 * that sent it, in the cluster's order, one deletion per command (a name comes back with each
 * restart).
 */
const deletionAnswers = ({ observations }: BusEvents): Answering<JobSetCommand> => ({
  named: (command) => (command.type === 'DeleteJob' ? command.name : undefined),
  answers: (i, name, found) => {
    const o = observations[i] as JobSetObservation;
    return o.type === 'JobDeleted' && o.name === name && !found.has(i);
  },
});

/**
 * The delivery orders the order properties draw for a scenario (the same keys from the same seed
 * as measureJobSetOrders), the cluster's own first: each as indexes into its bus events. For
 * properties that store what arrives (stored-orders.property.spec.ts).
 */
export function jobSetDeliveryOrders(scenario: JobSetScenario, run: { readonly orders: number; readonly seed: number }): (readonly number[])[] {
  const bus = busEvents(scenario);
  return causalOrders(run, { delivery: () => jobSetDelivery(bus, lastTime(scenario)), answering: deletionAnswers(bus) });
}

/** A JobSet scenario of the order properties: its bus events delivered in any causal order. */
export function measureJobSetOrders(scenario: JobSetScenario, run: { readonly orders: number; readonly seed: number }) {
  const bus = busEvents(scenario);
  return measureJobSetEvents(scenario.id, run, bus, lastTime(scenario), deletionAnswers(bus));
}

/**
 * JobSet bus events delivered in any causal order (`answering`: which of them wait for which of
 * jobfold's commands), reconciled at `end` once all have arrived.
 */
export function measureJobSetEvents(
  id: string,
  run: { readonly orders: number; readonly seed: number },
  bus: BusEvents,
  end: string,
  answering: Answering<JobSetCommand>,
) {
  return measureCausalOrders(id, run, { delivery: () => jobSetDelivery(bus, end), answering, outcome: converging, divergence });
}

export type JobSetOutcome = ReturnType<typeof converging>;

/** Which part of the outcome a wrong delivery got wrong first. */
export function divergence(got: JobSetOutcome, want: JobSetOutcome): 'conditions' | 'restarts' | 'counts' {
  if (!isDeepStrictEqual(got.conditions, want.conditions) || got.terminalState !== want.terminalState) return 'conditions';
  if (got.restarts !== want.restarts || got.restartsCountTowardsMax !== want.restartsCountTowardsMax) return 'restarts';
  return 'counts';
}

/** The status fields that must not depend on the delivery order (issue 21, "Convergence"). */
export function converging(state: JobSetState) {
  const status = jobSetStatus(state);
  return {
    conditions: status.conditions.map(({ type, status: value, reason, message }) => ({ type, status: value, reason, message })),
    terminalState: status.terminalState,
    restarts: status.restarts,
    restartsCountTowardsMax: status.restartsCountTowardsMax,
    replicatedJobsStatus: status.replicatedJobsStatus,
  };
}
