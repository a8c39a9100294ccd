import type { JobSetCondition } from './conditions.ts';
import { CONDITION_TYPES, REASONS } from './constants.ts';
import type { JobSetCompleted, JobSetDecisionEvent, JobSetFailed, JobSetRestarted } from './decision-events.ts';
import { firstFailedJob } from './explain-evidence.ts';
import type { JobSetState } from './state.ts';

/**
 * One plain sentence per decision, e.g.
 * `Restarted (1 of maxRestarts 10): rule 1 "failurePolicyRule1" (RestartJobSet) matched child Job
 * x-3 failing with PodFailurePolicy_ExitCode3 — "Container main for pod …", event #12`.
 * `event #N` is the log position of the observation that tipped the decision.
 */
export function decisionSentence(state: JobSetState, event: JobSetDecisionEvent): string {
  switch (event.type) {
    case 'JobSetRestarted': {
      const message = event.failedJob.message === '' ? '' : ` — "${event.failedJob.message}"`;
      return `Restarted (${restartCounter(state, event)}): ${failureCause(event)}${message}${tipped(event.tippedBy)}`;
    }
    case 'JobSetFailed':
      return `Failed: ${failureCause(event)}${maxRestartsReached(state, event)}${tipped(event.tippedBy)}`;
    case 'JobSetCompleted':
      return `Completed: ${successText(state, event)}${tipped(event.tippedBy)}`;
    case 'JobSetRejected': {
      const errors = event.errors.map((error) => `${error.field}: ${error.detail}`).join('; ');
      return `Rejected: ${plural(event.errors.length, 'validation error')} — ${errors}${tipped(event.tippedBy)}`;
    }
    case 'JobSetConditionChanged': {
      const { type, status, reason, message } = event.condition;
      return `${type} ${status}: ${reason} — ${message}${tipped(event.tippedBy)}`;
    }
    case 'CreateJobIssued': {
      const suspended = event.suspend ? ', suspended' : '';
      return `CreateJob ${event.name} (${event.replicatedJob} job index ${event.jobIndex}, restart attempt ${event.restartAttempt}${suspended})`;
    }
    case 'DeleteJobIssued':
      return `DeleteJob ${event.name} (foreground)`;
    case 'SuspendJobIssued':
      return `SuspendJob ${event.name}`;
    case 'ResumeJobIssued':
      return `ResumeJob ${event.name}`;
    case 'JobSetDeletionRequested':
      return `DeleteJobSet ${event.name} (foreground): finished at ${event.finishedAt}, ttlSecondsAfterFinished ${event.ttlSecondsAfterFinished} expired at ${event.expiredAt}${tipped(event.tippedBy)}`;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/**
 * One plain sentence per condition: `<type>[ (False)]: <reason> — <what happened>, event #N`.
 * Without the deciding event, a failure-policy condition still names the child Job its message
 * names and that Job's failure reason; anything else falls back to the condition's message.
 */
export function conditionSentence(
  state: JobSetState,
  condition: JobSetCondition,
  evidence: JobSetDecisionEvent | undefined,
): string {
  const status = condition.status === 'True' ? '' : ` (${condition.status})`;
  const head = `${condition.type}${status}: ${condition.reason === '' ? '' : `${condition.reason} — `}`;
  if (evidence === undefined) return head + fallback(state, condition);
  switch (evidence.type) {
    case 'JobSetFailed':
      return `${head}${failureCause(evidence)}${maxRestartsReached(state, evidence)}${tipped(evidence.tippedBy)}`;
    case 'JobSetRestarted':
      return `${head}restarted (${restartCounter(state, evidence)}): ${failureCause(evidence)}${tipped(evidence.tippedBy)}`;
    case 'JobSetCompleted':
      return `${head}${successText(state, evidence)}${tipped(evidence.tippedBy)}`;
    case 'JobSetConditionChanged': {
      const written = evidence.condition;
      const what = written.type === condition.type ? condition.message : `turned False when ${written.type} became True`;
      return `${head}${what}${tipped(evidence.tippedBy)}`;
    }
    default:
      return head + fallback(state, condition);
  }
}

/** `rule 1 "failurePolicyRule1" (RestartJobSet) matched child Job x-3 failing with <reason>`. */
function failureCause(event: JobSetFailed | JobSetRestarted): string {
  const { name, reason } = event.failedJob;
  const job = `child Job ${name} failing with ${reason === '' ? 'no reason' : reason}`;
  const rule = event.rule;
  if (rule !== null) return `rule ${rule.index} "${rule.name}" (${rule.action}) matched ${job}`;
  if (event.type === 'JobSetFailed' && event.condition.reason === REASONS.failedJobs) {
    return `no failurePolicy, so the first failure fails it: ${job}`;
  }
  return `no rule matched ${job}, so the default action RestartJobSet applied`;
}

/** `1 of maxRestarts 10`, `restart 3, 1 of maxRestarts 10`, `restart 3, not counted towards maxRestarts 10`. */
function restartCounter(state: JobSetState, event: JobSetRestarted): string {
  const max = `maxRestarts ${maxRestarts(state)}`;
  if (event.action === 'RestartJobSetAndIgnoreMaxRestarts') return `restart ${event.restarts}, not counted towards ${max}`;
  const counted = `${event.restartsCountTowardsMax} of ${max}`;
  return event.restarts === event.restartsCountTowardsMax ? counted : `restart ${event.restarts}, ${counted}`;
}

function maxRestartsReached(state: JobSetState, event: JobSetFailed): string {
  if (event.condition.reason !== REASONS.reachedMaxRestarts) return '';
  return `, but ${plural(state.restartsCountTowardsMax, 'counted restart')} already reached maxRestarts ${maxRestarts(state)}`;
}

/** `success policy All over [workers] — 4 of 4 Jobs succeeded`. */
function successText(state: JobSetState, event: JobSetCompleted): string {
  const all = state.jobSet?.spec.replicatedJobs.map((rjob) => rjob.name) ?? [];
  const targets =
    event.targetReplicatedJobs.length > 0 ? `[${event.targetReplicatedJobs.join(', ')}]` : `[${all.join(', ')}] (all replicated jobs)`;
  const count = event.succeededJobs.length;
  const counted =
    event.operator === 'Any'
      ? `${plural(count, 'Job')} succeeded (${event.succeededJobs.join(', ')}), ${event.required} needed`
      : `${count} of ${event.required} Jobs succeeded`;
  return `success policy ${event.operator} over ${targets} — ${counted}`;
}

function fallback(state: JobSetState, condition: JobSetCondition): string {
  const failureCondition =
    condition.type === CONDITION_TYPES.failed || (condition.type === CONDITION_TYPES.restartingJobSet && condition.status === 'True');
  const named = failureCondition ? firstFailedJob(state, condition.message) : undefined;
  if (named?.failure === undefined) return condition.message || condition.status;
  const reason = named.failure.reason === '' ? 'no reason' : named.failure.reason;
  return `${condition.message}; child Job ${named.name} failed with ${reason}`;
}

const maxRestarts = (state: JobSetState): number => state.jobSet?.spec.failurePolicy?.maxRestarts ?? 0;

const tipped = (position: number): string => (position > 0 ? `, event #${position}` : '');

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
