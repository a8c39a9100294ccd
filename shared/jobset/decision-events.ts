import type { ConditionUpdate } from './conditions.ts';

// Decisions of the JobSet fold. Each carries its evidence: the rule, the child Job and its
// failure, and `tippedBy`, the log position of the observation that tipped it.

/** The failure policy rule a decision applied: its position in the list and its name. */
export interface RuleEvidence {
  readonly index: number;
  readonly name: string;
  readonly action: string;
}

/** The child Job whose failure a decision acted on. */
export interface FailedJobEvidence {
  readonly name: string;
  readonly replicatedJob: string | undefined;
  readonly reason: string;
  readonly message: string;
  readonly failedAt: string | undefined;
  /** Log position of the observation that reported the failure. */
  readonly observedAt: number;
}

/** A condition transition not covered by the events below (startup, suspend, restarting). */
export interface JobSetConditionChanged {
  readonly type: 'JobSetConditionChanged';
  readonly at: string;
  readonly condition: ConditionUpdate;
  /**
   * A condition the cluster's controller wrote at this time on evidence that reached the log late
   * (a suspension seen after the resumption): it is added even when False, in the place it took
   * then, before the conditions written after it.
   */
  readonly since?: string;
  /**
   * A condition that stands, moved to just before the condition of this type: the cluster wrote
   * it first, as evidence that reached the log after the fold placed both says (an InOrder walk
   * begun on a JobSet observation older than the suspension placed first, decide.ts
   * `walkBeforeSuspension`). Its fields are unchanged; it writes nothing else.
   */
  readonly movedBefore?: string;
  /** Log position of the observation that tipped it. */
  readonly tippedBy: number;
}

/** A global restart: `RestartingJobSet` True and the restart counters bumped. */
export interface JobSetRestarted {
  readonly type: 'JobSetRestarted';
  readonly at: string;
  readonly action: 'RestartJobSet' | 'RestartJobSetAndIgnoreMaxRestarts';
  /** Null when no rule matched and the default action applied. */
  readonly rule: RuleEvidence | null;
  readonly failedJob: FailedJobEvidence;
  readonly restarts: number;
  readonly restartsCountTowardsMax: number;
  readonly condition: ConditionUpdate;
  readonly tippedBy: number;
  /**
   * The log position of the restart this one corrects (same attempt, same counters): the
   * failed Jobs the cluster's controller saw when it restarted, some of which reached the log
   * after that decision, name another first failure or rule (shared/jobset/late-failures.ts).
   */
  readonly corrects?: number;
}

export interface JobSetFailed {
  readonly type: 'JobSetFailed';
  readonly at: string;
  readonly rule: RuleEvidence | null;
  readonly failedJob: FailedJobEvidence;
  readonly condition: ConditionUpdate;
  readonly tippedBy: number;
  /**
   * The log position of the `JobSetRestarted` this one corrects: failures the cluster's controller
   * read with the one the fold restarted on, arriving after it, match a `FailJobSet` rule ranked
   * first, so the cluster failed the JobSet and never restarted it (shared/jobset/late-failures.ts).
   */
  readonly corrects?: number;
}

export interface JobSetCompleted {
  readonly type: 'JobSetCompleted';
  readonly at: string;
  readonly operator: string;
  readonly targetReplicatedJobs: readonly string[];
  /** The succeeded current-attempt Jobs the success policy counted. */
  readonly succeededJobs: readonly string[];
  readonly required: number;
  readonly condition: ConditionUpdate;
  readonly tippedBy: number;
  /**
   * The log position of the `JobSetFailed` this one corrects: the success policy was met before
   * the first failure on the cluster's clock, by successes that reached the log after the fold
   * failed the JobSet, so the cluster's controller completed it (shared/jobset/finish-order.ts).
   */
  readonly corrects?: number;
}

/** The observed spec failed admission; nothing is reconciled until a valid spec is observed. */
export interface JobSetRejected {
  readonly type: 'JobSetRejected';
  readonly at: string;
  readonly errors: readonly { field: string; type: string; detail: string }[];
  readonly tippedBy: number;
}

/** A CreateJob command went out; the controller's view holds the Job from now on. */
export interface CreateJobIssued {
  readonly type: 'CreateJobIssued';
  readonly at: string;
  readonly commandId: string;
  readonly name: string;
  readonly replicatedJob: string;
  readonly jobIndex: number;
  readonly restartAttempt: number;
  readonly suspend: boolean;
  readonly parallelism: number;
  readonly completions: number | undefined;
}

/** A DeleteJob, SuspendJob or ResumeJob command went out for `name`. */
export interface JobCommandIssued {
  readonly type: 'DeleteJobIssued' | 'SuspendJobIssued' | 'ResumeJobIssued';
  readonly at: string;
  readonly commandId: string;
  readonly name: string;
}

/**
 * `ttlSecondsAfterFinished` passed: the JobSet is deleted (foreground). Its log, and so its
 * history, stays; nothing is decided for it from here on.
 */
export interface JobSetDeletionRequested {
  readonly type: 'JobSetDeletionRequested';
  readonly at: string;
  readonly commandId: string;
  /** The JobSet's name. */
  readonly name: string;
  readonly ttlSecondsAfterFinished: number;
  /** The transition time of the JobSet's Completed or Failed condition. */
  readonly finishedAt: string;
  /** finishedAt + ttlSecondsAfterFinished. */
  readonly expiredAt: string;
  readonly tippedBy: number;
}

export type JobSetDecisionEvent =
  | JobSetConditionChanged
  | JobSetDeletionRequested
  | JobSetRestarted
  | JobSetFailed
  | JobSetCompleted
  | JobSetRejected
  | CreateJobIssued
  | JobCommandIssued;

/** Every decision type, for telling decisions from observations in a stored log. */
export const JOBSET_DECISION_TYPES = [
  'JobSetConditionChanged',
  'JobSetRestarted',
  'JobSetFailed',
  'JobSetCompleted',
  'JobSetRejected',
  'CreateJobIssued',
  'DeleteJobIssued',
  'SuspendJobIssued',
  'ResumeJobIssued',
  'JobSetDeletionRequested',
] as const satisfies readonly JobSetDecisionEvent['type'][];

const DECISION_TYPE_SET: ReadonlySet<string> = new Set(JOBSET_DECISION_TYPES);

export const isJobSetDecisionType = (type: string): boolean => DECISION_TYPE_SET.has(type);
