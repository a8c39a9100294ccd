import fc from 'fast-check';
import type { JobSetCommand } from '../../../shared/jobset/commands.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../../../shared/jobset/constants.ts';
import type { JobSetObservation } from '../../../shared/jobset/events.ts';
import { evolve } from '../../../shared/jobset/evolve.ts';
import type { JobSet } from '../../../shared/jobset/schemas.ts';
import { settle } from '../../../shared/jobset/settle.ts';
import { initialState, type JobSetState } from '../../../shared/jobset/state.ts';
import type { Answering } from '../causal-delivery.ts';
import type { BusEvents } from './causal-orders.ts';
import { childCountStamper } from './child-counts.ts';
import { childJob, FAILURES, jobSetArb, progress, stepArb, T0, type ClusterJob, type Step } from './generated-histories.ts';

// Generated histories of JobSets jobfold runs (`managedBy` jobfold's JobSet controller), for the
// order property (managed-orders.property.spec.ts). generated-histories.ts plays a JobSet its
// cluster's controller runs: jobfold's commands there are computed, never sent. Here jobfold is
// the controller, and a history is played in a closed loop as test/property/job/managed-histories.ts
// plays a Job's: jobfold folds what the cluster shows, in the cluster's order, reconciling after
// each event as the order property's delivery does (causal-orders.ts, jobSetDelivery), and its
// commands are the forwarder acting on the API server a few seconds later (`lag`): a CreateJob
// makes the child Job (refused while a Job of its name still exists, as the API server does), a
// SuspendJob or ResumeJob changes its `spec.suspend` (its pods go), each shown at once by the
// forwarder; a DeleteJob marks it terminating until a later step finishes the deletion
// (foreground). The child Jobs themselves are run by the cluster's Job controller (jobfold does
// not run them): which live Job runs, becomes ready, succeeds or fails (upstream's reasons), which
// deletion finishes, when the user suspends or resumes the JobSet, and how much time passes are
// the random part (generated-histories.ts's steps; its `report` step is only time passing here,
// since the forwarder shows what jobfold's commands changed as they land). At the end the
// forwarder has acted on every command and every deletion asked for has finished.

/** A step of generated-histories.ts, and the seconds the forwarder takes to act on the commands jobfold sends until the next. */
export interface ManagedStep extends Step {
  readonly lag: number;
}

const managedStepArb: fc.Arbitrary<ManagedStep> = fc
  .tuple(stepArb([0, 0, 1, 5, 30]), fc.constantFrom(1, 1, 2, 5))
  .map(([step, lag]) => ({ ...step, lag }));

/** A JobSet jobfold runs, of every shape jobSetArb draws, and the steps of its cluster. */
export const managedJobSetHistoryArb = fc.record({
  jobSet: jobSetArb.map((jobSet): JobSet => ({ ...jobSet, spec: { ...jobSet.spec, managedBy: JOBFOLD_JOBSET_CONTROLLER_NAME } })),
  steps: fc.array(managedStepArb, { minLength: 4, maxLength: 24 }),
});

/** A played history: its bus events in the cluster's order, and which of them answer jobfold's commands. */
export interface ManagedJobSetHistory {
  readonly id: string;
  readonly jobSet: JobSet;
  /** One event per run: jobfold reconciles after each. */
  readonly bus: BusEvents;
  /** The time of the last event: where the last reconcile runs. */
  readonly end: string;
  /** Each event (by index) that shows what the cluster did for one of jobfold's commands → their names (answerName). */
  readonly answers: ReadonlyMap<number, readonly string[]>;
  /** The commands jobfold sent on the way, in order. */
  readonly sent: readonly JobSetCommand[];
}

/**
 * What a command names for the delivery model: its commandId without the log position it was
 * decided at (a delivery in another order decides it elsewhere), and which of its kind it is in
 * the delivery: for a CreateJob or DeleteJob, how many of the same it sent before; for a
 * SuspendJob or ResumeJob, which turn of the Job's suspensions and resumptions in its attempt
 * (a Job suspended, resumed and suspended again), a repeat within one turn (sent again on a
 * snapshot older than the first) naming the same: otherwise a delivery that repeats a resumption
 * the cluster's order did not would count as having sent the cluster's next one.
 */
export function answerName(command: JobSetCommand, sent: readonly JobSetCommand[]): string | undefined {
  if (command.type === 'DeleteJobSet') return undefined;
  const base = withoutPosition(command.commandId);
  if (command.type === 'CreateJob' || command.type === 'DeleteJob') return `${base}#${sent.filter((c) => withoutPosition(c.commandId) === base).length}`;
  const job = withoutPosition(base);
  const turns = sent.filter((c) => (c.type === 'SuspendJob' || c.type === 'ResumeJob') && withoutPosition(withoutPosition(c.commandId)) === job);
  const turn = turns.reduce((n, c, i) => (i > 0 && c.type !== turns[i - 1]?.type ? n + 1 : n), 0);
  return `${base}#${turns.length > 0 && turns.at(-1)?.type !== command.type ? turn + 1 : turn}`;
}

const withoutPosition = (commandId: string) => commandId.slice(0, commandId.lastIndexOf('/'));

/**
 * The events that answer jobfold's commands in a history (its first sight of the Job created,
 * suspended or resumed; the Job's deletion), and every event after them: the cluster made them
 * after acting on the commands, so each waits for every command answered at or before it.
 */
export const managedAnswering = (history: ManagedJobSetHistory): Answering<JobSetCommand> => ({
  named: answerName,
  answers: (i, name) => history.answers.get(i)?.includes(name) ?? false,
  holdsWhatFollows: true,
});

/** Plays `steps` against the JobSet in a closed loop (above). */
export function playManagedJobSetHistory(id: string, created: JobSet, steps: readonly ManagedStep[]): ManagedJobSetHistory {
  let jobSet = created;
  const observations: JobSetObservation[] = [];
  const answers = new Map<number, string[]>();
  const jobs = new Map<string, ClusterJob>();
  /** Per child Job name, the commands acted on that its next event shows; its deletion, only its JobDeleted. */
  const awaiting = new Map<string, string[]>();
  const awaitingDeletion = new Map<string, string[]>();
  const deleting: string[] = [];
  const sent: JobSetCommand[] = [];
  let queue: { command: JobSetCommand; name: string | undefined; due: number }[] = [];
  let state: JobSetState = initialState();
  // Each child Job event as the JobSet's log receives it: with the forwarder's count (child-counts.ts).
  const stamp = childCountStamper();
  let version = 0;
  let clock = T0;
  let lag = 1;
  const at = () => new Date(clock).toISOString().replace('.000Z', 'Z');

  // jobfold folds the event and reconciles; the forwarder acts on its commands `lag` seconds later.
  const emit = (unstamped: JobSetObservation, jobName?: string) => {
    const observation = stamp(unstamped);
    if (jobName !== undefined) {
      const shows = [...(awaiting.get(jobName) ?? []), ...(observation.type === 'JobDeleted' ? (awaitingDeletion.get(jobName) ?? []) : [])];
      if (shows.length > 0) answers.set(observations.length, shows);
      awaiting.delete(jobName);
      if (observation.type === 'JobDeleted') awaitingDeletion.delete(jobName);
    }
    observations.push(observation);
    state = evolve(state, observation);
    const settled = settle(state, observation.at);
    if (!settled.converged) throw new Error(`${id}: the JobSet reconcile at ${observation.at} did not settle`);
    state = settled.state;
    for (const command of settled.commands) {
      queue.push({ command, name: answerName(command, sent), due: clock + lag * 1000 });
      sent.push(command);
    }
  };
  const showJobSet = () => emit({ type: 'JobSetObserved', at: at(), eventId: undefined, jobSet: { ...jobSet, metadata: { ...jobSet.metadata, resourceVersion: String(++version) } } });
  const showJob = (job: ClusterJob, failure: (typeof FAILURES)[number] = FAILURES[0]) => {
    job.unseen = false;
    const snapshot = childJob(job, at(), failure);
    emit({ type: 'JobObserved', at: at(), eventId: undefined, job: { ...snapshot, metadata: { ...snapshot.metadata, resourceVersion: String(++version) } } }, job.name);
  };
  const finishDeletion = (name: string) => {
    deleting.splice(deleting.indexOf(name), 1);
    const job = jobs.get(name) as ClusterJob;
    jobs.delete(name);
    emit({ type: 'JobDeleted', at: at(), eventId: undefined, name, uid: `${name}-${job.attempt}` }, name);
  };
  const answered = (jobName: string, name: string | undefined, by = awaiting) => {
    if (name !== undefined) by.set(jobName, [...(by.get(jobName) ?? []), name]);
  };

  const act = (command: JobSetCommand, name: string | undefined) => {
    const job = jobs.get(command.name);
    switch (command.type) {
      case 'CreateJob': {
        // The API server refuses a name still taken (a Job not yet gone).
        if (job !== undefined) return;
        const { name: jobName, replicatedJob, jobIndex, restartAttempt, suspend } = command;
        const parallelism = command.job.spec.parallelism ?? 1;
        const made: ClusterJob = { name: jobName, replicatedJob, jobIndex, attempt: restartAttempt, parallelism, suspend, running: false, ready: 0, finished: undefined, terminating: false, unseen: true };
        jobs.set(jobName, made);
        answered(jobName, name);
        return showJob(made);
      }
      case 'DeleteJob':
        if (job === undefined || job.terminating) return;
        job.terminating = true;
        deleting.push(job.name);
        return answered(job.name, name, awaitingDeletion);
      case 'SuspendJob':
      case 'ResumeJob':
        // A suspended Job's pods are deleted: it runs again only after it is resumed. A patch
        // that changes nothing (the Job already so) makes no watch event.
        if (job === undefined || job.finished !== undefined || job.suspend === (command.type === 'SuspendJob')) return;
        job.suspend = command.type === 'SuspendJob';
        job.running = false;
        job.ready = 0;
        answered(job.name, name);
        return showJob(job);
      case 'DeleteJobSet':
        return;
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  };

  /** Moves the clock to `to`, the forwarder acting on each command when it is due (in the order sent). */
  const advance = (to: number) => {
    for (;;) {
      const due = queue.reduce((soonest, q) => Math.min(soonest, q.due), Number.POSITIVE_INFINITY);
      if (due > to) break;
      clock = Math.max(clock, due);
      const now = queue.filter((q) => q.due <= clock);
      queue = queue.filter((q) => q.due > clock);
      for (const { command, name } of now) act(command, name);
    }
    clock = Math.max(clock, to);
  };

  showJobSet();
  for (const step of steps) {
    lag = step.lag;
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
  }
  // In the end the forwarder acts on every command sent, and every deletion finishes.
  lag = 1;
  for (let guard = 0; guard < 200 && (queue.length > 0 || deleting.length > 0); guard++) {
    if (queue.length > 0) advance(queue.reduce((soonest, q) => Math.min(soonest, q.due), Number.POSITIVE_INFINITY));
    else {
      clock += 1000;
      finishDeletion(deleting[0] as string);
    }
  }
  return {
    id,
    jobSet: created,
    bus: { observations, batches: observations.map((_, i) => i) },
    end: observations.at(-1)?.at ?? at(),
    answers,
    sent,
  };
}
