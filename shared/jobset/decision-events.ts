import * as z from 'zod';
import { CorrectionEvidenceSchema, outcomeCorrectionFields } from '../decide/outcome-correction.ts';
import { TimeSchema } from '../k8s/schema-helpers.ts';
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
  /**
   * A condition taken out, as it stood (`condition`): the cluster never wrote it, as evidence that
   * reached the log after the fold wrote it shows. An InOrder walk's `StartupPolicyCompleted`
   * written on a view that lacked a user's deletion of a Job that completed the walk in it: with
   * the deletion, no walk completed (walk-evidence.ts `walkNeverCompleted`). The deletions that
   * show it. Not for a JobSet jobfold runs: its conditions are its own.
   */
  readonly retracted?: { readonly deletedJobs: readonly DeletedJobEvidence[] };
  /** Log position of the observation that tipped it. */
  readonly tippedBy: number;
}

/** A child Job the cluster showed started, then deleted (its deletion's reported time). */
export interface DeletedJobEvidence {
  readonly name: string;
  readonly uid?: string;
  readonly startedAt: string;
  readonly deletedAt: string;
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
   * Logs written before JOBSET_FOLD_VERSION .10 only: the log position of the restart this one
   * corrects (same attempt, same counters). Since, a `JobSetOutcomeCorrected` entry precedes the
   * renaming restart, which carries the counters the JobSet holds already.
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
   * Logs written before JOBSET_FOLD_VERSION .10 only: the log position of the `JobSetRestarted`
   * this one corrects, taking it back. Since, a `JobSetOutcomeCorrected` entry takes it back first.
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
   * Logs written before JOBSET_FOLD_VERSION .10 only: the log position of the `JobSetFailed` this
   * one corrects, taking it back. Since, a `JobSetOutcomeCorrected` entry takes it back first.
   */
  readonly corrects?: number;
}

/**
 * A JobSet jobfold does not run: evidence that reached the log after a decision shows the
 * cluster's controller decided otherwise (shared/jobset/late-failures.ts, decide.ts
 * `completedBeforeFailure`). The fields every kind's correction has (shared/decide/
 * outcome-correction.ts): the conditions taken back as they stood (`RestartingJobSet` of a
 * restart, `Failed` of a failure), `corrects` the position of that decision, both instants
 * (`retractedMetAt`, `evidence.metAt`), and the `reason`/`message` of what the cluster decided
 * instead, the ordinary decision logged right after (`JobSetRestarted`, `JobSetFailed`,
 * `JobSetCompleted`). `restarts`/`restartsCountTowardsMax` are the counters the correction
 * leaves: below the JobSet's when the restart itself is taken back (the cluster failed the JobSet
 * instead), the same when only its naming is (another rule or first failed Job).
 */
export const JobSetOutcomeCorrectedSchema = z.object({
  type: z.literal('JobSetOutcomeCorrected'),
  at: TimeSchema,
  ...outcomeCorrectionFields(CorrectionEvidenceSchema),
  restarts: z.number().int().nonnegative(),
  restartsCountTowardsMax: z.number().int().nonnegative(),
});
export type JobSetOutcomeCorrected = z.infer<typeof JobSetOutcomeCorrectedSchema>;

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

/**
 * A child Job event kept aside because it was sent after one the log lacked (its count ahead of
 * the hole, child-counts.ts), folded now: the hole filled (or the wait ran out), and the JobSet
 * reconciled on every event sent before it first, as the cluster's controller did.
 */
export interface ChildJobEventReleased {
  readonly type: 'ChildJobEventReleased';
  readonly at: string;
  /** The child Job the event is about, or the JobSet for one of its observations. */
  readonly name: string;
  /** The newest `jobSetSeq` it carried (a child Job's event). */
  readonly count?: number;
  /** Log position of the observation released. */
  readonly tippedBy: number;
}

export type JobSetDecisionEvent =
  | ChildJobEventReleased
  | JobSetConditionChanged
  | JobSetDeletionRequested
  | JobSetRestarted
  | JobSetFailed
  | JobSetCompleted
  | JobSetOutcomeCorrected
  | JobSetRejected
  | CreateJobIssued
  | JobCommandIssued;

/** Every decision type, for telling decisions from observations in a stored log. */
export const JOBSET_DECISION_TYPES = [
  'JobSetConditionChanged',
  'JobSetRestarted',
  'JobSetFailed',
  'JobSetCompleted',
  'JobSetOutcomeCorrected',
  'JobSetRejected',
  'CreateJobIssued',
  'DeleteJobIssued',
  'SuspendJobIssued',
  'ResumeJobIssued',
  'JobSetDeletionRequested',
  'ChildJobEventReleased',
] as const satisfies readonly JobSetDecisionEvent['type'][];

const DECISION_TYPE_SET: ReadonlySet<string> = new Set(JOBSET_DECISION_TYPES);

export const isJobSetDecisionType = (type: string): boolean => DECISION_TYPE_SET.has(type);
