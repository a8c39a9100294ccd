import { parseTime } from '../k8s/time.ts';
import { activeDeadlineAt } from '../policies/active-deadline.ts';
import { isPolicyFailureReason } from '../policies/pod-failure-policy.ts';
import { advanceRuleProgress, matchSuccessPolicy } from '../policies/success-policy.ts';
import { failureFailsIndex, isPodFailed } from './counting.ts';
import { Reason } from '../k8s/job-controller.ts';
import { isTerminalPhase, outcomeSeenAt, type PodRecord } from './pod-record.ts';
import type { JobState } from './state.ts';
import type { MetBeforeGate } from './met-before.ts';

// When each of the Job's finish criteria was met, on the cluster's clock (epoch ms): the instant
// the observations that meet it were made, not when they reached jobfold. Two criteria met by
// evidence that arrived in another order than it happened are told apart by these instants
// (finish-condition.ts, outcome-correction.ts). Undefined when the evidence does not tell it.
// Each walks the Job's pods once: asked only when two criteria compete, and remembered while
// nothing folded can move it (rememberedCriterionMetAt).

/**
 * What decide asked of criterionMetAt since evolve last folded something that may move an
 * instant (not persisted). A Job jobfold does not run whose decided outcome has a challenger asks
 * for both instants at every decide (outcome-correction.ts correctOutcome): two walks of every
 * pod per event, so the deletions of a 100,000-pod Job took ~60 ms each (quadratic over its life).
 */
export interface CriterionMemo {
  /** Bumped by evolve for every event except one that moves no instant (deletionMovesNoInstant, observationMovesNoInstant). */
  epoch: number;
  /** The epoch and the number of pods (archiving and restoring pods move instants too) `values` hold for. */
  valuesEpoch: number;
  valuesPods: number;
  readonly values: Map<string, number | undefined>;
  /** What decide found of the criterion it weighs against the finish's instant, while nothing folded can have put it before (met-before.ts). */
  metBefore: MetBeforeGate | undefined;
}

export const newCriterionMemo = (): CriterionMemo => ({ epoch: 0, valuesEpoch: -1, valuesPods: -1, values: new Map(), metBefore: undefined });

/**
 * When a pod's outcome counts as having happened: when it was seen (`seen`, the latest it can
 * have happened), or as early as it can have (`earliest`: upstream's getFinishedTime, which the
 * pod reports, when before it was seen). A criterion met before a suspension is read from the
 * first, one met after it from the second, so that neither is assumed (suspension-order.ts).
 */
export type InstantBound = 'seen' | 'earliest';

type InstantOf = (pod: PodRecord) => number | undefined;

const INSTANT_OF: Readonly<Record<InstantBound, InstantOf>> = {
  seen: outcomeSeenAt,
  earliest: (pod) => {
    const seen = outcomeSeenAt(pod);
    return seen === undefined ? undefined : Math.min(seen, pod.finishedAt);
  },
};

/** criterionMetAt, remembered while nothing it reads has changed (decide side only: evolve changes what it reads). */
export function rememberedCriterionMetAt(state: JobState, reason: string, bound: InstantBound = 'seen'): number | undefined {
  return remembered(state, bound === 'seen' ? reason : `${reason}#${bound}`, () => criterionMetAt(state, reason, bound));
}

function remembered(state: JobState, key: string, compute: () => number | undefined): number | undefined {
  const memo = state.criterionMemo;
  if (memo.valuesEpoch !== memo.epoch || memo.valuesPods !== state.pods.size) {
    memo.values.clear();
    memo.valuesEpoch = memo.epoch;
    memo.valuesPods = state.pods.size;
  }
  if (memo.values.has(key)) return memo.values.get(key);
  const at = compute();
  memo.values.set(key, at);
  return at;
}

/** The memo's key for completionsMetAt (no condition's reason). */
const COMPLETIONS = '#completions';

/**
 * When the Job's successes reached `completions` (a work queue: its first success), if every
 * success counted tells its instant (a counted pod archived by a snapshot keeps none). Whether
 * pods were still active then is not told: it is weighed against a suspension only, whose sync
 * deletes every active pod (suspension-order.ts). Remembered as rememberedCriterionMetAt is.
 */
export function completionsMetAt(state: JobState, bound: InstantBound = 'seen'): number | undefined {
  return remembered(state, `${COMPLETIONS}#${bound}`, () => completionsReachedAt(state, bound));
}

/** completionsMetAt, walked afresh. */
export function completionsReachedAt(state: JobState, bound: InstantBound): number | undefined {
  const instantOf = INSTANT_OF[bound];
  const settings = state.settings;
  if (settings === undefined) return undefined;
  const needed = settings.completions ?? 1;
  const instants = settings.indexed
    ? [...firstInstantPerIndex(state, (pod) => pod.counted === 'succeeded', instantOf).values()]
    : [...state.pods.values()].flatMap((pod) => (pod.counted === 'succeeded' ? [instantOf(pod) ?? NaN] : []));
  const counted = settings.indexed ? state.status.completedIndexes.size : state.status.succeeded;
  if (instants.length < counted || instants.some(Number.isNaN)) return undefined;
  return instants.sort((a, b) => a - b)[needed - 1];
}

/**
 * Whether folding a deletion of this pod leaves every criterion's instant as it is: the pod is
 * already gone (podDeleted ignores it), or it had finished, is not held for its index (a held
 * pod's deletion releases it), and its outcome's instant is known without its deletion
 * (outcomeSeenAt; a deletion never moves an existing deletionTimestamp). A finished pod's
 * isPodFailed depends on its phase alone. The common deletions of a finished Job's pods.
 */
export function deletionMovesNoInstant(state: JobState, uid: string): boolean {
  const pod = state.pods.get(uid);
  if (pod === undefined) return false; // a tombstone: a new record
  if (pod.gone) return true;
  if (!isTerminalPhase(pod.phase) || state.held.get(pod.index) === uid) return false;
  return pod.finishedTrackedAt !== undefined || pod.strippedAt !== undefined || pod.deletionTimestamp !== undefined;
}

/**
 * What criterionMetAt reads, taken before a pod observation is folded (podObservationMark) and
 * compared after it (observationMovesNoInstant). A finished Job's lingering pods are observed
 * terminating, then failed, then deleted; before, each of these observations dropped the
 * remembered instants and the next decide walked every pod twice (correctOutcome). Undefined
 * when nothing is remembered (nothing to keep) or the pod is new (a new record).
 */
export interface ObservationMark {
  readonly pod: PodInputs | undefined;
  readonly job: JobInputs;
}

/** What the criteria read of one pod; undefined for a pod none of them reads (see podInputs). */
interface PodInputs {
  readonly counted: PodRecord['counted'];
  readonly index: number;
  readonly held: boolean;
  readonly seenAt: number | undefined;
  /** The earliest the outcome can have happened (InstantBound 'earliest', read against a suspension). */
  readonly earliestAt: number | undefined;
  readonly failed: boolean;
  readonly countFailed: boolean | undefined;
}

/**
 * What the criteria read of the Job besides one pod's record. A fold of one pod's observation
 * changes other pods only by counting or holding them (releaseHeld, rejudgeIndexes, a run's
 * counts taken back: counting.ts, run.ts), which moves these counts and sets too.
 */
export interface JobInputs {
  readonly settings: JobState['settings'];
  readonly startTime: string | undefined;
  readonly policyFailure: JobState['policyFailure'];
  readonly failedIndexes: JobState['status']['failedIndexes'];
  readonly failedIndexesSize: number;
  readonly completedIndexesSize: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly heldSize: number;
  readonly heldCountable: number;
  readonly pods: number;
}

/** Before a pod observation is folded: what it may move, when the memo holds instants to keep. */
export function podObservationMark(state: JobState, uid: string): ObservationMark | undefined {
  const memo = state.criterionMemo;
  if (memo.valuesEpoch !== memo.epoch || memo.values.size === 0) return undefined;
  const pod = state.pods.get(uid);
  return pod === undefined ? undefined : { pod: podInputs(state, pod), job: jobInputs(state) };
}

/**
 * After the observation: whether every instant stays as it was. The pod is read by no criterion
 * before and after, or read alike; and nothing else the criteria read has changed.
 */
export function observationMovesNoInstant(state: JobState, uid: string, mark: ObservationMark | undefined): boolean {
  const pod = state.pods.get(uid);
  if (mark === undefined || pod === undefined || !sameJobInputs(mark.job, jobInputs(state))) return false;
  const after = podInputs(state, pod);
  const before = mark.pod;
  if (before === undefined || after === undefined) return before === after;
  return before.counted === after.counted && before.index === after.index && before.held === after.held &&
    before.seenAt === after.seenAt && before.earliestAt === after.earliestAt && before.failed === after.failed && before.countFailed === after.countFailed;
}

/**
 * Undefined when no criterion reads the pod: not counted succeeded or failed (successPolicyMetAt,
 * backoffLimitExceededAt, failedIndexesMetAt's successes), not held for its index
 * (backoffLimitExceededAt), not the pod that fails the Job by policy (policyFailureMetAt), and of
 * no failed index (failedIndexesMetAt). A lingering pod of a Job that met its success criteria.
 */
export function podInputs(state: JobState, pod: PodRecord): PodInputs | undefined {
  const held = pod.index >= 0 && state.held.get(pod.index) === pod.uid;
  const read = pod.counted === 'succeeded' || pod.counted === 'failed' || held || state.policyFailure?.uid === pod.uid ||
    (pod.index >= 0 && state.status.failedIndexes.has(pod.index));
  if (!read) return undefined;
  return { counted: pod.counted, index: pod.index, held, seenAt: outcomeSeenAt(pod), earliestAt: INSTANT_OF.earliest(pod), failed: isPodFailed(state, pod), countFailed: pod.failureMatch?.countFailed };
}

export function jobInputs(state: JobState): JobInputs {
  const { status } = state;
  return {
    settings: state.settings,
    startTime: status.startTime,
    policyFailure: state.policyFailure,
    failedIndexes: status.failedIndexes,
    failedIndexesSize: status.failedIndexes.size,
    completedIndexesSize: status.completedIndexes.size,
    succeeded: status.succeeded,
    failed: status.failed,
    heldSize: state.held.size,
    heldCountable: state.heldCountable,
    pods: state.pods.size,
  };
}

function sameJobInputs(a: JobInputs, b: JobInputs): boolean {
  return a.settings === b.settings && a.startTime === b.startTime && a.policyFailure === b.policyFailure &&
    a.failedIndexes === b.failedIndexes && a.failedIndexesSize === b.failedIndexesSize && a.completedIndexesSize === b.completedIndexesSize &&
    a.succeeded === b.succeeded && a.failed === b.failed && a.heldSize === b.heldSize && a.heldCountable === b.heldCountable && a.pods === b.pods;
}

/**
 * Whether criterionMetAt reads the pods for `reason`'s instant: else it reads the spec and the
 * status alone (a deadline), or tells none (completions reached; restartPolicy OnFailure's
 * backoff counts restarts).
 */
export function criterionReadsPods(state: JobState, reason: string): boolean {
  if (reason === Reason.SuccessPolicy) return state.settings?.successPolicyRules !== undefined;
  if (isPolicyFailureReason(reason) || reason === Reason.PodFailurePolicy) return true;
  if (reason === Reason.BackoffLimitExceeded) return state.settings !== undefined && !state.settings.restartPolicyOnFailure;
  return reason === Reason.MaxFailedIndexesExceeded || reason === Reason.FailedIndexes;
}

/** When the criterion whose condition carries `reason` was met, if the evidence tells. */
export function criterionMetAt(state: JobState, reason: string, bound: InstantBound = 'seen'): number | undefined {
  const instantOf = INSTANT_OF[bound];
  if (reason === Reason.SuccessPolicy) return successPolicyMetAt(state, instantOf);
  if (isPolicyFailureReason(reason) || reason === Reason.PodFailurePolicy) return policyFailureMetAt(state, instantOf);
  if (reason === Reason.BackoffLimitExceeded) return backoffLimitExceededAt(state, instantOf);
  if (reason === Reason.MaxFailedIndexesExceeded || reason === Reason.FailedIndexes) return failedIndexesMetAt(state, reason, instantOf);
  if (reason === Reason.DeadlineExceeded) return deadlineAt(state);
  return undefined;
}

/** The first instant at which the indexes that had succeeded matched a success policy rule (KEP-3998). */
function successPolicyMetAt(state: JobState, instantOf: InstantOf): number | undefined {
  const rules = state.settings?.successPolicyRules;
  if (rules === undefined) return undefined;
  const successes = firstInstantPerIndex(state, (pod) => pod.counted === 'succeeded', instantOf);
  const progress = rules.map(() => 0);
  let total = 0;
  for (const [index, at] of [...successes].sort((a, b) => a[1] - b[1])) {
    total += 1;
    advanceRuleProgress(rules, progress, index);
    if (matchSuccessPolicy(rules, progress, total)) return at;
  }
  return undefined;
}

/** When the failed pod whose pod failure policy match fails the Job was seen failed. */
function policyFailureMetAt(state: JobState, instantOf: InstantOf): number | undefined {
  const uid = state.policyFailure?.uid;
  const pod = uid === undefined ? undefined : state.pods.get(uid);
  return pod === undefined ? undefined : instantOf(pod);
}

/** When the failure one past `backoffLimit` was seen (restartPolicy OnFailure also counts restarts: not told). */
function backoffLimitExceededAt(state: JobState, instantOf: InstantOf): number | undefined {
  const settings = state.settings;
  if (settings === undefined || settings.restartPolicyOnFailure) return undefined;
  const held = new Set(state.held.values());
  const failures: number[] = [];
  for (const pod of state.pods.values()) {
    const counts = pod.counted === 'failed' || (held.has(pod.uid) && pod.failureMatch?.countFailed !== false);
    if (!counts || !isPodFailed(state, pod)) continue;
    const at = instantOf(pod);
    if (at === undefined) return undefined;
    failures.push(at);
  }
  return failures.sort((a, b) => a - b)[settings.backoffLimit];
}

/**
 * backoffLimitPerIndex: when one index more than `maxFailedIndexes` had failed, or, for
 * `FailedIndexes`, when the last index settled (failed or succeeded). An index failed when a
 * failure that fails it was seen (counting.ts failureFailsIndex): not at an earlier failure of
 * it that a policy ignored or that was below `backoffLimitPerIndex`.
 */
function failedIndexesMetAt(state: JobState, reason: string, instantOf: InstantOf): number | undefined {
  const failedIndexes = state.status.failedIndexes;
  const failed = [...firstInstantPerIndex(state, (pod) => failedIndexes.has(pod.index) && failureFailsIndex(state, pod), instantOf).values()].sort((a, b) => a - b);
  if (reason === Reason.MaxFailedIndexesExceeded) return failed[state.settings?.maxFailedIndexes ?? 0];
  if (failed.length === 0) return undefined;
  // A reduce, not Math.max over a spread: an index set can be far larger than a call's arguments.
  const succeeded = firstInstantPerIndex(state, (pod) => pod.counted === 'succeeded', instantOf).values();
  return [...succeeded].reduce((latest, at) => Math.max(latest, at), failed[failed.length - 1] ?? 0);
}

function deadlineAt(state: JobState): number | undefined {
  const start = state.status.startTime;
  return activeDeadlineAt(state.settings?.activeDeadlineSeconds, start === undefined ? undefined : parseTime(start));
}

/** Per index, the earliest instant a pod of it that `counts` was seen with its outcome. */
function firstInstantPerIndex(state: JobState, counts: (pod: PodRecord) => boolean, instantOf: InstantOf): Map<number, number> {
  const first = new Map<number, number>();
  for (const pod of state.pods.values()) {
    if (pod.index < 0 || !counts(pod)) continue;
    const at = instantOf(pod);
    if (at === undefined) continue;
    const known = first.get(pod.index);
    if (known === undefined || at < known) first.set(pod.index, at);
  }
  return first;
}
