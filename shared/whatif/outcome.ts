import type { Decision } from '../job/decisions.ts';
import type { JobEvent } from '../job/evolve.ts';
import { Reason } from '../k8s/job-controller.ts';
import type { JobSetDecisionEvent } from '../jobset/decision-events.ts';
import type { Outcome, OutcomeView } from './report.ts';

const OUTCOME_OF: Readonly<Record<string, Outcome>> = {
  SuccessCriteriaMet: 'Succeeded',
  Complete: 'Succeeded',
  FailureTarget: 'Failed',
  Failed: 'Failed',
};

const SUCCESS_REASONS: ReadonlySet<string> = new Set([Reason.CompletionsReached, Reason.SuccessPolicy]);

/**
 * The outcome a decision settles, with the condition that names it. A condition does; so does
 * a JobFinishing termination, which the fold takes before it may write the condition (it waits
 * until it has seen the pods it deleted earlier) and which nothing can take back.
 */
export function outcomeOf(decision: Decision): { outcome: Outcome; condition: string; reason: string } | undefined {
  if (decision.type === 'PodsTerminationRequested' && decision.cause === 'JobFinishing') {
    const success = SUCCESS_REASONS.has(decision.reason);
    return { outcome: success ? 'Succeeded' : 'Failed', condition: success ? 'SuccessCriteriaMet' : 'FailureTarget', reason: decision.reason };
  }
  if (decision.type !== 'JobConditionChanged' || decision.condition.status !== 'True') return undefined;
  const outcome = OUTCOME_OF[decision.condition.type];
  return outcome && { outcome, condition: decision.condition.type, reason: decision.condition.reason };
}

/** The outcome a JobSet decision settles: `JobSetCompleted` or `JobSetFailed`. */
export function jobSetOutcomeOf(decision: JobSetDecisionEvent): { outcome: Outcome; condition: string; reason: string } | undefined {
  if (decision.type === 'JobSetCompleted') return { outcome: 'Succeeded', condition: decision.condition.type, reason: decision.condition.reason };
  if (decision.type === 'JobSetFailed') return { outcome: 'Failed', condition: decision.condition.type, reason: decision.condition.reason };
  return undefined;
}

/** Pods a decision terminates because the Job finished. */
export function finishingPods(decision: Decision): number {
  if (decision.type !== 'PodsTerminationRequested') return 0;
  return decision.cause === 'JobFinishing' || decision.cause === 'JobFinished' ? decision.pods.length : 0;
}

/**
 * The outcome the record holds: the first condition that settled it (the interim condition
 * comes first, so that is what is named), at the position of the event read last before it.
 */
export function recordedOutcome(log: readonly JobEvent[]): OutcomeView {
  let view: OutcomeView | undefined;
  let podsTerminated = 0;
  let lastRead = 0;
  for (const event of log) {
    if (!('at' in event)) {
      lastRead = event.seq ?? lastRead + 1;
      continue;
    }
    podsTerminated += finishingPods(event);
    const settled = view ? undefined : outcomeOf(event);
    if (settled) view = { ...settled, atEvent: lastRead, at: event.at, podsTerminated: 0 };
  }
  return view ? { ...view, podsTerminated } : { outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, podsTerminated };
}
