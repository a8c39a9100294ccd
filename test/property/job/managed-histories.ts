import fc from 'fast-check';
import { decideAtEachPosition } from '../../../shared/decide/decide-at-each-position.ts';
import type { JobCommand } from '../../../shared/job/commands.ts';
import { creationRefusal, deletionRefusal, finalizerRemovalRefusal, isGuardedCause, onlyReplaceFailedPods, type LivePod } from '../../../shared/job/index.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import { DEFAULT_FOLD_CONFIG, initialState, type JobState } from '../../../shared/job/state.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import type { PodPhase } from '../../../shared/k8s/pod.ts';
import { aPod, at, jobObserved, podDeleted, podObserved, withSpec } from '../../support/builders.ts';
import { carriageArb, inClusterOrder, inFlight, type Carriage } from '../in-flight.ts';
import { jobArb } from './arbitraries.ts';
import { dueSecond, JOB_STREAM, timerTick, withClusterVersions, withForwarderCounts } from './causal-orders.ts';
import { scheduledAt, SCHEDULER_PRECISION_SECONDS } from '../../../functions/aws/scheduler-timers.ts';

// Generated histories of Jobs jobfold runs (`managedBy`), for the order property
// (managed-orders.property.spec.ts). Such a Job's pods exist because jobfold asked for them and go
// because it asked, so, as test/property/jobset/generated-histories.ts does for JobSets, a history
// is played in a closed loop: jobfold folds what reaches it of what the cluster shows (by default
// all of it, as soon as it is made; a delivery of its own delays each event, ../in-flight.ts), and
// its commands are the forwarder acting on the API server a few seconds later (`lag`): a CreatePod makes a Pending pod
// of the index and failure counts asked for unless the forwarder's guard on the live Job and pods
// refuses it (shared/job/creation-guard.ts), a TerminatePod marks the pod deleted (uid
// precondition) unless its guard refuses it (shared/job/deletion-guard.ts), a RemovePodFinalizer
// takes the tracking finalizer off unless the live pod does not show its cause
// (shared/job/finalizer-guard.ts); a deleted pod goes once
// its containers stopped and no finalizer holds it. The random part is what the kubelet and the
// user do and when: a pod starts, becomes ready, succeeds or fails (an exit code, a disruption;
// under `restartPolicy: OnFailure` its container restarts instead), a pod being deleted stops, the
// user deletes (evicts) a pod, suspends or resumes the Job, scales `parallelism`. Every change is
// one watch event the forwarder sends, stamped with the Job's count (`jobSeq`) as a current
// forwarder does. At the end the forwarder has acted on every command and every pod being deleted
// has stopped.
//
// Time. jobfold does what the service does with it, no more and no less: what reached it in one
// second is one writer batch, decided at each log position at the run's observedAt (never at the
// time it arrived, shared/decide/decide-at-each-position.ts), each event keeping its arrival
// (`arrivedAt`, as the writer stamps Kinesis's, functions/handlers/writer/stream-records.ts).
// Its timer is the Scheduler's (functions/aws/scheduler-timers.ts, writer-handler.ts): one per
// Job, moved by a batch that asks for a wake-up and kept by one that asks for none; it is
// scheduled for the whole minute at or after the time it is due, and fires 0 to 59 seconds into
// that minute (EventBridge Scheduler's documented 60-second precision, no flexible time window;
// drawn for each schedule, `ManagedDelivery.scheduler`), or in the next second when that was
// already past (a delivery that reached jobfold late), before the forwarder acts in that second;
// the in-order play fires it in the second it is due, as the fold in the cluster's order does
// (causal-orders.ts), so that fold is the loop without the Scheduler's lateness; its Tick is observed at
// the time asked for and is a batch of its own; a Tick the log holds already is dropped, as the
// writer drops a duplicate eventId. The Ticks are jobfold's, not the cluster's: they are in
// `logged`, not in `observations`.

/** What the kubelet or the user does next. */
export interface ManagedStep {
  readonly op: 'kubelet' | 'delete' | 'suspend' | 'scale';
  /** Which pod (modulo the candidates). */
  readonly pick: number;
  readonly succeeds: boolean;
  readonly exitCode: number;
  readonly disrupted: boolean;
  readonly ready: boolean;
  readonly parallelism: number;
  /** Seconds since the previous step. */
  readonly gap: number;
  /** Seconds the forwarder takes to act on the commands jobfold sends during this step's wait. */
  readonly lag: number;
}

const stepArb: fc.Arbitrary<ManagedStep> = fc.record({
  op: fc.constantFrom<ManagedStep['op']>('kubelet', 'kubelet', 'kubelet', 'kubelet', 'delete', 'suspend', 'scale'),
  pick: fc.nat({ max: 12 }),
  succeeds: fc.boolean(),
  exitCode: fc.constantFrom(1, 3, 42),
  disrupted: fc.boolean(),
  ready: fc.boolean(),
  parallelism: fc.integer({ min: 0, max: 4 }),
  gap: fc.constantFrom(0, 0, 1, 5, 30, 400),
  lag: fc.constantFrom(1, 1, 2, 5),
});

/** A Job jobfold runs, of every shape jobArb draws, and the steps of its cluster. */
export const managedHistoryArb = fc.record({
  job: jobArb.map((job): Job => withSpec(job, { managedBy: JOBFOLD_CONTROLLER_NAME })),
  steps: fc.array(stepArb, { minLength: 4, maxLength: 30 }),
});

/** How one delivery plays a history's steps: its bus (../in-flight.ts), the forwarder's lag at each step, and the Scheduler's lateness. */
export interface ManagedDelivery {
  readonly carriage: Carriage;
  readonly lags: readonly number[];
  /**
   * The seconds into the minute it is scheduled for each timer the writer schedules, in turn,
   * fires (EventBridge Scheduler's 60-second precision); none: in the second it is due (the
   * in-order play, whose timers the fold in the cluster's order fires so too).
   */
  readonly scheduler?: { next(): number };
}

/**
 * A random delivery of a history of `steps`: each event delayed by up to the history's length
 * (its gaps and the longest lag), so any event may reach jobfold after any the cluster made
 * later, and lags drawn afresh.
 */
export const managedDeliveryArb = (steps: readonly ManagedStep[]): fc.Arbitrary<ManagedDelivery> =>
  fc.record({
    carriage: carriageArb(steps.reduce((sum, step) => sum + step.gap, 0) + 5),
    lags: fc.array(fc.constantFrom(1, 1, 2, 5), { minLength: steps.length, maxLength: steps.length }),
    scheduler: schedulerArb,
  });

/** The Scheduler's lateness, drawn afresh for each schedule: 0 to 59 seconds into the minute it is scheduled for. */
const schedulerArb = fc.infiniteStream(fc.integer({ min: 0, max: SCHEDULER_PRECISION_SECONDS - 1 })).map((stream) => {
  const draws = stream[Symbol.iterator]();
  return { next: () => draws.next().value as number };
});

/** Rounds of the last phase while events are still in flight. */
const MAX_FINAL_ROUNDS = 1000;

/** The exit code of a container the kubelet killed for the pod's deletion (SIGKILL). */
const KILLED = 137;

/** A pod on the API server, as the forwarder created it for jobfold. */
interface ClusterPod {
  readonly uid: string;
  readonly index: number | undefined;
  readonly failureCount: number | undefined;
  readonly ignoredFailureCount: number | undefined;
  readonly createdAt: number;
  phase: PodPhase;
  ready: boolean;
  restartCount: number;
  exitCode: number | undefined;
  disrupted: boolean;
  finishedAt: number | undefined;
  deletingAt: number | undefined;
  finalizer: boolean;
}

/** A played history: its events in the cluster's order, and which of them show a pod jobfold asked for. */
export interface ManagedHistory {
  readonly id: string;
  readonly job: Job;
  /** The cluster's events in the order it made them, stamped with resourceVersions and the forwarder's counts (jobfold's timers are not among them). */
  readonly observations: readonly Observation[];
  /** The order jobfold folded them in (indexes into `observations`). */
  readonly order: readonly number[];
  /** What jobfold logged, in order: the cluster's events with the time each arrived, and its timers' Ticks. */
  readonly logged: readonly Observation[];
  /** jobfold's Job once every event has arrived and every command been acted on. */
  readonly state: JobState;
  /** Each pod (by uid) → the commandId of the CreatePod that made it. */
  readonly created: ReadonlyMap<string, string>;
  /** The commands jobfold sent on the way, in order (status writes left out). */
  readonly sent: readonly JobCommand[];
  /** When each of `sent` left (seconds on the cluster's clock, as `at` counts them). */
  readonly sentAt: readonly number[];
  /** jobfold's deletions of live pods (a TerminatePod that reached a Pending or Running pod), with the cluster's Job then. */
  readonly deletedLive: readonly LiveDeletion[];
  /** The TerminatePods the forwarder's guard refused (shared/job/deletion-guard.ts), when, and why. */
  readonly refusedDeletions: readonly { readonly podUid: string; readonly cause: string; readonly at: number; readonly refusal: string }[];
}

/** A TerminatePod that deleted a live pod, and what the cluster's Job was at that moment. */
export interface LiveDeletion {
  readonly uid: string;
  /** Live pods not being deleted, this one included, and the Job's parallelism and suspension. */
  readonly running: number;
  readonly parallelism: number;
  readonly suspended: boolean;
}

const isLive = (pod: ClusterPod) => pod.phase === 'Pending' || pod.phase === 'Running';

/** A pod as the forwarder's guards read it (shared/job/creation-guard.ts). */
const livePod = (pod: ClusterPod): LivePod => ({ index: pod.index, terminal: !isLive(pod), succeeded: pod.phase === 'Succeeded', deleting: pod.deletingAt !== undefined, tracked: pod.finalizer });

/**
 * Plays `steps` against the Job in a closed loop (above). By default each event reaches jobfold
 * as soon as the cluster makes it, in the cluster's order, with the steps' lags; a delivery of its
 * own (a random carriage and lags) plays a cluster of its own, acting on the commands that
 * delivery's jobfold sends. jobfold's timers fire where it is, never through the bus.
 */
export function playManagedHistory(
  id: string,
  job: Job,
  steps: readonly ManagedStep[],
  delivery: ManagedDelivery = { carriage: inClusterOrder(), lags: steps.map((step) => step.lag) },
): ManagedHistory {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  const decider = jobDecider(DEFAULT_FOLD_CONFIG);
  const onFailure = job.spec.template.spec?.restartPolicy === 'OnFailure';
  let spec = job;
  const pods = new Map<string, ClusterPod>();
  const events: Observation[] = [];
  const created = new Map<string, string>();
  const bus = inFlight<number>(delivery.carriage, 1); // the clock counts seconds
  // What reached jobfold at this instant, not folded yet (an index into `events`, or a Tick): the writer's next batch.
  let run: (number | Observation)[] = [];
  const arrivedAt = new Map<number, number>();
  const order: number[] = [];
  const logged: Observation[] = [];
  let queue: { command: JobCommand; due: number }[] = [];
  // The Scheduler's one timer for the Job: the time asked for, and the second it fires in.
  let timer: { readonly at: string; readonly fires: number } | undefined;
  const ticked = new Set<string>();
  let clock = 0;
  let podCount = 0;
  const sent: JobCommand[] = [];
  const sentAt: number[] = [];
  const deletedLive: LiveDeletion[] = [];
  const refusedDeletions: { podUid: string; cause: string; at: number; refusal: string }[] = [];

  const emit = (event: Observation) => {
    bus.send(events.length, clock);
    events.push({ ...event, eventId: `${events.length}/${event.eventId}` });
    arrive();
  };
  const arrive = () => {
    for (const i of bus.take(clock)) {
      arrivedAt.set(i, clock);
      run.push(i);
    }
  };
  const show = (pod: ClusterPod) =>
    emit(
      podObserved(
        aPod({
          name: pod.uid,
          uid: pod.uid,
          index: pod.index,
          failureCount: pod.failureCount,
          ignoredFailureCount: pod.ignoredFailureCount,
          creationTimestamp: at(pod.createdAt),
          phase: pod.phase,
          exitCode: pod.phase === 'Failed' ? pod.exitCode : undefined,
          finishedAt: pod.finishedAt === undefined ? undefined : at(pod.finishedAt),
          conditions: pod.disrupted ? [{ type: 'DisruptionTarget' }] : [],
          deletionTimestamp: pod.deletingAt === undefined ? undefined : at(pod.deletingAt),
          finalizer: pod.finalizer,
          ready: pod.ready && pod.phase === 'Running',
          restartCount: pod.restartCount,
        }),
        at(clock),
      ),
    );
  // The API server removes a deleted pod once its containers stopped and no finalizer holds it.
  const goIfDone = (pod: ClusterPod) => {
    if (pod.deletingAt === undefined || isLive(pod) || pod.finalizer) return;
    pods.delete(pod.uid);
    emit(podDeleted(pod.uid, at(clock)));
  };

  // jobfold's reconcile after the run, as the writer's batch decides; its commands go to the queue.
  const flush = (lag: number) => {
    if (run.length === 0) return;
    const stamped = withClusterVersions(withForwarderCounts(events));
    const batch = run.map((e) => (typeof e === 'number' ? { ...(stamped[e] as Observation), arrivedAt: at(arrivedAt.get(e) ?? clock) } : e));
    const { syncs, wakeAt } = decideAtEachPosition(decider, state, batch, { stream: JOB_STREAM });
    order.push(...run.filter((e): e is number => typeof e === 'number'));
    logged.push(...batch);
    run = [];
    for (const command of syncs.flatMap((sync) => sync.commands)) {
      // A status write changes no pod; the Job's status is not part of what the fold reads back.
      if (command.type === 'UpdateJobStatus') continue;
      queue.push({ command, due: clock + lag });
      sent.push(command);
      sentAt.push(clock);
    }
    // The writer moves the Job's timer when the batch asks for a wake-up, and leaves it otherwise
    // (functions/handlers/writer-handler.ts). One already due (a delivery that reached jobfold
    // late) fires at once, in the next second.
    // The Scheduler invokes it within the minute it is scheduled for (a delivery's drawn lateness);
    // the in-order play fires it in the second it is due, as the fold in the cluster's order does.
    if (wakeAt !== undefined) {
      const { scheduler } = delivery;
      const fires = scheduler === undefined ? dueSecond(wakeAt) : scheduledAt(wakeAt) + scheduler.next() * 1000;
      timer = { at: wakeAt, fires: Math.max((fires - Date.parse(at(0))) / 1000, clock + 1) };
    }
  };

  // The timer fires: its Tick, observed at the time asked for, is a batch of its own (a Tick the
  // log holds already is dropped, as the writer drops a duplicate).
  const fire = (lag: number) => {
    if (timer === undefined) return;
    const due = timerTick(timer.at, at(clock));
    timer = undefined;
    if (ticked.has(due.eventId)) return;
    ticked.add(due.eventId);
    flush(lag);
    run.push(due);
    flush(lag);
  };

  const act = (command: JobCommand) => {
    switch (command.type) {
      case 'CreatePod': {
        // The forwarder's guard on the live Job and pods (forwarder/commands/apply-command.ts).
        const live = {
          parallelism: spec.spec.parallelism ?? 1,
          completions: spec.spec.completions ?? undefined,
          suspended: spec.spec.suspend === true,
          onlyReplaceFailedPods: onlyReplaceFailedPods(spec.spec),
        };
        const livePods = [...pods.values()].map((p) => ({
          index: p.index,
          terminal: !isLive(p),
          succeeded: p.phase === 'Succeeded',
          deleting: p.deletingAt !== undefined,
          tracked: p.finalizer,
          ...(p.failureCount === undefined ? {} : { indexFailures: p.failureCount + (p.ignoredFailureCount ?? 0) }),
        }));
        if (creationRefusal(live, command, livePods) !== undefined) return;
        const uid = `p${podCount++}`;
        const pod: ClusterPod = {
          uid,
          index: command.index,
          failureCount: command.indexFailureCount,
          ignoredFailureCount: command.indexIgnoredFailureCount,
          createdAt: clock,
          phase: 'Pending',
          ready: false,
          restartCount: 0,
          exitCode: undefined,
          disrupted: false,
          finishedAt: undefined,
          deletingAt: undefined,
          finalizer: true,
        };
        pods.set(uid, pod);
        created.set(uid, command.commandId);
        show(pod);
        return;
      }
      case 'TerminatePod': {
        const pod = pods.get(command.podUid);
        if (pod === undefined || pod.deletingAt !== undefined) return;
        // The forwarder's guard on the live Job and pods (shared/job/deletion-guard.ts): a refused
        // deletion leaves the pod, and its finalizer, as they are.
        const live = { parallelism: spec.spec.parallelism ?? 1, completions: spec.spec.completions ?? undefined, suspended: spec.spec.suspend === true, indexed: spec.spec.completionMode === 'Indexed' };
        const target = livePod(pod);
        const refusal = deletionRefusal(command.cause, live, target, [...pods.values()].map((p) => (p === pod ? target : livePod(p))));
        if (refusal !== undefined) {
          refusedDeletions.push({ podUid: pod.uid, cause: command.cause, at: clock, refusal });
          return;
        }
        if (isLive(pod)) {
          const running = [...pods.values()].filter((p) => isLive(p) && p.deletingAt === undefined).length;
          deletedLive.push({ uid: pod.uid, running, parallelism: spec.spec.parallelism ?? 1, suspended: spec.spec.suspend === true });
        }
        pod.deletingAt = clock;
        // Deleted for a cause decided on the spec, its finalizer goes too (upstream deleteJobPods;
        // forwarder/commands/apply-command.ts), unless the pod had finished: its outcome counts.
        if (isGuardedCause(command.cause) && isLive(pod)) pod.finalizer = false;
        show(pod);
        goIfDone(pod);
        return;
      }
      case 'RemovePodFinalizer': {
        const pod = pods.get(command.podUid);
        if (pod === undefined || !pod.finalizer) return;
        // The forwarder's guard on the live pod, by the removal's cause (shared/job/finalizer-guard.ts):
        // the finalizer of a pod that neither ended nor is being deleted stays unless the Job finished.
        if (finalizerRemovalRefusal(command.cause, livePod(pod)) !== undefined) return;
        pod.finalizer = false;
        show(pod);
        goIfDone(pod);
        return;
      }
      case 'UpdateJobStatus':
        return;
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  };

  /**
   * Moves the clock to `to`: on the way, jobfold's timer fires, the forwarder acts on each
   * command when it is due, and events reach jobfold when they arrive; what reached it in one
   * second is reconciled before the clock moves on.
   */
  const advance = (to: number, lag: number) => {
    for (let guard = 0; guard < 100 + bus.size(); guard++) {
      const due = queue.reduce((soonest, q) => Math.min(soonest, q.due), Number.POSITIVE_INFINITY);
      const next = Math.min(due, timer?.fires ?? Number.POSITIVE_INFINITY, bus.nextArrival());
      // The run at this instant is reconciled before the clock moves on: it may send commands due before `to`.
      if (next > clock && run.length > 0 && to > clock) {
        flush(lag);
        continue;
      }
      if (next > to) break;
      if (next > clock) clock = next;
      // In one second the Scheduler fires first (at the second's start), then the forwarder acts.
      if (timer !== undefined && timer.fires <= clock) fire(lag);
      else if (due <= clock) {
        const now = queue.filter((q) => q.due <= clock);
        queue = queue.filter((q) => q.due > clock);
        for (const { command } of now) act(command);
      }
      arrive();
    }
    clock = Math.max(clock, to);
  };

  emit(jobObserved(job, at(0)));
  for (const [n, step] of steps.entries()) {
    advance(clock + step.gap, delivery.lags[n] ?? step.lag);
    switch (step.op) {
      case 'suspend':
        spec = withSpec(spec, { suspend: spec.spec.suspend !== true });
        emit(jobObserved(spec, at(clock)));
        break;
      case 'scale':
        spec = withSpec(spec, { parallelism: step.parallelism });
        emit(jobObserved(spec, at(clock)));
        break;
      case 'delete': {
        const candidates = [...pods.values()].filter((pod) => isLive(pod) && pod.deletingAt === undefined);
        const pod = candidates[step.pick % Math.max(1, candidates.length)];
        if (pod === undefined) break;
        pod.deletingAt = clock;
        pod.disrupted = step.disrupted;
        show(pod);
        break;
      }
      case 'kubelet': {
        const candidates = [...pods.values()].filter(isLive);
        const pod = candidates[step.pick % Math.max(1, candidates.length)];
        if (pod === undefined) break;
        kubelet(pod, step);
        show(pod);
        goIfDone(pod);
        break;
      }
    }
  }

  /** The pod's next state: it starts, becomes ready, finishes (or restarts); a deleted one stops. */
  function kubelet(pod: ClusterPod, step: ManagedStep): void {
    if (pod.deletingAt !== undefined) return finish(pod, 'Failed', KILLED);
    if (pod.phase === 'Pending') {
      pod.phase = 'Running';
      pod.ready = step.ready;
      return;
    }
    if (!pod.ready && step.ready && step.pick % 2 === 0) {
      pod.ready = true;
      return;
    }
    if (step.succeeds) return finish(pod, 'Succeeded', 0);
    if (onFailure) {
      pod.restartCount += 1;
      pod.ready = false;
      return;
    }
    pod.disrupted = pod.disrupted || step.disrupted;
    finish(pod, 'Failed', step.exitCode);
  }

  function finish(pod: ClusterPod, phase: 'Succeeded' | 'Failed', exitCode: number): void {
    pod.phase = phase;
    pod.exitCode = exitCode;
    pod.finishedAt = clock;
    pod.ready = false;
  }

  // In the end every event arrives, the forwarder acts on every command sent, and every pod being deleted stops.
  for (let round = 0; round < 20 || (bus.size() > 0 && round < MAX_FINAL_ROUNDS); round++) {
    // Nothing left but events in flight: on to the next arrival.
    advance(bus.size() > 0 && queue.length === 0 ? Math.max(clock + 1, bus.nextArrival()) : clock + 1, 1);
    const stopping = [...pods.values()].filter((pod) => isLive(pod) && pod.deletingAt !== undefined);
    for (const pod of stopping) {
      finish(pod, 'Failed', KILLED);
      show(pod);
      goIfDone(pod);
    }
    if (stopping.length === 0 && queue.length === 0 && run.length === 0 && bus.size() === 0) break;
  }
  arrive();
  flush(1);
  return { id, job, observations: withClusterVersions(withForwarderCounts(events)), order, logged, state, created, sent, sentAt, deletedLive, refusedDeletions };
}
