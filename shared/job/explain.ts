import { formatTime } from '../k8s/time.ts';
import { activeDeadlineAt } from '../policies/active-deadline.ts';
import { correctionSentence, loggedCorrection, plural, type ExplainedCondition, type ExplanationOf, type OutcomeCorrection } from '../read-model/explanation.ts';
import type { JobCondition } from './conditions.ts';
import { findCondition, hasTrueCondition, isFinished } from './conditions.ts';
import { isPolicyFailureReason, policyFailureEvidence, policyFailureSentence } from '../policies/pod-failure-policy.ts';
import { EXPECTATIONS_TIMEOUT_MS, JOBFOLD_CONTROLLER_NAME, Reason } from '../k8s/job-controller.ts';
import { missingPodEvents } from './pod-view-gap.ts';
import { missingJobEvents } from './job-view-gap.ts';
import { isReopening, isSuspensionRetraction } from './outcome-correction.ts';
import type { DecisionOf, TerminationCause } from './decisions.ts';
import type { Evidence, PodRefData } from '../policies/evidence.ts';
import type { JobEvent } from './evolve.ts';
import type { JobState } from './state.ts';
import { jobStatus } from './status.ts';

// The Job's read model: why the Job stands where it does, from its state and the decisions of
// its log (shared/read-model/explanation.ts is the shape it shares with JobSets). Printed by
// shared/print, served by the query API, refolded by nothing: pure and deterministic.

/** Where a Job stands, in one word: finished, finishing (interim condition set), or not. */
export type JobOutcome =
  | 'Unknown' // no Job observed yet
  | 'Rejected' // the spec failed validation
  | 'Pending' // not started (never reconciled unsuspended)
  | 'Running'
  | 'Suspended'
  | 'Succeeding' // SuccessCriteriaMet, pods still terminating
  | 'Failing' // FailureTarget, pods still terminating
  | 'Succeeded'
  | 'Failed';

/** Evidence as logged, or rebuilt from the state (then the tipping event may be unknown). */
export type ConditionEvidence = Omit<Evidence, 'tippedBy'> & { readonly tippedBy?: number };

/** The logged event a decision names as its tipping point. */
export interface TippingEvent {
  readonly seq: number;
  readonly type: string;
  readonly eventId: string;
  readonly at: string;
}

/** One condition of the Job, with the evidence jobfold logged for it and a plain sentence. */
export interface ExplainedJobCondition extends ExplainedCondition<ConditionEvidence>, JobCondition {
  readonly tippingEvent: TippingEvent | undefined;
}

/** A pod jobfold asked to delete, and why. */
export interface TerminatedPod {
  readonly name: string;
  readonly uid: string;
  readonly index: number | undefined;
  /** Unknown when explained from the state alone. */
  readonly cause: TerminationCause | undefined;
  readonly reason: string | undefined;
  readonly requestedAt: string;
  readonly decidedBy: number | undefined;
}

/** Why the Job is where it is: served as JSON by the API, printed by `jobfold replay` and `explain`. */
export interface Explanation extends ExplanationOf<'Job', JobOutcome, ConditionEvidence> {
  readonly job: { readonly clusterId: string; readonly namespace: string; readonly name: string; readonly uid: string } | undefined;
  readonly conditions: readonly ExplainedJobCondition[];
  readonly terminatedPods: readonly TerminatedPod[];
  /**
   * Observations that arrived after the Job finished (at log position `finishedAt`): logged,
   * and changing nothing reported. Present only when there were some.
   */
  readonly afterFinish?: { readonly finishedAt: number; readonly observations: number };
}

/**
 * Explains the Job's conditions. With the log, each condition carries the evidence of the
 * decision that set it (rule, pods, container, counts, tipping event); without it, or for a
 * condition the cluster reported before jobfold's log began, the evidence is rebuilt from the
 * state as far as it goes. Pure: the same state and log always give the same explanation.
 */
export function explainJob(state: JobState, log: readonly JobEvent[] = []): Explanation {
  const bySeq = new Map<number, JobEvent>();
  const decided = new Map<string, DecisionOf<'JobConditionChanged'>>();
  const corrections: OutcomeCorrection[] = [];
  const correctionSentences: string[] = [];
  for (const event of log) {
    if (event.seq !== undefined) bySeq.set(event.seq, event);
    if (event.type === 'JobConditionChanged') decided.set(event.condition.type, event);
    if (event.type !== 'JobOutcomeCorrected') continue;
    corrections.push(loggedCorrection(event.seq, event.at, event));
    correctionSentences.push(jobCorrectionSentence(event));
  }
  const pods = terminatedPods(state, log);
  const finishedAt = finishInstant(state.status.conditions);
  const conditions = state.status.conditions.map((condition): ExplainedJobCondition => {
    const decision = decided.get(condition.type);
    const logged = decision !== undefined && sameCondition(decision.condition, condition);
    const evidence = logged ? decision.evidence : evidenceFromState(state, condition);
    const tipping = evidence?.tippedBy === undefined ? undefined : bySeq.get(evidence.tippedBy);
    const interimSeq = evidence?.follows === undefined ? undefined : decided.get(evidence.follows)?.seq;
    return {
      ...condition,
      evidence,
      decidedBy: logged ? decision.seq : undefined,
      tippingEvent: tipping && tippingEvent(tipping),
      sentence: conditionSentence({ state, condition, evidence, interimSeq, lingering: lingeringCount(pods, condition, finishedAt) }),
    };
  });
  const identity = state.identity;
  const outcome = jobOutcome(state);
  return {
    kind: 'Job',
    job: identity && { clusterId: identity.clusterId, namespace: identity.namespace, name: identity.name, uid: identity.uid },
    outcome,
    summary: summary(state, outcome) + waitingSentence(state) + correctionSentences.join(''),
    conditions,
    terminatedPods: pods,
    rejection: (state.rejected ?? []).map((error) => error.message),
    ...(state.finishedAt !== undefined && state.observedAfterFinish > 0
      ? { afterFinish: { finishedAt: state.finishedAt, observations: state.observedAfterFinish } }
      : {}),
    ...(corrections.length > 0 ? { corrections } : {}),
  };
}

/**
 * A logged correction in one sentence. A terminal condition taken back alone, keeping its
 * reason (outcome-correction.ts reopenFinish), was not beaten by another criterion: pods the
 * cluster still ran then kept its controller from writing it. A Suspended condition taken back
 * had no criterion either: a finish criterion met before the suspension forestalled it.
 */
export function jobCorrectionSentence(event: DecisionOf<'JobOutcomeCorrected'>): string {
  if (isSuspensionRetraction(event)) return suspensionRetractionSentence(event);
  if (!isReopening(event)) return correctionSentence(loggedCorrection(event.seq, event.at, event));
  const taken = event.retracted.map((c) => c.type).join(' and ');
  const met = event.retractedMetAt === undefined ? '' : ` (its criterion met at ${event.retractedMetAt})`;
  const names = (event.evidence.pods ?? []).map((pod) => pod.name);
  // The evidence names the first pods and counts them all (an entry logged before the count names all).
  const more = (event.evidence.podCount ?? names.length) - names.length;
  const listed = more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
  const pods = names.length === 1 && more === 0 ? `pod ${listed}` : `pods ${listed}`;
  return ` jobfold took back ${taken}${met} at ${event.at}: evidence that arrived later showed ${pods} still running then on the cluster's clock, and the controller writes ${taken} only once no pod is terminating.`;
}

/**
 * A Suspended condition taken back: no criterion of the suspension's was beaten (it has none);
 * the controller suspends only a Job no finish criterion holds, and one was met before.
 */
function suspensionRetractionSentence(event: DecisionOf<'JobOutcomeCorrected'>): string {
  const seen = event.retractedMetAt === undefined ? '' : ` (the Job seen suspended at ${event.retractedMetAt})`;
  const met = event.evidence.metAt === undefined ? '' : `, at ${event.evidence.metAt}`;
  return ` jobfold took back Suspended${seen} at ${event.at}: evidence that arrived later showed ${event.reason} met before the suspension on the cluster's clock${met}, and the controller suspends only a Job no finish criterion holds.`;
}

/**
 * A Job whose log lacks pod events sent before the newest it holds decides no outcome and
 * terminates no pod until they arrive, and one jobfold runs creates and deletes none either
 * (pod-view-gap.ts): said, so an operator reading why nothing happened yet learns what the Job
 * waits for, and until when at most.
 */
function waitingSentence(state: JobState): string {
  if (isFinished(state.status.conditions)) return '';
  const missing = missingPodEvents(state);
  const held = state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME ? 'No pod is created or deleted, and no outcome decided' : 'No outcome is decided and no pod terminated';
  const events = missing === undefined ? undefined : missing.count === 1 ? '1 pod event sent before the newest one in the log has' : `${missing.count} pod events sent before the newest one in the log have`;
  const pods = missing === undefined ? '' : ` ${held}, while ${events} not arrived (missing since ${formatTime(missing.since)}; given up on at ${formatTime(missing.since + EXPECTATIONS_TIMEOUT_MS)}).`;
  // A Job jobfold runs waits for its own events too (job-view-gap.ts); one the cluster runs does not.
  const missingJob = state.settings?.managedBy === JOBFOLD_CONTROLLER_NAME ? missingJobEvents(state) : undefined;
  if (missingJob === undefined) return pods;
  const jobEvents = missingJob.count === 1 ? '1 event of the Job sent before an event in the log has' : `${missingJob.count} events of the Job sent before an event in the log have`;
  return `${pods} No pod is created or deleted, and no outcome decided, while ${jobEvents} not arrived (missing since ${formatTime(missingJob.since)}; given up on at ${formatTime(missingJob.since + EXPECTATIONS_TIMEOUT_MS)}).`;
}

/** The outcome: rejection first, then terminal, interim, suspension, progress. */
export function jobOutcome(state: JobState): JobOutcome {
  const conditions = state.status.conditions;
  if (!state.identity) return 'Unknown';
  if (state.rejected) return 'Rejected';
  if (hasTrueCondition(conditions, 'Complete')) return 'Succeeded';
  if (hasTrueCondition(conditions, 'Failed')) return 'Failed';
  if (hasTrueCondition(conditions, 'SuccessCriteriaMet')) return 'Succeeding';
  if (hasTrueCondition(conditions, 'FailureTarget')) return 'Failing';
  if (findCondition(conditions, 'Suspended')?.status === 'True') return 'Suspended';
  return state.status.startTime === undefined ? 'Pending' : 'Running';
}

// ---- Per reason: the evidence and its sentence ----------------------------------------------

/** What a condition's sentence is built from. */
/** What a condition's sentence says: the kube API words its Events with it too (functions/kube). */
export interface SentenceFacts {
  readonly state: JobState;
  readonly condition: JobCondition;
  readonly evidence: ConditionEvidence | undefined;
  /** For Complete/Failed: log position of the interim condition's decision. */
  readonly interimSeq: number | undefined;
  /** Pods terminated because of this condition (lingering or suspended pods). */
  readonly lingering: number;
}

/**
 * What the read side says about a condition reason: the evidence the state still holds when the
 * log lacks the decision (a condition the cluster reported before jobfold's log began, or a
 * caller that passes no log), and the words for the evidence. Each reason is named here once;
 * every pod failure policy action that fails the Job sets the policy's reason, whose evidence
 * and words shared/policies/pod-failure-policy.ts gives.
 */
interface ReasonExplainer {
  readonly fromState: (state: JobState, condition: JobCondition) => ConditionEvidence | undefined;
  readonly says: (facts: SentenceFacts, evidence: ConditionEvidence) => string | undefined;
}

/** The pod failure policy failed the Job (KEP-3329; KEP-4443 names the reason `PodFailurePolicy_<name>`). */
const podFailurePolicy: ReasonExplainer = {
  fromState: ({ policyFailure, pods }) => policyFailure && policyFailureEvidence(policyFailure, pods.get(policyFailure.uid)),
  says: ({ state }, evidence) =>
    policyFailureSentence(evidence, (ref) => podText(ref, state.pods.get(ref.uid)?.namespace ?? state.identity?.namespace ?? 'default')),
};

/** The succeeded pods or indexes, and the success policy rule upstream's message names. */
function successEvidence(state: JobState, condition: JobCondition): ConditionEvidence | undefined {
  const { settings, status } = state;
  if (!settings) return undefined;
  const last = state.lastSucceeded;
  // Upstream's SuccessPolicy message is "Matched rules at index <i>": the rule it names.
  const ruleIndex = /^Matched rules at index (\d+)$/.exec(condition.message)?.[1];
  return {
    rule: ruleIndex === undefined ? undefined : { policy: 'successPolicy', index: Number(ruleIndex) },
    pods: last ? [last] : undefined,
    succeeded: settings.indexed ? status.completedIndexes.size : status.succeeded,
    limit: condition.reason === Reason.CompletionsReached ? settings.completions : undefined,
    succeededIndexes: settings.indexed ? status.completedIndexes.toString() : undefined,
  };
}

function indexesEvidence(state: JobState): ConditionEvidence | undefined {
  const { settings, status } = state;
  if (!settings) return undefined;
  return {
    failedIndexes: status.failedIndexes.toString(),
    succeededIndexes: status.completedIndexes.toString(),
    limit: settings.maxFailedIndexes,
  };
}

const REASONS: Readonly<Record<string, ReasonExplainer>> = {
  [Reason.PodFailurePolicy]: podFailurePolicy,
  [Reason.BackoffLimitExceeded]: {
    fromState: ({ settings, status, heldCountable }) =>
      settings && { failed: status.failed + heldCountable, limit: settings.backoffLimit },
    says(_facts, { failed, limit }) {
      if (failed === undefined || limit === undefined) return undefined;
      if (failed > limit) return `${plural(failed, 'failed pod')} ${failed === 1 ? 'exceeds' : 'exceed'} backoffLimit ${limit}`;
      return `container restarts of running pods reached backoffLimit ${limit} (restartPolicy OnFailure)`;
    },
  },
  [Reason.DeadlineExceeded]: {
    fromState: ({ settings, status }) =>
      settings && { startTime: status.startTime, activeDeadlineSeconds: settings.activeDeadlineSeconds },
    says(_facts, { startTime, activeDeadlineSeconds }) {
      if (startTime === undefined || activeDeadlineSeconds === undefined) return undefined;
      const at = activeDeadlineAt(activeDeadlineSeconds, Date.parse(startTime));
      const passed = at === undefined ? 'never (past year 9999)' : apiTime(at);
      return `started ${startTime} with activeDeadlineSeconds ${activeDeadlineSeconds}: the deadline passed at ${passed}`;
    },
  },
  [Reason.MaxFailedIndexesExceeded]: {
    fromState: indexesEvidence,
    says(_facts, { failedIndexes, limit }) {
      if (failedIndexes === undefined || limit === undefined) return undefined;
      const count = countIndexes(failedIndexes);
      return `${count} failed ${count === 1 ? 'index' : 'indexes'} "${failedIndexes}" ${count === 1 ? 'exceeds' : 'exceed'} maxFailedIndexes ${limit}`;
    },
  },
  [Reason.FailedIndexes]: {
    fromState: indexesEvidence,
    says({ state }, { failedIndexes }) {
      if (failedIndexes === undefined) return undefined;
      const noun = countIndexes(failedIndexes) === 1 ? 'index' : 'indexes';
      const perIndex = state.settings?.backoffLimitPerIndex ?? '?';
      return `every index finished and ${noun} "${failedIndexes}" failed (backoffLimitPerIndex ${perIndex})`;
    },
  },
  [Reason.SuccessPolicy]: {
    fromState: successEvidence,
    says({ state }, { rule, pods }) {
      if (rule?.policy !== 'successPolicy') return undefined;
      const spec = state.spec?.successPolicy?.rules[rule.index];
      const text = spec === undefined ? '' : ` (${successRuleText(spec)})`;
      const pod = pods?.[0];
      return `rule ${rule.index}${text} met${pod ? ` when ${podText(pod)} succeeded` : ''}`;
    },
  },
  [Reason.CompletionsReached]: {
    fromState: successEvidence,
    says(_facts, { pods, limit, succeeded }) {
      const pod = pods?.[0];
      const last = pod ? `; the last was ${podText(pod)}` : '';
      if (limit === undefined) return `a pod succeeded and no pod is active (work queue)${last}`;
      return `${succeeded ?? '?'} of ${limit} completions succeeded${last}`;
    },
  },
};

const explainerOf = (reason: string): ReasonExplainer | undefined =>
  REASONS[isPolicyFailureReason(reason) ? Reason.PodFailurePolicy : reason];

/** The evidence of a condition, rebuilt from the state (no tipping event unless known). */
function evidenceFromState(state: JobState, condition: JobCondition): ConditionEvidence | undefined {
  if (condition.status !== 'True') return undefined;
  const base = explainerOf(condition.reason)?.fromState(state, condition);
  const interim = condition.type === 'Complete' ? 'SuccessCriteriaMet' : condition.type === 'Failed' ? 'FailureTarget' : undefined;
  if (interim === undefined || findCondition(state.status.conditions, interim)?.status !== 'True') return base;
  return { ...base, follows: interim };
}

/**
 * One plain sentence per condition: `<type>: <reason> — <what happened>, event #<log position>`,
 * e.g. `FailureTarget: PodFailurePolicy_ExitCode2 — rule 0 "ExitCode2" matched container main of
 * pod default/worker-3 (index 3) exit code 2, event #7; 4 lingering pods terminated`.
 * Falls back to the condition's message where the evidence does not say more.
 */
export function conditionSentence(facts: SentenceFacts): string {
  const { condition, evidence, lingering } = facts;
  const what = (evidence && describe(facts, evidence)) ?? (condition.message || condition.status);
  const tipped = evidence?.tippedBy === undefined ? '' : `, event #${evidence.tippedBy}`;
  const after = lingering === 0 ? '' : `; ${plural(lingering, condition.type === 'Suspended' ? 'active pod' : 'lingering pod')} terminated`;
  const reason = condition.reason === '' ? '' : `${condition.reason} — `;
  return `${condition.type}: ${reason}${what}${tipped}${after}`;
}

function describe(facts: SentenceFacts, evidence: ConditionEvidence): string | undefined {
  const { condition } = facts;
  if (evidence.follows !== undefined) return terminal(facts, evidence.follows);
  if (condition.type === 'Suspended') {
    return condition.status === 'True' ? 'spec.suspend is true' : 'spec.suspend was set to false; startTime reset';
  }
  return explainerOf(condition.reason)?.says(facts, evidence);
}

function terminal(facts: SentenceFacts, follows: string): string {
  const { interimSeq, evidence } = facts;
  const tipped = evidence?.tippedBy;
  const sameSync = interimSeq !== undefined && tipped !== undefined && tipped < interimSeq;
  if (sameSync) return `no pod was left terminating when ${follows} was set`;
  const decided = interimSeq === undefined ? '' : ` (event #${interimSeq})`;
  return `follows ${follows}${decided} once no pod was left terminating`;
}

/** `succeededIndexes "0"`, `succeededCount 5 of "1-9"`, `succeededCount 5`. */
export function successRuleText(rule: { readonly succeededIndexes?: string; readonly succeededCount?: number }): string {
  const { succeededIndexes, succeededCount } = rule;
  if (succeededCount === undefined) return `succeededIndexes "${succeededIndexes ?? ''}"`;
  return succeededIndexes === undefined
    ? `succeededCount ${succeededCount}`
    : `succeededCount ${succeededCount} of "${succeededIndexes}"`;
}

// ---- The summary --------------------------------------------------------------------------

/** One line saying where the Job stands and why, e.g. `Job default/foobar succeeded at …`. */
function summary(state: JobState, outcome: JobOutcome): string {
  const identity = state.identity;
  if (!identity) return 'No Job has been observed.';
  const job = `Job ${identity.namespace}/${identity.name}`;
  const conditions = state.status.conditions;
  const because = (type: string): string => {
    const condition = findCondition(conditions, type);
    return condition ? `${condition.reason}: ${condition.message}` : 'no condition';
  };
  const status = jobStatus(state);
  const terminating = status.terminating === 1 ? '1 terminating pod is' : `${status.terminating} terminating pods are`;
  switch (outcome) {
    case 'Unknown':
      return 'No Job has been observed.';
    case 'Rejected':
      return `${job} was rejected: its spec has ${plural(state.rejected?.length ?? 0, 'validation error')}.`;
    case 'Succeeded':
      return `${job} succeeded at ${findCondition(conditions, 'Complete')?.lastTransitionTime} — ${because('Complete')}.`;
    case 'Failed':
      return `${job} failed at ${findCondition(conditions, 'Failed')?.lastTransitionTime} — ${because('Failed')}.`;
    case 'Succeeding':
      return `${job} will complete once its ${terminating} gone — ${because('SuccessCriteriaMet')}.`;
    case 'Failing':
      return `${job} will fail once its ${terminating} gone — ${because('FailureTarget')}.`;
    case 'Suspended':
      return `${job} is suspended: ${status.active} active, ${status.terminating} terminating.`;
    case 'Pending':
      return `${job} has not started yet.`;
    case 'Running':
      return `${job} is running: ${status.active} active, ${status.succeeded} succeeded, ${status.failed} failed.`;
    default: {
      const exhaustive: never = outcome;
      return exhaustive;
    }
  }
}

// ---- Terminated pods ----------------------------------------------------------------------

/**
 * Every pod jobfold asked to delete: from the PodsTerminationRequested decisions of the log,
 * plus any the state knows of that the log (a tail after a snapshot) does not hold.
 */
function terminatedPods(state: JobState, log: readonly JobEvent[]): TerminatedPod[] {
  const result: TerminatedPod[] = [];
  const seen = new Set<string>();
  for (const event of log) {
    if (event.type !== 'PodsTerminationRequested') continue;
    for (const pod of event.pods) {
      if (seen.has(pod.uid)) continue;
      seen.add(pod.uid);
      result.push(terminatedPod(pod, { cause: event.cause, reason: event.reason, requestedAt: event.at, decidedBy: event.seq }));
    }
  }
  for (const pod of state.pods.values()) {
    if (pod.terminationRequestedAt === undefined || seen.has(pod.uid)) continue;
    const requestedAt = apiTime(pod.terminationRequestedAt);
    result.push(terminatedPod(pod, { cause: undefined, reason: undefined, requestedAt, decidedBy: undefined }));
  }
  return result;
}

/** A pod of a termination decision (or the state), as the explanation and its paged list show it. */
export function terminatedPod(
  pod: { readonly name: string; readonly uid: string; readonly index?: number | undefined },
  why: Pick<TerminatedPod, 'cause' | 'reason' | 'requestedAt' | 'decidedBy'>,
): TerminatedPod {
  // Completion indexes are non-negative; the fold writes -1 for a pod without one.
  const index = pod.index !== undefined && pod.index >= 0 ? pod.index : undefined;
  return { name: pod.name, uid: pod.uid, index, ...why };
}

const LINGERING_CAUSE: Readonly<Record<string, TerminationCause>> = {
  SuccessCriteriaMet: 'JobFinishing',
  FailureTarget: 'JobFinishing',
  Suspended: 'JobSuspended',
};

/** Conditions whose sentences count the pods terminated with them: a finishing or suspended Job's. */
export const LINGERING_CONDITIONS: ReadonlySet<string> = new Set(Object.keys(LINGERING_CAUSE));

/**
 * Pods terminated because of this condition: lingering pods of a finishing or suspended Job. A
 * pod whose termination decision is not among the entries read (the query cites only what the
 * explanation needs; the state keeps no cause) counts by its instant: requested since the
 * condition, and, for an interim one, before the Job finished — one requested after that was a
 * finished Job's (cause JobFinished, decide.ts terminateLingering), which the finishing sync never
 * saw (a replay of the whole log tells its cause).
 */
function lingeringCount(pods: readonly TerminatedPod[], condition: JobCondition, finishedAt: number | undefined): number {
  const cause = LINGERING_CAUSE[condition.type];
  if (cause === undefined || condition.status !== 'True') return 0;
  const since = Date.parse(condition.lastTransitionTime);
  const until = cause === 'JobFinishing' ? (finishedAt ?? Infinity) : Infinity;
  return pods.filter((pod) => {
    const at = Date.parse(pod.requestedAt);
    return at >= since && (pod.cause === cause || (pod.cause === undefined && at < until));
  }).length;
}

/** When the Job's terminal condition (Complete, Failed) was written, if it was. */
function finishInstant(conditions: readonly JobCondition[]): number | undefined {
  const final = findCondition(conditions, 'Complete') ?? findCondition(conditions, 'Failed');
  return final?.status === 'True' ? Date.parse(final.lastTransitionTime) : undefined;
}

// ---- Words --------------------------------------------------------------------------------

function sameCondition(a: JobCondition, b: JobCondition): boolean {
  return a.status === b.status && a.reason === b.reason && a.lastTransitionTime === b.lastTransitionTime;
}

function tippingEvent(event: JobEvent): TippingEvent {
  const at = 'observedAt' in event ? event.observedAt : event.at;
  return { seq: event.seq ?? 0, type: event.type, eventId: event.eventId, at };
}

function podText(pod: PodRefData, namespace?: string): string {
  const name = namespace === undefined ? pod.name : `${namespace}/${pod.name}`;
  return pod.index !== undefined && pod.index >= 0 ? `pod ${name} (index ${pod.index})` : `pod ${name}`;
}

/** RFC 3339 the way the API server writes it: whole seconds without a fraction. */
const apiTime = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The number of indexes in an interval string such as "1,3-5". */
function countIndexes(text: string): number {
  let count = 0;
  for (const part of text.split(',')) {
    const [first, last] = part.split('-').map(Number);
    if (first === undefined || Number.isNaN(first)) continue;
    count += last === undefined || Number.isNaN(last) ? 1 : last - first + 1;
  }
  return count;
}
