import type { Decision } from '../job/decisions.ts';
import type { JobState } from '../job/state.ts';
import type { JobSetDecisionEvent, RuleEvidence } from '../jobset/decision-events.ts';
import type { DecisionSummary, JobSetDecisionSummary } from './report.ts';

// What the two folds of a what-if are compared on, per kind: a decision without its time,
// command id and log positions.

/**
 * What a reconcile decided, as compared between the two folds: conditions, terminations,
 * creations, start time, rejection. `JobStatusSent` is left out: it only echoes the status,
 * whose differences show first as one of these or as a pod counted differently; so is
 * `PodFinalizersRemovalRequested`, which follows a count or a termination; and so is
 * `PodsTerminationExpired`, whose difference shows as the terminations or creations after it.
 */
export function summarize(decisions: readonly Decision[]): DecisionSummary[] {
  const result: DecisionSummary[] = [];
  for (const decision of decisions) {
    switch (decision.type) {
      case 'JobConditionChanged': {
        const { type, status, reason, message } = decision.condition;
        result.push({ kind: 'condition', type, status, reason, message });
        break;
      }
      case 'PodsTerminationRequested':
        // The reason too: a JobFinishing termination settles the outcome (outcome.ts), so two
        // that end the same pods for other reasons (SuccessPolicy, FailedIndexes) differ.
        result.push({ kind: 'termination', cause: decision.cause, reason: decision.reason, pods: decision.pods.map((p) => p.name) });
        break;
      case 'PodCreationsRequested':
        result.push({ kind: 'creation', count: decision.count, ...(decision.indexes ? { indexes: decision.indexes } : {}) });
        break;
      case 'StartTimeSet':
        result.push({ kind: 'startTime', startTime: decision.startTime });
        break;
      case 'JobOutcomeCorrected':
        result.push({ kind: 'correction', retracted: decision.retracted.map((c) => c.type), reason: decision.reason });
        break;
      case 'JobRejected':
      case 'JobUpdateRefused':
        result.push({ kind: 'rejection', errors: decision.errors.map((e) => e.message) });
        break;
      case 'JobStatusSent':
      case 'PodFinalizersRemovalRequested':
      case 'PodsTerminationExpired':
      case 'ObservationRefused':
      case 'CriterionMetEarlier':
        break;
      default: {
        const exhaustive: never = decision;
        throw new Error(`unknown decision ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return result;
}

/** How the fold has counted one pod, and the Job's counters after it. */
export function countingOf(state: JobState, uid: string): DecisionSummary {
  const pod = state.pods.get(uid);
  const { failed, succeeded, failedIndexes, completedIndexes } = state.status;
  return {
    kind: 'pod',
    pod: pod?.name ?? uid,
    counted: pod?.counted ?? 'none',
    failed: failed + state.heldCountable,
    succeeded,
    failedIndexes: failedIndexes.toString(),
    completedIndexes: completedIndexes.toString(),
  };
}

/**
 * A recorded run of decisions as `summarize` sees one reconcile's: a termination logged in
 * pages (shared/job/page-decisions.ts) is one termination again.
 */
export function summarizeRecorded(decisions: readonly Decision[]): DecisionSummary[] {
  const whole: Decision[] = [];
  for (const decision of decisions) {
    const previous = whole.at(-1);
    if (decision.type === 'PodsTerminationRequested' && decision.page !== undefined && previous?.type === 'PodsTerminationRequested') {
      whole[whole.length - 1] = { ...previous, pods: [...previous.pods, ...decision.pods] };
    } else {
      whole.push(decision);
    }
  }
  return summarize(whole);
}

export const sameSummaries = <Summary>(a: readonly Summary[], b: readonly Summary[]): boolean => JSON.stringify(a) === JSON.stringify(b);

const ruleName = (rule: RuleEvidence | null): string => (rule ? `${rule.name} (rule ${rule.index}, ${rule.action})` : 'no rule matched (default action)');

/** A JobSet decision with its why: the rule and the child Job it acted on. */
export function summarizeJobSetDecision(decision: JobSetDecisionEvent): JobSetDecisionSummary {
  switch (decision.type) {
    case 'JobSetFailed':
      return { kind: 'failed', rule: ruleName(decision.rule), failedJob: decision.failedJob.name, jobReason: decision.failedJob.reason, reason: decision.condition.reason };
    case 'JobSetRestarted':
      return { kind: 'restarted', rule: ruleName(decision.rule), action: decision.action, failedJob: decision.failedJob.name, jobReason: decision.failedJob.reason, restarts: decision.restarts };
    case 'JobSetCompleted':
      return { kind: 'completed', operator: decision.operator, succeededJobs: decision.succeededJobs.length, required: decision.required, reason: decision.condition.reason };
    case 'JobSetOutcomeCorrected':
      return { kind: 'correction', retracted: decision.retracted.map((c) => c.type), reason: decision.reason };
    case 'JobSetConditionChanged':
      return { kind: 'condition', type: decision.condition.type, status: decision.condition.status, reason: decision.condition.reason };
    case 'JobSetRejected':
      return { kind: 'rejected', errors: decision.errors.map((e) => `${e.field}: ${e.detail}`) };
    case 'CreateJobIssued':
      return { kind: 'createJob', job: decision.name };
    case 'DeleteJobIssued':
      return { kind: 'deleteJob', job: decision.name };
    case 'SuspendJobIssued':
      return { kind: 'suspendJob', job: decision.name };
    case 'ResumeJobIssued':
      return { kind: 'resumeJob', job: decision.name };
    case 'JobSetDeletionRequested':
      return { kind: 'deleteJobSet', expiredAt: decision.expiredAt };
    case 'ChildJobEventReleased':
      return { kind: 'released', job: decision.name, count: decision.count };
    default: {
      const exhaustive: never = decision;
      throw new Error(`unknown JobSet decision ${JSON.stringify(exhaustive)}`);
    }
  }
}
