import type { JobSetCondition } from './conditions.ts';
import type { JobSetDecisionEvent } from './decision-events.ts';
import { conditionSentence, decisionSentence } from './explain-sentences.ts';
import { conditionEvidence, jobSetOutcome } from './explain-evidence.ts';
import { explainJobSetSummary } from './explain-summary.ts';
import type { JobSetState } from './state.ts';
import { waitingReplicatedJobs, waitingSentence, type WaitingReplicatedJob } from './waiting.ts';

export { formatJobSetExplanation } from './explain-format.ts';
export { jobSetOutcome } from './explain-evidence.ts';

/** Where a JobSet stands, in one word. */
export type JobSetOutcome =
  | 'Pending' // not observed yet, or observed with no child Job yet
  | 'Rejected' // the spec failed admission
  | 'Running'
  | 'Suspended'
  | 'Restarting' // RestartingJobSet True: the Jobs of the next attempt are not all ready yet
  | 'Completed'
  | 'Failed';

/** A decision as the JobSet's log holds it: `seq` is its (1-based) position in the log. */
export interface LoggedJobSetDecision {
  readonly seq: number;
  readonly event: JobSetDecisionEvent;
}

/** One condition of the JobSet, with the decision that set it and a plain sentence. */
export interface ExplainedJobSetCondition extends JobSetCondition {
  /** The decision that wrote the condition as it stands; undefined when the log lacks it. */
  readonly evidence: JobSetDecisionEvent | undefined;
  /** Log position of that decision. */
  readonly decidedBy: number | undefined;
  /** Log position of the observation that tipped it. */
  readonly tippedBy: number | undefined;
  readonly sentence: string;
}

/** One decision of the log, in a plain sentence. */
export interface ExplainedJobSetDecision {
  readonly seq: number;
  readonly type: JobSetDecisionEvent['type'];
  readonly at: string;
  /** Log position of the observation that tipped it (undefined for commands issued). */
  readonly tippedBy: number | undefined;
  readonly sentence: string;
  readonly decision: JobSetDecisionEvent;
}

/** A replicated job whose Jobs are not all created yet, and why, in a plain sentence. */
export interface ExplainedWait extends WaitingReplicatedJob {
  readonly sentence: string;
}

/** Why the JobSet is where it is: served as JSON by the query API, printed by `jobfold replay`. */
export interface JobSetExplanation {
  readonly jobSet: { readonly namespace: string; readonly name: string; readonly uid: string | undefined } | undefined;
  readonly outcome: JobSetOutcome;
  readonly summary: string;
  readonly restarts: number;
  readonly restartsCountTowardsMax: number;
  readonly conditions: readonly ExplainedJobSetCondition[];
  /** Every decision passed in, in log order. */
  readonly events: readonly ExplainedJobSetDecision[];
  /** Admission violations of a rejected spec: `field: detail` (upstream's detail). */
  readonly rejection: readonly string[];
  /** Replicated jobs not all created yet (dependsOn, startup order, a restart), in spec order. */
  readonly waiting: readonly ExplainedWait[];
}

/**
 * Explains the JobSet's conditions and decisions. With the decisions of its log, each condition
 * carries the decision that set it (rule, failed child Job, success policy count, tipping
 * observation); without them, the sentence is rebuilt from the state as far as it goes (the
 * child Job a failure message names). Pure: the same state and decisions give the same result.
 */
export function explainJobSet(
  state: JobSetState,
  decisions: readonly LoggedJobSetDecision[] = [],
): JobSetExplanation {
  const metadata = state.jobSet?.metadata;
  const outcome = jobSetOutcome(state);
  const conditions = state.conditions.map((condition): ExplainedJobSetCondition => {
    const logged = conditionEvidence(condition, decisions);
    const evidence = logged?.event;
    const tippedBy = evidence !== undefined && 'tippedBy' in evidence ? evidence.tippedBy : undefined;
    return {
      ...condition,
      evidence,
      decidedBy: logged?.seq,
      tippedBy,
      sentence: conditionSentence(state, condition, evidence),
    };
  });
  const events = decisions.map(({ seq, event }): ExplainedJobSetDecision => ({
    seq,
    type: event.type,
    at: event.at,
    tippedBy: 'tippedBy' in event ? event.tippedBy : undefined,
    sentence: decisionSentence(state, event),
    decision: event,
  }));
  return {
    jobSet: metadata && { namespace: metadata.namespace ?? 'default', name: metadata.name, uid: metadata.uid },
    outcome,
    summary: explainJobSetSummary(state, outcome),
    restarts: state.restarts,
    restartsCountTowardsMax: state.restartsCountTowardsMax,
    conditions,
    events,
    rejection: state.validationErrors.map((error) => `${error.field}: ${error.detail}`),
    waiting: waitingReplicatedJobs(state).map((wait) => ({ ...wait, sentence: waitingSentence(wait) })),
  };
}
