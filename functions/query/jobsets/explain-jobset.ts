import type { z } from 'zod';
import type { JobSetCondition, JobSetDecisionEvent, JobSetEvent, JobSetState } from '../../../shared/jobset/index.ts';
import type { JobSetExplanationSchema, JobSetOutcomeSchema, JobSetReasonSchema } from './jobset-schemas.ts';

// A first explanation of a JobSet from its log, until the JobSet fold has its own (as the Job
// fold has shared/job/explain.ts): the outcome, one summary line, and the decisions that led
// there with their evidence and the entry that tipped each.

export type JobSetExplanation = z.output<typeof JobSetExplanationSchema>;
export type JobSetOutcome = z.output<typeof JobSetOutcomeSchema>;
type JobSetReason = z.output<typeof JobSetReasonSchema>;
type ReasonDecision = Extract<JobSetDecisionEvent, { type: JobSetReason['type'] }>;

/** The outcome: rejection, then terminal state, restarting, suspension, progress. */
export function jobSetOutcome(state: JobSetState): JobSetOutcome {
  if (state.jobSet === undefined) return 'Unknown';
  if (state.validationErrors.length > 0) return 'Rejected';
  if (state.terminalState !== '') return state.terminalState;
  if (isTrue(state.conditions, 'RestartingJobSet')) return 'Restarting';
  return isTrue(state.conditions, 'Suspended') ? 'Suspended' : 'Running';
}

/** Explains the JobSet folded from `events`, the whole log in order (event i has seq i + 1). */
export function explainJobSet(
  jobSet: JobSetExplanation['jobSet'],
  state: JobSetState,
  events: readonly JobSetEvent[],
): JobSetExplanation {
  const outcome = jobSetOutcome(state);
  const reasons: JobSetReason[] = [];
  events.forEach((event, i) => {
    if (!isReasonDecision(event)) return;
    const tipping = 'tippedBy' in event ? events[event.tippedBy - 1] : undefined;
    reasons.push({
      seq: i + 1,
      type: event.type,
      at: event.at,
      sentence: reasonSentence(event),
      decision: { ...event },
      ...(tipping && 'tippedBy' in event ? { tippingEvent: { seq: event.tippedBy, type: tipping.type, at: tipping.at } } : {}),
    });
  });
  return {
    jobSet,
    outcome,
    summary: summaryLine(state, outcome),
    reasons,
    rejection: state.validationErrors.map((e) => `${e.field}: ${e.detail}`),
  };
}

function summaryLine(state: JobSetState, outcome: JobSetOutcome): string {
  const metadata = state.jobSet?.metadata;
  if (!metadata) return 'No JobSet has been observed.';
  const jobSet = `JobSet ${metadata.namespace ?? 'default'}/${metadata.name}`;
  const because = (type: string): string => {
    const condition = state.conditions.find((c) => c.type === type);
    return condition ? ` at ${condition.lastTransitionTime} — ${condition.reason}: ${condition.message}` : '';
  };
  switch (outcome) {
    case 'Unknown':
      return 'No JobSet has been observed.';
    case 'Rejected':
      return `${jobSet} was rejected: its spec has ${plural(state.validationErrors.length, 'validation error')}.`;
    case 'Completed':
      return `${jobSet} completed${because('Completed')}.`;
    case 'Failed':
      return `${jobSet} failed${because('Failed')}.`;
    case 'Restarting':
      return `${jobSet} is restarting (restart ${state.restarts})${because('RestartingJobSet')}.`;
    case 'Suspended':
      return `${jobSet} is suspended.`;
    case 'Running':
      return `${jobSet} is running: ${plural(Object.keys(state.children).length, 'child Job')}, ${plural(state.restarts, 'restart')}.`;
    default: {
      const _exhaustive: never = outcome;
      return _exhaustive;
    }
  }
}

function reasonSentence(event: ReasonDecision): string {
  switch (event.type) {
    case 'JobSetCompleted': {
      const targets = event.targetReplicatedJobs.length === 0 ? 'every replicated job' : event.targetReplicatedJobs.join(', ');
      return `success policy ${event.operator} over ${targets}: ${event.succeededJobs.length} of ${event.required} Jobs succeeded`;
    }
    case 'JobSetFailed':
    case 'JobSetRestarted': {
      const job = `Job ${event.failedJob.name} failed (${event.failedJob.reason})`;
      const rule = event.rule === null ? 'no failure policy rule matched' : `rule ${event.rule.index} "${event.rule.name}" (${event.rule.action}) matched`;
      const restart = event.type === 'JobSetRestarted' ? `; restart ${event.restarts}, ${event.restartsCountTowardsMax} counted towards maxRestarts` : '';
      return `${job}: ${rule}${restart}`;
    }
    case 'JobSetRejected':
      return `the spec has ${plural(event.errors.length, 'validation error')}`;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

function isReasonDecision(event: JobSetEvent): event is ReasonDecision {
  return event.type === 'JobSetCompleted' || event.type === 'JobSetFailed' || event.type === 'JobSetRestarted' || event.type === 'JobSetRejected';
}

const isTrue = (conditions: readonly JobSetCondition[], type: string): boolean =>
  conditions.some((c) => c.type === type && c.status === 'True');

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
