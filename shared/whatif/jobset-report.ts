import type { JobSetDecisionEvent, RuleEvidence } from '../jobset/decision-events.ts';
import type { Outcome, OutcomeView } from './report.ts';

// What a JobSet what-if reports (`jobfold whatif --json` on a JobSet, POST …/jobsets/{name}/whatif):
// the shape of the Job what-if, with the JobSet's words. A JobSet's log holds no pods, so there
// are no pod-seconds; what changes is the outcome, when, and how many restarts it took.

/** How a JobSet ended (or not), as a Job's OutcomeView (condition: Completed or Failed), with its restarts. */
export type JobSetOutcomeView = Omit<OutcomeView, 'podsTerminated'> & {
  /** Global restarts decided before the outcome (or before the what-if stops). */
  readonly restarts: number;
};

/** One thing the JobSet fold decided, with its why: the rule and the child Job it acted on. */
export type JobSetDecisionSummary =
  | { readonly kind: 'failed'; readonly rule: string; readonly failedJob: string; readonly jobReason: string; readonly reason: string }
  | { readonly kind: 'restarted'; readonly rule: string; readonly action: string; readonly failedJob: string; readonly jobReason: string; readonly restarts: number }
  | { readonly kind: 'completed'; readonly operator: string; readonly succeededJobs: number; readonly required: number; readonly reason: string }
  | { readonly kind: 'condition'; readonly type: string; readonly status: string; readonly reason: string }
  | { readonly kind: 'rejected'; readonly errors: readonly string[] }
  | { readonly kind: 'createJob' | 'deleteJob' | 'suspendJob' | 'resumeJob'; readonly job: string }
  | { readonly kind: 'deleteJobSet'; readonly expiredAt: string };

export interface JobSetDivergence {
  readonly atEvent: number;
  readonly at: string;
  readonly by: 'reconcile';
  readonly recorded: readonly JobSetDecisionSummary[];
  readonly whatIf: readonly JobSetDecisionSummary[];
}

export interface JobSetWhatIfReport {
  readonly kind: 'JobSet';
  readonly recorded: JobSetOutcomeView;
  readonly whatIf: JobSetOutcomeView & { readonly exact: boolean };
  readonly divergesAtEvent: number | null;
  readonly divergence: JobSetDivergence | null;
}

const ruleName = (rule: RuleEvidence | null): string => (rule ? `${rule.name} (rule ${rule.index}, ${rule.action})` : 'no rule matched (default action)');

/** A decision without its time, command id and log positions: what the two folds are compared on. */
export function summarizeJobSetDecision(decision: JobSetDecisionEvent): JobSetDecisionSummary {
  switch (decision.type) {
    case 'JobSetFailed':
      return { kind: 'failed', rule: ruleName(decision.rule), failedJob: decision.failedJob.name, jobReason: decision.failedJob.reason, reason: decision.condition.reason };
    case 'JobSetRestarted':
      return { kind: 'restarted', rule: ruleName(decision.rule), action: decision.action, failedJob: decision.failedJob.name, jobReason: decision.failedJob.reason, restarts: decision.restarts };
    case 'JobSetCompleted':
      return { kind: 'completed', operator: decision.operator, succeededJobs: decision.succeededJobs.length, required: decision.required, reason: decision.condition.reason };
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
    default: {
      const exhaustive: never = decision;
      throw new Error(`unknown JobSet decision ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** The outcome a decision settles: `JobSetCompleted` or `JobSetFailed`. */
export function jobSetOutcomeOf(decision: JobSetDecisionEvent): { outcome: Outcome; condition: string; reason: string } | undefined {
  if (decision.type === 'JobSetCompleted') return { outcome: 'Succeeded', condition: decision.condition.type, reason: decision.condition.reason };
  if (decision.type === 'JobSetFailed') return { outcome: 'Failed', condition: decision.condition.type, reason: decision.condition.reason };
  return undefined;
}
