import { MESSAGES, REASONS, restartingReasonForRule, withFirstFailedJob } from './constants.ts';
import type { DefaultedFailurePolicy, DefaultedFailurePolicyRule } from './defaulting.ts';
import type { RuleEvidence } from './decision-events.ts';
import { anyPatternMatches } from './re2.ts';
import type { ChildJobView } from './state.ts';

/** The outcome of the failure policy for one pass with at least one failed current-attempt Job. */
export type FailurePolicyResult =
  | {
      readonly kind: 'Fail';
      readonly reason: string;
      readonly message: string;
      readonly rule: RuleEvidence | null;
      readonly failedJob: ChildJobView;
    }
  | {
      readonly kind: 'Restart';
      readonly action: 'RestartJobSet' | 'RestartJobSetAndIgnoreMaxRestarts';
      readonly countsTowardsMax: boolean;
      /** `RestartingJobSet` reason: `FailurePolicy_<rule>` or `DefaultFailurePolicy`. */
      readonly reason: string;
      readonly message: string;
      readonly rule: RuleEvidence | null;
      readonly failedJob: ChildJobView;
    }
  /** A gated or unknown action: upstream's reconcile returns an error and decides nothing. */
  | { readonly kind: 'Unsupported'; readonly action: string };

/**
 * KEP-262 failure policy (`executeFailurePolicy`, failure_policy.go). No policy: fail at once
 * (`FailedJobs`). Otherwise rules are searched in order, and for the first rule that applies to
 * any failed Job, the earliest-failed such Job is taken (`findFirstFailedPolicyRuleAndJob`); no
 * rule applying means the default `RestartJobSet` with the earliest failed Job overall.
 * `failed` must be non-empty and sorted by name (ties in failure time go to the first listed).
 */
export function matchFailurePolicy(
  policy: DefaultedFailurePolicy | undefined,
  failed: readonly ChildJobView[],
  restartsCountTowardsMax: number,
): FailurePolicyResult {
  if (policy === undefined) {
    const failedJob = earliestFailure(failed)!;
    const message = withFirstFailedJob(MESSAGES.failedJobs, failedJob.name);
    return { kind: 'Fail', reason: REASONS.failedJobs, message, rule: null, failedJob };
  }
  for (const [index, rule] of policy.rules.entries()) {
    const failedJob = earliestFailure(failed.filter((job) => ruleIsApplicable(rule, job)));
    if (failedJob !== undefined) {
      const evidence = { index, name: rule.name, action: rule.action };
      return applyAction(rule.action, evidence, failedJob, policy, restartsCountTowardsMax);
    }
  }
  return applyAction('RestartJobSet', null, earliestFailure(failed)!, policy, restartsCountTowardsMax);
}

/** `ruleIsApplicable`: reason listed (exactly), a message pattern found, the parent targeted. */
function ruleIsApplicable(rule: DefaultedFailurePolicyRule, job: ChildJobView): boolean {
  const failure = job.failure;
  if (failure === undefined) return false;
  const reasons = rule.onJobFailureReasons;
  if (reasons.length > 0 && !reasons.includes(failure.reason)) return false;
  const patterns = rule.onJobFailureMessagePatterns;
  if (patterns.length > 0 && !anyPatternMatches(patterns, failure.message)) return false;
  // A Job without a parent replicated job label matches no rule.
  if (job.replicatedJob === undefined) return false;
  const targets = rule.targetReplicatedJobs;
  return targets.length === 0 || targets.includes(job.replicatedJob);
}

function applyAction(
  action: string,
  rule: RuleEvidence | null,
  failedJob: ChildJobView,
  policy: DefaultedFailurePolicy,
  restartsCountTowardsMax: number,
): FailurePolicyResult {
  const name = failedJob.name;
  const restartingReason = rule === null ? REASONS.restartingDefaultFailurePolicy : restartingReasonForRule(rule.name);
  switch (action) {
    case 'FailJobSet':
      return {
        kind: 'Fail',
        reason: REASONS.failJobSetAction,
        message: withFirstFailedJob(MESSAGES.failJobSetAction, name),
        rule,
        failedJob,
      };
    case 'RestartJobSet':
      if (restartsCountTowardsMax >= policy.maxRestarts) {
        const message = withFirstFailedJob(MESSAGES.reachedMaxRestarts, name);
        return { kind: 'Fail', reason: REASONS.reachedMaxRestarts, message, rule, failedJob };
      }
      return {
        kind: 'Restart',
        action,
        countsTowardsMax: true,
        reason: restartingReason,
        message: withFirstFailedJob(MESSAGES.restartJobSetAction, name),
        rule,
        failedJob,
      };
    case 'RestartJobSetAndIgnoreMaxRestarts':
      return {
        kind: 'Restart',
        action,
        countsTowardsMax: false,
        reason: restartingReason,
        message: withFirstFailedJob(MESSAGES.restartJobSetAndIgnoreMaxRestartsAction, name),
        rule,
        failedJob,
      };
    default:
      return { kind: 'Unsupported', action };
  }
}

/** `findFirstFailedJob`: strictly earliest Failed transition time; a missing time sorts first. */
function earliestFailure(jobs: readonly ChildJobView[]): ChildJobView | undefined {
  let first: ChildJobView | undefined;
  let firstTime = Infinity;
  for (const job of jobs) {
    if (job.failure === undefined) continue;
    const time = failureTime(job);
    if (first === undefined || time < firstTime) {
      first = job;
      firstTime = time;
    }
  }
  return first;
}

function failureTime(job: ChildJobView): number {
  const at = job.failure?.lastTransitionTime;
  const parsed = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isNaN(parsed) ? -Infinity : parsed;
}
