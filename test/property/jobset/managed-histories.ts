import fc from 'fast-check';
import type { JobSetCommand } from '../../../shared/jobset/commands.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import type { JobSet } from '../../../shared/jobset/schemas.ts';
import type { JobSetState } from '../../../shared/jobset/state.ts';
import { carriageArb, inClusterOrder, inFlight, type Carriage } from '../in-flight.ts';
import { jobSetFold, type BusEvents } from './causal-orders.ts';
import { childCountStamper } from './child-counts.ts';
import { childJob, FAILURES, jobSetArb, progress, stepArb, T0, type ClusterJob, type Step } from './generated-histories.ts';

// Generated histories of JobSets jobfold runs (`managedBy` jobfold's JobSet controller), for the
// order property (managed-orders.property.spec.ts). generated-histories.ts plays a JobSet its
// cluster's controller runs: jobfold's commands there are computed, never sent. Here jobfold is
// the controller, and a history is played in a closed loop as test/property/job/managed-histories.ts
// plays a Job's: jobfold folds what the cluster shows as it arrives, reconciling after each event
// as the order property's delivery does (causal-orders.ts, jobSetFold), and its commands are the
// forwarder acting on the API server a few seconds later (`lag`): a CreateJob makes the child Job
// (refused while a Job of its name still exists, as the API server does), a SuspendJob or
// ResumeJob changes its `spec.suspend` (its pods go), each shown at once by the forwarder; a
// DeleteJob marks it terminating until a later step finishes the deletion (foreground). The child
// Jobs themselves are run by the cluster's Job controller (jobfold does not run them): which live
// Job runs, becomes ready, succeeds or fails (upstream's reasons), which deletion finishes, when
// the user suspends or resumes the JobSet, and how much time passes are the random part
// (generated-histories.ts's steps; its `report` step is only time passing here, since the
// forwarder shows what jobfold's commands changed as they land). Each event reaches jobfold as
// the bus carries it (../in-flight.ts): in the cluster's order as soon as made, or, for a
// delivery of the order property, after a random delay, so that delivery's jobfold decides on
// what reached it and the cluster acts on those decisions (a cluster of its own). At the end
// every event has arrived, the forwarder has acted on every command and every deletion asked
// for has finished.

/** A step of generated-histories.ts, and the seconds the forwarder takes to act on the commands jobfold sends until the next. */
export interface ManagedStep extends Step {
  readonly lag: number;
}

const LAGS = [1, 1, 2, 5] as const;

const managedStepArb: fc.Arbitrary<ManagedStep> = fc.tuple(stepArb([0, 0, 1, 5, 30]), fc.constantFrom(...LAGS)).map(([step, lag]) => ({ ...step, lag }));

/** A JobSet jobfold runs, of every shape jobSetArb draws, and the steps of its cluster. */
export const managedJobSetHistoryArb = fc.record({
  jobSet: jobSetArb.map((jobSet): JobSet => ({ ...jobSet, spec: { ...jobSet.spec, managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME } })),
  steps: fc.array(managedStepArb, { minLength: 4, maxLength: 24 }),
});

/** How one delivery plays a history's steps: its bus, and the forwarder's lag at each step. */
export interface ManagedDelivery {
  readonly carriage: Carriage;
  readonly lags: readonly number[];
}

/**
 * A random delivery of a history of `steps`: each event delayed by up to the history's length
 * (its gaps and the longest lag), so any event may reach jobfold after any the cluster made
 * later, and lags drawn afresh.
 */
export const managedDeliveryArb = (steps: readonly ManagedStep[]): fc.Arbitrary<ManagedDelivery> =>
  fc.record({
    carriage: carriageArb(steps.reduce((sum, step) => sum + step.gap, 0) + Math.max(...LAGS)),
    lags: fc.array(fc.constantFrom(...LAGS), { minLength: steps.length, maxLength: steps.length }),
  });

/** A played history: its cluster's events in the cluster's order, and what jobfold sent and ended in. */
export interface ManagedJobSetHistory {
  readonly id: string;
  readonly jobSet: JobSet;
  /** The cluster's events in its order, one per run. */
  readonly bus: BusEvents;
  /** The time of the last event: where the last reconcile runs. */
  readonly end: string;
  /** The order jobfold folded the events in (indexes into `bus`). */
  readonly order: readonly number[];
  /** The commands jobfold sent on the way, in order. */
  readonly sent: readonly JobSetCommand[];
  /** jobfold's JobSet once every event has arrived and every command been acted on. */
  readonly state: JobSetState;
}

/** Rounds of the last phase (events still in flight, commands, deletions) before a history is taken as not coming to rest. */
const MAX_FINAL_ROUNDS = 1000;

/**
 * Plays `steps` against the JobSet in a closed loop (above); by default each event reaches
 * jobfold as soon as the cluster makes it, in the cluster's order, with the steps' lags.
 */
export function playManagedJobSetHistory(
  id: string,
  created: JobSet,
  steps: readonly ManagedStep[],
  delivery: ManagedDelivery = { carriage: inClusterOrder(), lags: steps.map((step) => step.lag) },
): ManagedJobSetHistory {
  let jobSet = created;
  const observations: JobSetObservation[] = [];
  const jobs = new Map<string, ClusterJob>();
  const deleting: string[] = [];
  const sent: JobSetCommand[] = [];
  const order: number[] = [];
  const bus = inFlight<number>(delivery.carriage);
  let queue: { command: JobSetCommand; due: number }[] = [];
  let version = 0;
  let clock = T0;
  let lag = 1;
  const at = () => new Date(clock).toISOString().replace('.000Z', 'Z');
  const jobfold = jobSetFold(at());
  // Each child Job event as the JobSet's log receives it: with the forwarder's count, in the cluster's order (child-counts.ts).
  const stamp = childCountStamper();

  // The cluster's event goes on the bus.
  const emit = (observation: JobSetObservation) => {
    bus.send(observations.length, clock);
    observations.push(stamp(observation));
  };
  // jobfold folds what has arrived by now, reconciling after each; the forwarder acts on its commands `lag` seconds later.
  const send = (commands: readonly JobSetCommand[]) => {
    for (const command of commands) {
      queue.push({ command, due: clock + lag * 1000 });
      sent.push(command);
    }
  };
  const arrive = () => {
    for (const i of bus.take(clock)) {
      order.push(i);
      // The writer reconciles on the platform's clock: when the event arrived, not when the cluster made it.
      send(jobfold.fold([observations[i] as JobSetObservation], at()));
    }
  };
  const showJobSet = () => emit({ type: 'JobSetObserved', at: at(), eventId: undefined, jobSet: { ...jobSet, metadata: { ...jobSet.metadata, resourceVersion: String(++version) } } });
  const showJob = (job: ClusterJob, failure: (typeof FAILURES)[number] = FAILURES[0]) => {
    job.unseen = false;
    const snapshot = childJob(job, at(), failure);
    emit({ type: 'JobObserved', at: at(), eventId: undefined, job: { ...snapshot, metadata: { ...snapshot.metadata, resourceVersion: String(++version) } } });
  };
  const finishDeletion = (name: string) => {
    deleting.splice(deleting.indexOf(name), 1);
    const job = jobs.get(name) as ClusterJob;
    jobs.delete(name);
    emit({ type: 'JobDeleted', at: at(), eventId: undefined, name, uid: `${name}-${job.attempt}` });
  };

  const act = (command: JobSetCommand) => {
    const job = jobs.get(command.name);
    switch (command.type) {
      case 'CreateJob': {
        // The API server refuses a name still taken (a Job not yet gone).
        if (job !== undefined) return;
        const { name: jobName, replicatedJob, jobIndex, restartAttempt, suspend } = command;
        const parallelism = command.job.spec.parallelism ?? 1;
        const made: ClusterJob = { name: jobName, replicatedJob, jobIndex, attempt: restartAttempt, parallelism, suspend, running: false, ready: 0, finished: undefined, terminating: false, unseen: true };
        jobs.set(jobName, made);
        return showJob(made);
      }
      case 'DeleteJob':
        if (job === undefined || job.terminating) return;
        job.terminating = true;
        deleting.push(job.name);
        return;
      case 'SuspendJob':
      case 'ResumeJob':
        // A suspended Job's pods are deleted: it runs again only after it is resumed. A patch
        // that changes nothing (the Job already so) makes no watch event.
        if (job === undefined || job.finished !== undefined || job.suspend === (command.type === 'SuspendJob')) return;
        job.suspend = command.type === 'SuspendJob';
        job.running = false;
        job.ready = 0;
        return showJob(job);
      case 'DeleteJobSet':
        return;
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  };

  /**
   * Moves the clock to `to`: on the way the forwarder acts on each command when it is due (in
   * the order sent) and jobfold folds what arrives. What arrives at `to` itself is folded after
   * the step of that instant (arrive), so the events of one instant reach it in the bus's order.
   */
  const advance = (to: number) => {
    for (;;) {
      const next = Math.min(bus.nextArrival(), ...queue.map((q) => q.due));
      if (next > to) break;
      clock = Math.max(clock, next);
      const now = queue.filter((q) => q.due <= clock);
      queue = queue.filter((q) => q.due > clock);
      for (const { command } of now) act(command);
      if (clock >= to) break;
      arrive();
    }
    clock = Math.max(clock, to);
  };

  showJobSet();
  arrive();
  for (const [n, step] of steps.entries()) {
    lag = delivery.lags[n] ?? step.lag;
    advance(clock + step.gap * 1000);
    switch (step.op) {
      case 'suspend':
        jobSet = { ...jobSet, spec: { ...jobSet.spec, suspend: !jobSet.spec.suspend } };
        showJobSet();
        break;
      case 'answer': {
        const name = deleting[step.pick % Math.max(1, deleting.length)];
        if (name !== undefined) finishDeletion(name);
        break;
      }
      case 'progress': {
        const job = progress(jobs.values(), step);
        if (job !== undefined) showJob(job, FAILURES[step.failure] ?? FAILURES[0]);
        break;
      }
      case 'report':
        break;
      default: {
        const _exhaustive: never = step.op;
        return _exhaustive;
      }
    }
    arrive();
  }
  // In the end every event arrives, the forwarder acts on every command sent, and every deletion
  // finishes; jobfold, reconciled once more, sends nothing new.
  lag = 1;
  for (let round = 0; ; round++) {
    if (round === MAX_FINAL_ROUNDS) throw new Error(`${id}: the cluster did not come to rest in ${MAX_FINAL_ROUNDS} rounds`);
    const next = Math.min(bus.nextArrival(), ...queue.map((q) => q.due));
    if (next < Number.POSITIVE_INFINITY) advance(next);
    else if (deleting.length > 0) {
      clock += 1000;
      finishDeletion(deleting[0] as string);
    } else {
      const { commands } = jobfold.reconcile(jobfold.clock());
      if (commands.length === 0) break;
      send(commands);
    }
    arrive();
  }
  return {
    id,
    jobSet: created,
    bus: { observations, batches: observations.map((_, i) => i) },
    end: observations.at(-1)?.at ?? at(),
    order,
    sent,
    state: jobfold.state(),
  };
}
