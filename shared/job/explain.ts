import type { JobCondition } from './conditions.ts';
import { findCondition, hasTrueCondition } from './conditions.ts';
import type { DecisionOf, TerminationCause } from './decisions.ts';
import type { JobEvent } from './evolve.ts';
import { conditionSentence, type ConditionEvidence, type SentenceFacts } from './explain-sentences.ts';
import { evidenceFromState, lingeringCount, terminatedPods } from './explain-evidence.ts';
import { explainSummary } from './explain-summary.ts';
import type { JobState } from './state.ts';

export { formatExplanation } from './explain-format.ts';
export type { ConditionEvidence } from './explain-sentences.ts';

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

/** The logged event a decision names as its tipping point. */
export interface TippingEvent {
  readonly seq: number;
  readonly type: string;
  readonly eventId: string;
  readonly at: string;
}

/** One condition of the Job, with the evidence jobfold logged for it and a plain sentence. */
export interface ExplainedCondition extends JobCondition {
  /** From the JobConditionChanged decision; rebuilt from the state when the log lacks it. */
  readonly evidence: ConditionEvidence | undefined;
  /** Log position of the JobConditionChanged decision, when the log holds it. */
  readonly decidedBy: number | undefined;
  readonly tippingEvent: TippingEvent | undefined;
  readonly sentence: string;
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

/** Why the Job is where it is: served as JSON by the API, printed by `jobfold replay`. */
export interface Explanation {
  readonly job: { readonly clusterId: string; readonly namespace: string; readonly name: string; readonly uid: string } | undefined;
  readonly outcome: JobOutcome;
  readonly summary: string;
  readonly conditions: readonly ExplainedCondition[];
  readonly terminatedPods: readonly TerminatedPod[];
  /** Validation errors of a rejected Job (upstream messages). */
  readonly rejection: readonly string[];
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
  for (const event of log) {
    if (event.seq !== undefined) bySeq.set(event.seq, event);
    if (event.type === 'JobConditionChanged') decided.set(event.condition.type, event);
  }
  const pods = terminatedPods(state, log);
  const conditions = state.status.conditions.map((condition) => {
    const decision = decided.get(condition.type);
    const logged = decision !== undefined && sameCondition(decision.condition, condition);
    const evidence = logged ? decision.evidence : evidenceFromState(state, condition);
    const tipping = evidence?.tippedBy === undefined ? undefined : bySeq.get(evidence.tippedBy);
    const facts: SentenceFacts = {
      state,
      condition,
      evidence,
      interimSeq: interimDecisionSeq(decided, evidence),
      lingering: lingeringCount(pods, condition),
    };
    return {
      ...condition,
      evidence,
      decidedBy: logged ? decision.seq : undefined,
      tippingEvent: tipping && tippingEvent(tipping),
      sentence: conditionSentence(facts),
    };
  });
  const identity = state.identity;
  const outcome = jobOutcome(state);
  return {
    job: identity && { clusterId: identity.clusterId, namespace: identity.namespace, name: identity.name, uid: identity.uid },
    outcome,
    summary: explainSummary(state, outcome),
    conditions,
    terminatedPods: pods,
    rejection: (state.rejected ?? []).map((error) => error.message),
    ...(state.finishedAt !== undefined && state.observedAfterFinish > 0
      ? { afterFinish: { finishedAt: state.finishedAt, observations: state.observedAfterFinish } }
      : {}),
  };
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

function sameCondition(a: JobCondition, b: JobCondition): boolean {
  return a.status === b.status && a.reason === b.reason && a.lastTransitionTime === b.lastTransitionTime;
}

/** For Complete/Failed: where the interim condition it follows was decided. */
function interimDecisionSeq(
  decided: ReadonlyMap<string, DecisionOf<'JobConditionChanged'>>,
  evidence: ConditionEvidence | undefined,
): number | undefined {
  return evidence?.follows === undefined ? undefined : decided.get(evidence.follows)?.seq;
}

function tippingEvent(event: JobEvent): TippingEvent {
  const at = 'observedAt' in event ? event.observedAt : event.at;
  return { seq: event.seq ?? 0, type: event.type, eventId: event.eventId, at };
}
