import type { Decision } from '../job/decisions.ts';
import type { JobEvent } from '../job/evolve.ts';
import { Reason } from '../k8s/job-controller.ts';
import { isJobSetDecisionType, type JobSetDecisionEvent } from '../jobset/decision-events.ts';
import type { JobSetEvent } from '../jobset/events.ts';
import type { JobSetLogEntry } from './refold.ts';
import type { JobSetOutcomeView, Outcome, OutcomeView } from './report.ts';

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

/** Whether a JobSet log's event is a decision (else an observation). */
export const isJobSetDecision = (event: JobSetEvent): event is JobSetDecisionEvent => isJobSetDecisionType(event.type);

/**
 * The outcome the record holds: its first JobSetCompleted or JobSetFailed, and the restarts before
 * it; an outcome after a correction taking back that failure (the success came first on the
 * cluster's clock) stands instead, and a correction taking back a restart takes it out of the
 * count. Logs written before JOBSET_FOLD_VERSION .10 say both with `corrects` on the decision.
 */
export function recordedJobSetOutcome(log: readonly JobSetLogEntry[]): JobSetOutcomeView {
  let lastRead = 0;
  let restarts = 0;
  let recorded: JobSetOutcomeView | undefined;
  let failureTakenBack = false;
  for (const { seq, event } of log) {
    if (!isJobSetDecision(event)) {
      lastRead = seq;
      continue;
    }
    restarts = restartsAfter(event, restarts);
    if (event.type === 'JobSetOutcomeCorrected') failureTakenBack ||= event.retracted.some((c) => c.type === 'Failed');
    const outcome = jobSetOutcomeOf(event);
    const correction = failureTakenBack || (event.type === 'JobSetCompleted' && event.corrects !== undefined);
    if (outcome && (recorded === undefined || correction)) recorded = { ...outcome, atEvent: lastRead, at: event.at, restarts };
    if (outcome) failureTakenBack = false;
  }
  return recorded ?? { outcome: 'Running', condition: null, reason: null, atEvent: null, at: null, restarts };
}

/** The global restarts after a JobSet decision: a restart's counter, a correction's (lower when it takes a restart back). */
export function restartsAfter(decision: JobSetDecisionEvent, restarts: number): number {
  switch (decision.type) {
    case 'JobSetRestarted':
    case 'JobSetOutcomeCorrected':
      return decision.restarts;
    case 'JobSetFailed':
      return decision.corrects === undefined ? restarts : restarts - 1; // before fold .10: the restart it corrects never was
    default:
      return restarts;
  }
}
