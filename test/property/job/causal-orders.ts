import type { JobCommand } from '../../../shared/job/commands.ts';
import { decide } from '../../../shared/job/decide.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { evolve, type JobEvent } from '../../../shared/job/evolve.ts';
import { initialState, type FoldConfig, type JobState } from '../../../shared/job/state.ts';
import { jobStatus, type JobStatusView } from '../../../shared/job/status.ts';
import { comparableVersion } from '../../../shared/k8s/object-sequence.ts';
import { compareTimes, sameInstant } from '../../../shared/k8s/time.ts';
import { decideAtEachPosition } from '../../../shared/decide/decide-at-each-position.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import { deliverInCausalOrder } from '../causal-delivery.ts';

// Issue 21's delivery model: the cluster's events of one Job, delivered in any order EventBridge
// may produce, with one constraint only: an event that answers jobfold's own command (the
// deletion of a pod jobfold asked to terminate) arrives after the reconcile that sent it (or, if
// that delivery never sends it, last).
// Timers are jobfold's own (Tick): they are not delivered by the bus, and once everything has
// arrived the Job is reconciled at the last time the cluster reported.

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

/** What one delivery ends in, and the commands it sent on the way. */
export interface Delivered {
  /** The delivery order: indexes into the observations, in the cluster's order. */
  readonly order: readonly number[];
  readonly status: JobStatusView;
  readonly commands: readonly JobCommand[];
  readonly state: JobState;
  /** For each observation delivered (by its index), the commands of the reconciles right after it. */
  readonly commandsAfter: ReadonlyMap<number, readonly JobCommand[]>;
}

/** The newest observedAt among the observations: where the last reconcile runs. */
export const lastTime = (observations: readonly Observation[]): string =>
  observations.reduce((latest, o) => (compareTimes(o.observedAt, latest) > 0 ? o.observedAt : latest), observations[0]?.observedAt ?? '');

/**
 * Delivers the observations in the order `keys` rank them (ties: the cluster's order) through
 * the writer's fold: each run of one observedAt is folded by decideAtEachPosition (a reconcile
 * after it, its decisions folded back), as the writer's batches do. An answer (`answers`: its
 * index → the pod jobfold's TerminatePod named) is held until this delivery sent that command,
 * or until nothing else is left to deliver. Then the Job is reconciled at `end`, and at each
 * timer it asks for after (expectations, awaited outcomes, backoff, deadlines).
 */
export function deliver(
  config: FoldConfig,
  observations: readonly Observation[],
  keys: readonly number[],
  end: string,
  answers: ReadonlyMap<number, string> = new Map(),
): Delivered {
  const state = initialState(config);
  const decider = jobDecider(config);
  const stream = { kind: 'Job', clusterId: 'c', namespace: 'default', uid: 'job' } as const;
  const commands: JobCommand[] = [];
  const commandsAfter = new Map<number, JobCommand[]>();
  const terminated = new Set<string>();
  const order = deliverInCausalOrder({
    count: observations.length,
    keys,
    answers,
    commanded: terminated,
    sameRun: (a, b) => sameInstant((observations[a] as Observation).observedAt, (observations[b] as Observation).observedAt),
    fold: (run) => {
      const { syncs } = decideAtEachPosition(decider, state, run.map((i) => observations[i] as Observation), { stream });
      const sent = syncs.flatMap((sync) => sync.commands);
      for (const command of sent) if (command.type === 'TerminatePod') terminated.add(command.podUid);
      commands.push(...sent);
      commandsAfter.set(run.at(-1) as number, sent);
    },
  });
  let at: string | undefined = end;
  for (let timers = 0; at !== undefined && timers < MAX_TIMERS; timers++) {
    const reconciled = decide(state, at);
    for (const decision of reconciled.decisions) evolve(state, { ...decision, seq: state.position + 1 } as JobEvent);
    commands.push(...reconciled.commands);
    at = reconciled.wakeAt;
  }
  return { order, status: jobStatus(state), commands, state, commandsAfter };
}

/** Timers followed after the last delivery; a Job still asking for more is compared as it stands then. */
const MAX_TIMERS = 8;

/**
 * The observations that answer a command of the in-order delivery, with the pod it named: the
 * pod's next deletion after the reconcile that sent TerminatePod, in the cluster's order (its
 * PodDeleted, or its first observation with a deletionTimestamp).
 */
export function answeredCommands(observations: readonly Observation[], inOrder: Delivered): Map<number, string> {
  const answers = new Map<number, string>();
  for (const [after, commands] of inOrder.commandsAfter) {
    for (const command of commands) {
      if (command.type !== 'TerminatePod') continue;
      const answer = observations.findIndex((o, i) => i > after && isDeletionOf(o, command.podUid));
      if (answer >= 0) answers.set(answer, command.podUid);
    }
  }
  return answers;
}

const isDeletionOf = (o: Observation, uid: string): boolean =>
  (o.type === 'PodDeleted' && o.uid === uid) ||
  (o.type === 'PodObserved' && o.pod.metadata.uid === uid && o.pod.metadata.deletionTimestamp !== undefined);

/** The status fields that must not depend on the delivery order (issue 21, "Convergence"). */
export function converging(status: JobStatusView) {
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
