import { boundedText, MAX_REASON_BYTES } from '../k8s/bounded-text.ts';
import { terminatePods, type JobCommand } from './commands.ts';
import { putCondition, type JobCondition } from './conditions.ts';
import type { Decision, DecisionOf, TerminationCause } from './decisions.ts';
import type { Evidence } from '../policies/evidence.ts';
import { podClass, type PodRecord } from './pod-record.ts';
import { clockSkewOf, type JobState } from './state.ts';
import { readingLive, reconcileInstant } from './cluster-clock.ts';
import { EXPECTATIONS_TIMEOUT_MS } from '../k8s/job-controller.ts';

/**
 * One reconcile of one Job (upstream `syncJobCtx`): the inputs, and the decisions and commands
 * gathered so far. `decide` builds it, the policy steps add to it, and nothing in it is shared
 * with the state, which only changes when the decisions are folded back in.
 */
export interface Sync {
  readonly state: JobState;
  readonly now: number;
  readonly nowIso: string;
  readonly decisions: Decision[];
  readonly commands: JobCommand[];
  /** Status counts after this sync's deletions and creations. */
  active: number;
  ready: number;
  terminating: number;
  startTime: string | undefined;
  conditions: JobCondition[];
  /** When the Job must be reconciled again even if nothing happens (deadline, backoff). */
  wakeAt: number | undefined;
  /** Pods whose tracking finalizer this sync asks to remove (managed Jobs). */
  finalizersRemoved: Set<string> | undefined;
  /**
   * manageJob returned 0 because the recreation backoff holds creations back: upstream then
   * writes `active: 0` for this sync (managed Jobs' status write-back follows it).
   */
  activeWrittenAsZero: boolean;
  /** Pods whose requested deletion this sync took back (termination-lapse.ts): nothing is asked of them. */
  lapsed: Set<string> | undefined;
}

export function newSync(state: JobState, requested: string): Sync {
  const { at, iso } = reconcileInstant(state.clock, requested, clockSkewOf(state.config));
  return {
    state,
    now: at,
    nowIso: iso,
    decisions: [],
    commands: [],
    active: state.counts.active,
    ready: state.counts.ready,
    terminating: state.counts.terminating,
    startTime: state.status.startTime,
    conditions: [...state.status.conditions],
    wakeAt: undefined,
    // Made when the first removal is asked: most syncs ask none, and decide runs after every event.
    finalizersRemoved: undefined,
    activeWrittenAsZero: false,
    lapsed: undefined,
  };
}

/** Adds a decision with an id that two reconcilers deciding the same thing would share. */
export function record(sync: Sync, decision: NewDecision): void {
  const uid = sync.state.identity?.uid ?? '';
  const eventId = `${uid}/${sync.state.position}/${sync.decisions.length}`;
  sync.decisions.push({ ...decision, eventId, at: sync.nowIso } as Decision);
}

/** A decision before it gets its id and time. */
export type NewDecision = Decision extends infer D
  ? D extends Decision
    ? Omit<D, 'eventId' | 'at' | 'seq'>
    : never
  : never;

/** Writes a condition (reason and message bounded as the API server stores them), with the evidence that decided it. */
export function setCondition(sync: Sync, given: JobCondition, evidence: Evidence): void {
  const condition = { ...given, reason: boundedText(given.reason, MAX_REASON_BYTES), message: boundedText(given.message) };
  sync.conditions = putCondition(sync.conditions, condition);
  record(sync, { type: 'JobConditionChanged', condition, evidence });
}

export function wakeAt(sync: Sync, at: number): void {
  if (sync.wakeAt === undefined || at < sync.wakeAt) sync.wakeAt = at;
}

/**
 * This sync asks the cluster for something whose effect it expects to observe (pods created or
 * deleted, finalizers removed): wake the Job when that expectation expires. jobfold never hears
 * that a command failed (upstream does, and retries at once); woken then, the Job asks again,
 * and is woken again, so a command lost on the way is retried every EXPECTATIONS_TIMEOUT_MS
 * without waiting for an event that a pod never created cannot send. Every request has its own
 * timer, so when the Job is reconciled besides (another timer, an event) changes nothing: the
 * what-if, reconciling a patched fold where the record's controller woke, relies on that.
 * Not while the fold reads history long past (cluster-clock.ts readingLive): each wake-up
 * would be due at once, and ask for the next.
 */
export function wakeWhenExpectationExpires(sync: Sync): void {
  if (readingLive(sync.state.clock, clockSkewOf(sync.state.config))) wakeAt(sync, sync.now + EXPECTATIONS_TIMEOUT_MS + 1);
}

/** Asks for the deletion of active pods: one decision, one TerminatePod per pod. */
export function terminate(
  sync: Sync,
  pods: readonly PodRecord[],
  cause: TerminationCause,
  reason: string,
  message: string,
): void {
  const targets = pods.filter((p) => (p.terminationRequestedAt === undefined && podClass(p) === 'active') || sync.lapsed?.has(p.uid) === true);
  if (targets.length === 0) return;
  message = boundedText(message);
  reason = boundedText(reason, MAX_REASON_BYTES);
  const decision: Omit<DecisionOf<'PodsTerminationRequested'>, 'eventId' | 'at' | 'seq'> = {
    type: 'PodsTerminationRequested',
    cause,
    reason,
    message,
    finalizersRemoved: cause !== 'JobFinishing' && cause !== 'JobFinished',
    pods: targets.map((p) => ({ uid: p.uid, name: p.name, index: p.index, seq: p.seq })),
  };
  record(sync, decision);
  for (const pod of targets) {
    sync.active -= 1;
    sync.terminating += 1;
    if (pod.ready) sync.ready -= 1;
  }
  // Pods are terminated only once the Job is observed, so its identity is known.
  // One push per command, not push(...all): a spread of ~200,000 arguments overflows V8's call stack.
  for (const command of terminatePods(sync.state.identity ?? { clusterId: '', namespace: '', name: '', uid: '' }, decision)) sync.commands.push(command);
}

/**
 * The pods the Job still runs, in listing order, with those whose deletion this sync took back
 * (`lapsed`, termination-lapse.ts). O(pods): used only when deleting.
 */
export function activePods(state: JobState, lapsed?: ReadonlySet<string>): PodRecord[] {
  const result: PodRecord[] = [];
  if (state.counts.active === 0 && (lapsed === undefined || lapsed.size === 0)) return result;
  for (const pod of state.pods.values()) {
    if (podClass(pod) === 'active' || lapsed?.has(pod.uid) === true) result.push(pod);
  }
  return result;
}
