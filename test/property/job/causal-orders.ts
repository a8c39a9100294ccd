import { isDeepStrictEqual } from 'node:util';
import type { JobCommand } from '../../../shared/job/commands.ts';
import { decide } from '../../../shared/job/decide.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { expectedCreations } from '../../../shared/job/expectations.ts';
import { cloneState } from '../../../shared/job/snapshot.ts';
import { initialState, type FoldConfig, type JobState } from '../../../shared/job/state.ts';
import { jobStatus, type JobStatusView } from '../../../shared/job/status.ts';
import { JOB_TRACKING_FINALIZER } from '../../../shared/k8s/job-controller.ts';
import { comparableVersion } from '../../../shared/k8s/object-sequence.ts';
import { compareTimes, sameInstant } from '../../../shared/k8s/time.ts';
import { decideAtEachPosition } from '../../../shared/decide/decide-at-each-position.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { jobObserved, T0, tick } from '../../support/builders.ts';
import type { Batch } from './arbitraries.ts';
import { causalOrders, deliverCausally, measureCausalOrders, type Answering, type KindDelivery } from '../causal-delivery.ts';

// Issue 21's delivery model (../causal-delivery.ts) for Jobs: the cluster's events of one Job,
// delivered in any order EventBridge may produce, with one constraint only: the deletion of a pod
// jobfold asked to terminate arrives after the reconcile that sent the TerminatePod (or, if that
// delivery never sends it, last). A history played in a closed loop (managed-histories.ts) holds
// more back: whatever its cluster did after acting on one of jobfold's commands (see commandAnswers).
// Timers are jobfold's own (Tick): they are not delivered by the bus, and a closed-loop history's
// events hold none. There the delivery's jobfold gets the timer it asked for as the service's
// Scheduler delivers it: in the second it is due (rounded up), before any event the cluster made
// in that second or later (jobDelivery). Once everything has arrived the Job is reconciled at the
// last time the cluster reported, and at each timer it asks for after.

/**
 * The observations as a Kubernetes 1.35 cluster's forwarder sends them: each Pod and Job
 * observation carries a resourceVersion that orders it among the others of its resource type
 * (KEP-5504), in the order the cluster produced them. Versions already comparable are kept.
 */
export function withClusterVersions(observations: readonly Observation[]): Observation[] {
  let version = 0;
  return observations.map((o) => {
    if (o.type === 'PodObserved') {
      version += 1;
      if (comparableVersion(o.pod.metadata.resourceVersion) !== undefined) return o;
      return { ...o, pod: { ...o.pod, metadata: { ...o.pod.metadata, resourceVersion: String(version) } } };
    }
    if (o.type === 'JobObserved') {
      version += 1;
      if (comparableVersion(o.job.metadata.resourceVersion) !== undefined) return o;
      return { ...o, job: { ...o.job, metadata: { ...o.job.metadata, resourceVersion: String(version) } } };
    }
    return o;
  });
}

/**
 * The observations as a current forwarder sends them (forwarder/, docs/events.md "Ordering"):
 * each pod event stamped with its pod's own count (`seq`) and its Job's (`jobSeq`), from 1, in
 * the cluster's order (one watch delivers a Job's pods so), in one pod epoch; each Job event with
 * its own count among the Job's events (`seq`, `jobEvents`), and each pod event with the count of
 * the Job's events sent before it (`jobEvents`, in Job epoch `jobEpoch`), in one Job epoch. A Job
 * deletion is counted too, though the fold's JobDeleted keeps no stamp.
 */
export function withForwarderCounts(observations: readonly Observation[]): Observation[] {
  let jobSeq = 0;
  let jobEvents = 0;
  const perPod = new Map<string, number>();
  return observations.map((o) => {
    if (o.type === 'JobObserved' || o.type === 'JobDeleted') {
      jobEvents += 1;
      return o.type === 'JobObserved' ? { ...o, sequence: { ...o.sequence, epoch: 1, seq: jobEvents, jobEvents } } : o;
    }
    if (o.type !== 'PodObserved' && o.type !== 'PodDeleted') return o;
    const uid = o.type === 'PodObserved' ? o.pod.metadata.uid : o.uid;
    const seq = (perPod.get(uid) ?? 0) + 1;
    perPod.set(uid, seq);
    jobSeq += 1;
    return { ...o, sequence: { epoch: 1, seq, jobSeq, ...(jobEvents > 0 ? { jobEvents, jobEpoch: 1 } : {}) } };
  });
}

/** A generated history's bus events in the cluster's order: the Job, then every observation but the timers. */
export function busEvents(job: Job, batches: readonly Batch[]): Observation[] {
  const events = batches.flatMap((batch) => batch.events).filter((event): event is Observation => event.type !== 'Tick' && 'observedAt' in event);
  return withClusterVersions([jobObserved(job, T0) as Observation, ...events]);
}

/**
 * The observations without the pods no cluster reports: one first reported after the Job's
 * finish criterion was met in the cluster's order (the interim condition a fold of that order
 * writes, `FailureTarget` or `SuccessCriteriaMet`). A cluster reports a pod at its creation (the
 * forwarder's watch sees it added, in the order of the API server's writes), and upstream's
 * syncJob creates none once it chose a finish condition (`manageJob` is not called then), so a
 * pod first reported after that instant was created before it and reported late, or created
 * after it: neither happens. The open-loop generators (arbitraries.ts) draw pods at any instant,
 * all created at the Job's creation (builders.ts aPod), so that such a pod, arriving before the
 * evidence that finished the Job, looked like one the cluster's controller was still waiting for
 * (its expectations, cluster-finish.ts finishFloor), where the cluster's order had it after the
 * finish: at seeds 7, 8, 99 and 5 most of the cluster histories' deliveries that ended apart.
 * Pods reported at that very instant stay (the same second: a controller on a lagging view).
 */
export function withoutPodsAfterFinish(config: FoldConfig, observations: readonly Observation[], end: string): Observation[] {
  const c = jobCase(config, observations, end);
  const inOrder = deliverCausally(c.delivery(), c.answering, new Array<number>(observations.length).fill(0));
  const interim = jobStatus(inOrder.state).conditions.find((x) => x.status === 'True' && (x.type === 'FailureTarget' || x.type === 'SuccessCriteriaMet'));
  if (interim === undefined) return [...observations];
  const late = new Set<string>();
  const reported = new Set<string>();
  for (const o of observations) {
    const pod = podOf(o);
    if (pod === undefined || reported.has(pod)) continue;
    reported.add(pod);
    if (compareTimes(o.observedAt, interim.lastTransitionTime) > 0) late.add(pod);
  }
  return observations.filter((o) => !late.has(podOf(o) ?? ''));
}

/** The newest observedAt among the observations: where the last reconcile runs. */
export const lastTime = (observations: readonly Observation[]): string =>
  observations.reduce((latest, o) => (compareTimes(o.observedAt, latest) > 0 ? o.observedAt : latest), observations[0]?.observedAt ?? '');

/** The log a delivery writes (whom the outbox events name). */
export const JOB_STREAM = { kind: 'Job', clusterId: 'c', namespace: 'default', uid: 'job' } as const;

/**
 * A delivery of the observations through the writer's fold (from `state`, a fresh Job by default): each run of one observedAt is
 * folded by decideAtEachPosition (a reconcile after it, its decisions folded back), as the
 * writer's batches do; once everything has arrived the Job is reconciled at `end`, and at each
 * timer it asks for after (expectations, awaited outcomes, backoff, deadlines). With `timers`
 * (a closed-loop history, managed-histories.ts) every event arrives as the cluster makes it
 * (`arrivedAt` its observedAt) and jobfold's timers fire as the Scheduler fires them
 * (managed-histories.ts, "Time"): one per Job, moved by each batch that asks for a wake-up and
 * kept by one that asks for none, fired in the second it is due, before the events the cluster
 * made in that second, as a Tick observed at the time asked for; a Tick the log holds already is
 * dropped, as the writer drops a duplicate.
 */
function jobDelivery(config: FoldConfig, observations: readonly Observation[], end: string, timers: boolean, state = initialState(config)): KindDelivery<JobCommand, JobState> {
  const decider = jobDecider(config);
  const stream = JOB_STREAM;
  // The timer jobfold asked for last (the Scheduler keeps one per Job, moved by each reconcile).
  let wake: string | undefined;
  const fired = new Set<string>();
  const foldRun = (events: readonly Observation[]): JobCommand[] => {
    const { syncs, wakeAt } = decideAtEachPosition(decider, state, events, { stream });
    wake = wakeAt ?? wake;
    return syncs.flatMap((sync) => sync.commands);
  };
  const arrived = (o: Observation): Observation => (timers ? { ...o, arrivedAt: o.observedAt } : o);
  return {
    count: observations.length,
    sameRun: (a, b) => sameInstant((observations[a] as Observation).observedAt, (observations[b] as Observation).observedAt),
    fold: (run) => foldRun(run.map((i) => arrived(observations[i] as Observation))),
    // The timer fires in the second it is due, so before any event the cluster made in that second or after.
    timersBefore: !timers
      ? undefined
      : (next) => {
          const sent: JobCommand[] = [];
          const before = Date.parse((observations[next] as Observation).observedAt);
          for (let n = 0; wake !== undefined && dueSecond(wake) <= before && n < MAX_TIMERS_BEFORE; n++) {
            const due = timerTick(wake);
            wake = undefined;
            if (fired.has(due.eventId)) continue;
            fired.add(due.eventId);
            sent.push(...foldRun([due]));
          }
          return sent;
        },
    reconcile: (at) => {
      const reconciled = decide(state, at);
      for (const decision of reconciled.decisions) evolve(state, { ...decision, seq: state.position + 1 } as JobEvent);
      return reconciled;
    },
    end: () => end,
    state: () => state,
  };
}

/** Timers fired in a row before one event (a Job asking for ever more is stopped there). */
const MAX_TIMERS_BEFORE = 8;

/** When the Scheduler fires a timer due at `at` (epoch ms): rounded up to the second (functions/aws/scheduler-timers.ts). */
export const dueSecond = (at: string): number => Math.ceil(Date.parse(at) / 1000) * 1000;

/**
 * The Tick a timer due at `at` puts in the log (functions/handlers/writer/stream-records.ts):
 * observed at the time asked for, arrived when the Scheduler fired it.
 */
export const timerTick = (at: string, firedAt = new Date(dueSecond(at)).toISOString()): Observation => ({ ...tick(at), arrivedAt: firedAt });

/**
 * The observations that answer a TerminatePod: the pod's next deletion after the reconcile that
 * sent it, in the cluster's order (its PodDeleted, or its first observation with a deletionTimestamp).
 * With `created` (a history played in a closed loop, managed-histories.ts: each pod jobfold
 * created → the commandId of the CreatePod that made it), a created pod's first event answers its
 * CreatePod and the first showing the tracking finalizer gone its RemovePodFinalizer, and every
 * event that follows an answer waits for its command (the cluster made it after acting on it).
 */
function commandAnswers(observations: readonly Observation[], created?: ReadonlyMap<string, string>): Answering<JobCommand> {
  if (created === undefined) {
    return {
      named: (command) => (command.type === 'TerminatePod' ? command.podUid : undefined),
      answers: (i, uid) => isDeletionOf(observations[i] as Observation, uid),
    };
  }
  return {
    named: (command) => {
      switch (command.type) {
        case 'TerminatePod':
          return command.podUid;
        case 'CreatePod':
          return command.commandId;
        case 'RemovePodFinalizer':
          return `${FINALIZER}${command.podUid}`;
        case 'UpdateJobStatus':
          return undefined;
      }
    },
    answers: (i, name) => {
      const o = observations[i] as Observation;
      if (name.startsWith(FINALIZER)) return isFinalizerGoneOf(o, name.slice(FINALIZER.length));
      return isDeletionOf(o, name) || created.get(podOf(o) ?? '') === name;
    },
    holdsWhatFollows: true,
  };
}

/** What a RemovePodFinalizer names: the pod's uid under this prefix. */
const FINALIZER = 'finalizer/';

/** The uid of the pod an observation is of. */
const podOf = (o: Observation): string | undefined => (o.type === 'PodObserved' ? o.pod.metadata.uid : o.type === 'PodDeleted' ? o.uid : undefined);

const isFinalizerGoneOf = (o: Observation, uid: string): boolean =>
  (o.type === 'PodDeleted' && o.uid === uid) ||
  (o.type === 'PodObserved' && o.pod.metadata.uid === uid && !(o.pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER));

const isDeletionOf = (o: Observation, uid: string): boolean =>
  (o.type === 'PodDeleted' && o.uid === uid) ||
  (o.type === 'PodObserved' && o.pod.metadata.uid === uid && o.pod.metadata.deletionTimestamp !== undefined);

/** A Job case of the order properties: its observations delivered in any causal order, reconciled at `end`. */
export function measureJobOrders(
  id: string,
  run: { readonly orders: number; readonly seed: number },
  config: FoldConfig,
  observations: readonly Observation[],
  end: string,
  created?: ReadonlyMap<string, string>,
) {
  return measureCausalOrders(id, run, {
    ...jobCase(config, observations, end, created),
    outcome: jobOutcome,
    divergence: jobDivergence,
  });
}

/** The status fields that must not depend on the delivery order (issue 21, "Convergence"). */
export const jobOutcome = (state: JobState) => converging(jobStatus(state));

/** Which part of the outcome a wrong delivery got wrong. */
export const jobDivergence = (got: ReturnType<typeof jobOutcome>, want: ReturnType<typeof jobOutcome>): 'counts' | 'conditions' =>
  isDeepStrictEqual(got.conditions, want.conditions) ? 'counts' : 'conditions';

/**
 * A closed-loop history's events (managed-histories.ts: the cluster's, without jobfold's
 * timers) folded in the cluster's order as the writer does, each arriving as the cluster made
 * it, with the timers this fold asks for: the commands it sent (`sent`), and its Job reconciled
 * once all have arrived (reconciledAtEnd), where that cluster's order ends.
 */
export function foldedInClusterOrder(config: FoldConfig, observations: readonly Observation[]): { readonly sent: readonly JobCommand[]; readonly state: JobState } {
  const kind = jobDelivery(config, observations, lastTime(observations), true);
  const sent: JobCommand[] = [];
  for (let start = 0; start < observations.length; ) {
    let end = start + 1;
    while (end < observations.length && kind.sameRun(start, end)) end += 1;
    sent.push(...(kind.timersBefore?.(start) ?? []));
    sent.push(...kind.fold(Array.from({ length: end - start }, (_, i) => start + i)));
    start = end;
  }
  return { sent, state: reconciledAtEnd(config, kind.state(), observations) };
}

/**
 * The pods a closed-loop delivery created (`created`: uid → commandId, managed-histories.ts) that
 * the fold of its cluster's events in that cluster's order (foldedInClusterOrder) did not want
 * when it first saw them: no creation of its own was pending (its expectations, creations asked
 * and not seen yet), and a sync at that instant would ask for none. A pod it wanted is adopted:
 * that fold never sends the CreatePod the pod stands for, so its count of CreatePods is no bound
 * on the pods the delivery may safely create (seed 21 history-15 delivery 5, history-32 delivery
 * 6; docs/ordering.md, the closed loop's creation measure). The pods first seen at one instant are
 * taken one by one with the events of that instant before them, each folded (on a copy) before
 * the next is weighed: seeing one may lift the expectation that held a creation back. A created pod its cluster's events never show counts as
 * not wanted.
 */
export function unwantedCreations(config: FoldConfig, observations: readonly Observation[], created: ReadonlyMap<string, string>): string[] {
  const kind = jobDelivery(config, observations, lastTime(observations), true);
  const decider = jobDecider(config);
  const unwanted: string[] = [];
  const sighted = new Set<string>();
  for (let start = 0; start < observations.length; ) {
    let end = start + 1;
    while (end < observations.length && kind.sameRun(start, end)) end += 1;
    kind.timersBefore?.(start);
    const run = Array.from({ length: end - start }, (_, i) => start + i);
    const firsts = new Set(run.filter((i) => {
      const uid = podUidOf(observations[i] as Observation);
      if (uid === undefined || !created.has(uid) || sighted.has(uid)) return false;
      sighted.add(uid);
      return true;
    }));
    if (firsts.size > 0) {
      // On a copy: a sync at this instant, then the run's events one by one, each pod weighed before its first sighting is folded.
      const copy = cloneState(kind.state());
      decideAtEachPosition(decider, copy, [tick((observations[start] as Observation).observedAt)], { stream: JOB_STREAM });
      for (const i of run.slice(0, Math.max(...firsts) - start + 1)) {
        const observation = observations[i] as Observation;
        if (firsts.has(i) && expectedCreations(copy) <= 0) unwanted.push(podUidOf(observation) as string);
        decideAtEachPosition(decider, copy, [observation], { stream: JOB_STREAM });
      }
    }
    kind.fold(run);
    start = end;
  }
  for (const uid of created.keys()) if (!sighted.has(uid)) unwanted.push(uid);
  return unwanted;
}

const podUidOf = (o: Observation): string | undefined => (o.type === 'PodObserved' ? o.pod.metadata.uid : o.type === 'PodDeleted' ? o.uid : undefined);

/**
 * A Job a closed-loop delivery folded, reconciled as deliverCausally ends a delivery: at the
 * last time its events name, and at each timer it asks for after.
 */
export const reconciledAtEnd = (config: FoldConfig, state: JobState, observations: readonly Observation[]): JobState =>
  deliverCausally(jobDelivery(config, [], lastTime(observations), false, state), { named: () => undefined, answers: () => false }, []).state;

/** The delivery orders measureJobOrders draws for a case, after the cluster's own (indexes into `observations`). */
export const jobDeliveryOrders = (
  run: { readonly orders: number; readonly seed: number },
  config: FoldConfig,
  observations: readonly Observation[],
  end: string,
  created?: ReadonlyMap<string, string>,
) => causalOrders(run, jobCase(config, observations, end, created));

/** How a Job case is delivered: a closed-loop history (`created`) with the timers its jobfold asks for. */
const jobCase = (config: FoldConfig, observations: readonly Observation[], end: string, created?: ReadonlyMap<string, string>) => ({
  delivery: () => jobDelivery(config, observations, end, created !== undefined),
  answering: commandAnswers(observations, created),
});

/** The status fields that must not depend on the delivery order (issue 21, "Convergence"). */
function converging(status: JobStatusView) {
  return {
    conditions: status.conditions.map(({ type, status: value, reason, message }) => ({ type, status: value, reason, message })),
    succeeded: status.succeeded,
    failed: status.failed,
    terminating: status.terminating,
    active: status.active,
    ready: status.ready,
    completedIndexes: status.completedIndexes,
    failedIndexes: status.failedIndexes,
  };
}
