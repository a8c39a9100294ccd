import { correctionSentence, loggedCorrection, plural, type ExplainedCondition, type ExplanationOf, type OutcomeCorrection } from '../read-model/explanation.ts';
import { findCondition, isConditionTrue, type ConditionUpdate, type JobSetCondition } from './conditions.ts';
import { CONDITION_TYPES, JOBFOLD_JOBSET_CONTROLLER_NAME, REASONS } from './constants.ts';
import { missingChildJobEvents } from './child-counts.ts';
import { EXPECTATIONS_TIMEOUT_MS } from '../k8s/job-controller.ts';
import type { JobSetCompleted, JobSetDecisionEvent, JobSetFailed, JobSetRestarted } from './decision-events.ts';
import type { JobFailure, JobSetState } from './state.ts';
import { jobSetStatus } from './status.ts';
import { compareTimes, formatTime } from '../k8s/time.ts';
import { waitingReplicatedJobs, waitingSentence, type WaitingReplicatedJob } from './waiting.ts';
import { classifyChildJobs } from './child-jobs.ts';
import { isReconciled } from './managed-by.ts';
import { matchSuccessPolicy } from './success-policy.ts';
import { awaitedTtlDeletions, ttlExpiry } from './ttl-deletion-pending.ts';

// The JobSet's read model: why the JobSet stands where it does, from its state and the decisions
// of its log (shared/read-model/explanation.ts is the shape it shares with Jobs). A JobSet's
// decisions carry their own evidence (the rule, the failed child Job, the success policy count),
// so a condition's evidence is the decision that wrote it.

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
export interface ExplainedJobSetCondition extends ExplainedCondition<JobSetDecisionEvent> {
  readonly status: JobSetCondition['status'];
  /** Log position of the observation that tipped it. */
  readonly tippedBy: number | undefined;
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

/** Why the JobSet is where it is: served as JSON by the query API, printed by `jobfold replay` and `explain`. */
export interface JobSetExplanation extends ExplanationOf<'JobSet', JobSetOutcome, JobSetDecisionEvent> {
  readonly jobSet: { readonly namespace: string; readonly name: string; readonly uid: string | undefined } | undefined;
  readonly restarts: number;
  readonly restartsCountTowardsMax: number;
  readonly conditions: readonly ExplainedJobSetCondition[];
  /** Every decision passed in, in log order. */
  readonly events: readonly ExplainedJobSetDecision[];
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
    return {
      ...condition,
      evidence,
      decidedBy: logged?.seq,
      tippedBy: evidence === undefined ? undefined : tippedBy(evidence),
      sentence: conditionSentence(state, condition, evidence),
    };
  });
  const events = decisions.map(({ seq, event }): ExplainedJobSetDecision => ({
    seq,
    type: event.type,
    at: event.at,
    tippedBy: tippedBy(event),
    sentence: decisionSentence(state, event),
    decision: event,
  }));
  const corrections = decisions.flatMap((logged) => jobSetCorrection(state, logged, decisions) ?? []);
  return {
    kind: 'JobSet',
    jobSet: metadata && { namespace: metadata.namespace ?? 'default', name: metadata.name, uid: metadata.uid },
    outcome,
    summary: summary(state, outcome) + childEventsSentence(state) + ttlHeldSentence(state) + corrections.map(correctionSentence).join(''),
    restarts: state.restarts,
    restartsCountTowardsMax: state.restartsCountTowardsMax,
    conditions,
    events,
    rejection: state.validationErrors.map((error) => `${error.field}: ${error.detail}`),
    waiting: waitingReplicatedJobs(state).map((wait) => ({ ...wait, sentence: waitingSentence(wait) })),
    ...(corrections.length > 0 ? { corrections } : {}),
  };
}

/**
 * A logged correction as the correction every kind reports (shared/read-model/explanation.ts):
 * a `JobSetOutcomeCorrected` entry, which carries all of it, or, in a log written before
 * JOBSET_FOLD_VERSION .10, a decision that `corrects` an earlier one: a completion takes back the
 * failure (success policy met when its last counted Job succeeded), a restart the naming of the
 * restart it corrects, a failure the restart itself (the failures' own times). For those, the
 * corrected decision's time is read from the decisions passed in (undefined when they do not
 * reach back to it).
 */
export function jobSetCorrection(
  state: JobSetState, { seq, event }: LoggedJobSetDecision, decisions: readonly LoggedJobSetDecision[],
): OutcomeCorrection | undefined {
  if (event.type === 'JobSetOutcomeCorrected') return loggedCorrection(seq, event.at, event);
  if ((event.type !== 'JobSetCompleted' && event.type !== 'JobSetRestarted' && event.type !== 'JobSetFailed') || event.corrects === undefined) return undefined;
  const corrected = decisions.find((logged) => logged.seq === event.corrects)?.event;
  const retractedMetAt = corrected?.type === 'JobSetFailed' || corrected?.type === 'JobSetRestarted' ? corrected.failedJob.failedAt : undefined;
  const common = { decidedBy: seq, corrects: event.corrects, at: event.at, retractedMetAt, reason: event.condition.reason };
  if (event.type !== 'JobSetCompleted') return { ...common, retracted: [CONDITION_TYPES.restartingJobSet], metAt: event.failedJob.failedAt };
  const succeededAt = event.succeededJobs.map((name) => state.children[name]?.finishedAt).filter((at): at is string => at !== undefined);
  const metAt = succeededAt.length === 0 || succeededAt.length < event.succeededJobs.length
    ? undefined
    : succeededAt.reduce((latest, at) => (compareTimes(at, latest) > 0 ? at : latest));
  return { ...common, retracted: [CONDITION_TYPES.failed], metAt };
}

/** The outcome: rejection first, then terminal state, suspension, restart, progress. */
export function jobSetOutcome(state: JobSetState): JobSetOutcome {
  const { conditions } = state;
  if (state.jobSet === undefined) return 'Pending';
  if (state.validationErrors.length > 0) return 'Rejected';
  if (state.terminalState === 'Completed' || isConditionTrue(conditions, CONDITION_TYPES.completed)) return 'Completed';
  if (state.terminalState === 'Failed' || isConditionTrue(conditions, CONDITION_TYPES.failed)) return 'Failed';
  if (isConditionTrue(conditions, CONDITION_TYPES.suspended)) return 'Suspended';
  if (isConditionTrue(conditions, CONDITION_TYPES.restartingJobSet)) return 'Restarting';
  return Object.keys(state.children).length === 0 ? 'Pending' : 'Running';
}

// ---- The decision behind a condition ------------------------------------------------------

/** The condition a decision wrote, if it wrote one. */
function writtenCondition(event: JobSetDecisionEvent): ConditionUpdate | undefined {
  switch (event.type) {
    case 'JobSetConditionChanged':
      return event.movedBefore === undefined && event.retracted === undefined ? event.condition : undefined;
    case 'JobSetRestarted':
    case 'JobSetFailed':
    case 'JobSetCompleted':
      return event.condition;
    case 'JobSetOutcomeCorrected':
    case 'JobSetRejected':
    case 'CreateJobIssued':
    case 'DeleteJobIssued':
    case 'SuspendJobIssued':
    case 'ResumeJobIssued':
    case 'JobSetDeletionRequested':
    case 'ChildJobEventReleased':
      return undefined;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** Log position of the observation that tipped a decision (undefined for commands issued). */
const tippedBy = (event: JobSetDecisionEvent): number | undefined =>
  event.type === 'JobSetOutcomeCorrected' ? event.evidence.tippedBy : 'tippedBy' in event ? event.tippedBy : undefined;

const EXCLUSIVE: Readonly<Record<string, string>> = {
  [CONDITION_TYPES.startupPolicyInProgress]: CONDITION_TYPES.startupPolicyCompleted,
  [CONDITION_TYPES.startupPolicyCompleted]: CONDITION_TYPES.startupPolicyInProgress,
};

/**
 * The latest decision that wrote `condition` as it stands (type, status, reason, message). A
 * startup-policy condition turned False by its counterpart going True (`exclusiveConditions`)
 * is explained by that counterpart's decision.
 */
export function conditionEvidence(
  condition: JobSetCondition,
  decisions: readonly LoggedJobSetDecision[],
): LoggedJobSetDecision | undefined {
  const same = (written: ConditionUpdate | undefined): boolean =>
    written !== undefined &&
    written.type === condition.type &&
    written.status === condition.status &&
    written.reason === condition.reason &&
    written.message === condition.message;
  const found = decisions.findLast((d) => same(writtenCondition(d.event)));
  if (found !== undefined || condition.status !== 'False') return found;
  const counterpart = EXCLUSIVE[condition.type];
  if (counterpart === undefined) return undefined;
  return decisions.findLast((d) => {
    const written = writtenCondition(d.event);
    return written?.type === counterpart && written.status === 'True';
  });
}

/**
 * The child Job a failure-policy message names (`messageWithFirstFailedJob`) and its failure as
 * the state still knows it; for explaining a condition whose decision is not in the log.
 */
function firstFailedJob(state: JobSetState, message: string): { name: string; failure: JobFailure | undefined } | undefined {
  const name = /\(first failed job: (.+)\)$/.exec(message)?.[1];
  if (name === undefined) return undefined;
  return { name, failure: state.children[name]?.failure };
}

// ---- Sentences ----------------------------------------------------------------------------

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
      const corrects = event.corrects === undefined ? '' : ` (correcting the restart at #${event.corrects}: failures the cluster read then arrived after it)`;
      return `Restarted (${restartCounter(state, event)}): ${failureCause(event)}${message}${corrects}${tipped(event.tippedBy)}`;
    }
    case 'JobSetFailed': {
      const corrects = event.corrects === undefined ? '' : ` (correcting the restart at #${event.corrects}: failures the cluster read with the one it was decided on arrived after it)`;
      return `Failed: ${failureCause(event)}${maxRestartsReached(state, event)}${corrects}${tipped(event.tippedBy)}`;
    }
    case 'JobSetCompleted': {
      const corrects = event.corrects === undefined ? '' : ` (correcting the failure at #${event.corrects}: these successes came first on the cluster's clock but arrived after it)`;
      return `Completed: ${successText(state, event)}${corrects}${tipped(event.tippedBy)}`;
    }
    case 'JobSetOutcomeCorrected': {
      const taken = event.retracted.map((c) => `${c.type} (${c.reason})`).join(' and ');
      const decided = event.corrects === undefined ? '' : ` decided at #${event.corrects}`;
      const late = event.retracted.some((c) => c.type === CONDITION_TYPES.suspended)
        ? `the finish that came first on the cluster's clock${event.evidence.metAt === undefined ? '' : ` (${event.evidence.metAt})`} arrived after the suspension, which a finished JobSet ignores`
        : event.retracted.some((c) => c.type === CONDITION_TYPES.failed)
          ? "successes that came first on the cluster's clock arrived after it"
          : 'failures the cluster read with the one it was decided on arrived after it';
      return `Corrected: took back ${taken}${decided}: ${late}; the cluster decided ${event.reason} instead${tipped(event.evidence.tippedBy)}`;
    }
    case 'JobSetRejected': {
      const errors = event.errors.map((error) => `${error.field}: ${error.detail}`).join('; ');
      return `Rejected: ${plural(event.errors.length, 'validation error')} — ${errors}${tipped(event.tippedBy)}`;
    }
    case 'JobSetConditionChanged': {
      const { type, status, reason, message } = event.condition;
      if (event.movedBefore !== undefined) {
        return `${type} moved before ${event.movedBefore}: the cluster wrote it first (the JobSet it began on arrived late)${tipped(event.tippedBy)}`;
      }
      if (event.retracted !== undefined) {
        const jobs = event.retracted.deletedJobs.map((job) => `${job.name}${job.uid === undefined ? '' : ` (uid ${job.uid})`}, started ${job.startedAt}, deleted ${job.deletedAt}`).join('; ');
        return `${type} (${status}) taken back: the cluster never wrote it, the walk never completed — its deletion of ${jobs} came before every replica was started, and arrived after the condition was written${tipped(event.tippedBy)}`;
      }
      const since = event.since === undefined ? '' : ` (in its place as of ${event.since}: the cluster's evidence of it arrived late)`;
      return `${type} ${status}: ${reason} — ${message}${since}${tipped(event.tippedBy)}`;
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
    case 'ChildJobEventReleased':
      return `Folded ${event.count === undefined ? `JobSet ${event.name}'s observation` : `Job ${event.name}'s event (jobSetSeq ${event.count})`}, kept aside until every child Job event sent before it arrived, after a reconcile on those${tipped(event.tippedBy)}`;
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
function conditionSentence(state: JobSetState, condition: JobSetCondition, evidence: JobSetDecisionEvent | undefined): string {
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

/**
 * `rule 1 "failurePolicyRule1" (RestartJobSet) matched child Job x-3 failing with <reason>`: the
 * failure policy's words, one place for every action (FailJobSet, RestartJobSet,
 * RestartJobSetAndIgnoreMaxRestarts: the rule names its action).
 */
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

// ---- The summary --------------------------------------------------------------------------

/** One line saying where the JobSet stands and why, e.g. `JobSet default/x failed at … — …`. */
/**
 * For a JobSet jobfold runs whose log lacks a child Job event sent before the newest it holds:
 * that it decides nothing meanwhile, what it waits for, and until when at most (child-counts.ts).
 */
function childEventsSentence(state: JobSetState): string {
  const missing = missingChildJobEvents(state);
  if (missing === undefined || state.jobSet?.spec.managedBy !== JOBFOLD_JOBSET_CONTROLLER_NAME) return '';
  const events = missing.count === 1 ? '1 child Job event sent before the newest one in the log has' : `${missing.count} child Job events sent before the newest one in the log have`;
  return ` Nothing is decided, while ${events} not arrived (missing since ${formatTime(missing.since)}; given up on at ${formatTime(missing.since + EXPECTATIONS_TIMEOUT_MS)}).`;
}

/**
 * For a running JobSet jobfold does not run whose success policy is met only by counting completed
 * Jobs whose TTL ran out before the last success (ttl-deletion-pending.ts): that the success policy
 * waits for their deletions, which say whether the cluster's controller still listed them.
 */
function ttlHeldSentence(state: JobSetState): string {
  const spec = state.jobSet?.spec;
  if (spec === undefined || spec.managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME || !isReconciled(spec) || state.validationErrors.length > 0) return '';
  if ([CONDITION_TYPES.completed, CONDITION_TYPES.failed].some((type) => isConditionTrue(state.conditions, type))) return '';
  const owned = classifyChildJobs(state);
  if (owned === undefined || owned.failed.length > 0) return '';
  const awaited = awaitedTtlDeletions(spec, owned.successful);
  if (awaited.length === 0) return '';
  const { required } = matchSuccessPolicy(spec, owned.successful);
  const jobs = awaited.map((job) => `${job.name} (ttlSecondsAfterFinished ran out at ${formatTime(ttlExpiry(spec, job))})`).join(', ');
  return ` The success policy (${spec.successPolicy.operator}, ${required} required) is met only counting ${jobs}, whose TTL ran out before the last success: it is not decided until ${awaited.length === 1 ? 'its deletion arrives' : 'their deletions arrive'} (the cluster's controller counted only the Jobs it still listed then).`;
}

function summary(state: JobSetState, outcome: JobSetOutcome): string {
  const metadata = state.jobSet?.metadata;
  if (metadata === undefined) return 'No JobSet has been observed.';
  const gone = state.deleted ? ' (deleted)' : state.deleting === true ? ' (being deleted)' : '';
  const jobSet = `JobSet ${metadata.namespace ?? 'default'}/${metadata.name}${gone}`;
  const because = (type: string): string => {
    const condition = findCondition(state.conditions, type);
    return condition === undefined ? '' : ` at ${condition.lastTransitionTime} — ${condition.reason}: ${condition.message}`;
  };
  const after = state.restarts === 0 ? '' : ` after ${plural(state.restarts, 'restart')}`;
  switch (outcome) {
    case 'Pending':
      return `${jobSet} has no child Jobs yet.`;
    case 'Rejected':
      return `${jobSet} was rejected: its spec has ${plural(state.validationErrors.length, 'validation error')}.`;
    case 'Completed':
      return `${jobSet} completed${after}${because(CONDITION_TYPES.completed)}.`;
    case 'Failed':
      return `${jobSet} failed${after}${because(CONDITION_TYPES.failed)}.`;
    case 'Restarting':
      return `${jobSet} is restarting (restart ${state.restarts}, ${counted(state)})${because(CONDITION_TYPES.restartingJobSet)}.`;
    case 'Suspended':
      return `${jobSet} is suspended: ${jobCounts(state)}.`;
    case 'Running': {
      const attempt = state.restarts === 0 ? '' : ` (restart attempt ${state.restarts}, ${counted(state)})`;
      return `${jobSet} is running${attempt}: ${jobCounts(state)}.`;
    }
    default: {
      const _exhaustive: never = outcome;
      return _exhaustive;
    }
  }
}

/** `4 Jobs — 4 active, 4 ready, 0 succeeded, 0 failed`, over the current attempt's Jobs. */
function jobCounts(state: JobSetState): string {
  const rows = jobSetStatus(state).replicatedJobsStatus;
  const sum = (key: 'active' | 'ready' | 'succeeded' | 'failed' | 'suspended'): number =>
    rows.reduce((total, row) => total + row[key], 0);
  const current = Object.values(state.children).filter((job) => (job.restartAttempt ?? 0) >= state.restarts).length;
  const suspended = sum('suspended') === 0 ? '' : `, ${sum('suspended')} suspended`;
  return `${plural(current, 'Job')} — ${sum('active')} active, ${sum('ready')} ready, ${sum('succeeded')} succeeded, ${sum('failed')} failed${suspended}`;
}

function counted(state: JobSetState): string {
  const max = state.jobSet?.spec.failurePolicy?.maxRestarts ?? 0;
  return `${state.restartsCountTowardsMax} of maxRestarts ${max} counted`;
}
