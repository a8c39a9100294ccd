import type * as z from 'zod';
import type { JobSummary } from '../../shared/log/event-store.ts';
import { jobStatus, type Explanation, type JobState } from '../../shared/job/index.ts';
import {
  jobSetStatus,
  listChildJobs,
  type DefaultedJobSetSpec,
  type JobSetExplanation,
  type JobSetState,
  type LoggedJobSetDecision,
} from '../../shared/jobset/index.ts';
import { briefOf } from '../../shared/read-model/explanation.ts';
import type { IssuedCommand } from './issued-commands.ts';
import { JOBSET_COMMAND_OF_DECISION } from './command-decisions.ts';
import { objectIdentity } from './object-log.ts';
import type { JobSetCommandSchema, JobSetSpecViewSchema, JobSetViewSchema } from './jobsets/jobset-schemas.ts';
import type { JobSpecViewSchema, JobViewSchema } from './schemas/job-schemas.ts';

// The object views of the query API, one per kind (`GET …/jobs/{name}`, `GET …/jobsets/{name}`),
// and what `jobfold replay` and `jobfold describe` print. Both have the same frame: the object's
// identity, whether its cluster deleted it, its spec as the fold reads it, its status, the
// commands decided from `commandsFrom` on, the explanation in brief and where the log stands.

export type JobView = z.output<typeof JobViewSchema>;
export type JobSpecView = z.output<typeof JobSpecViewSchema>;
export type JobSetView = z.output<typeof JobSetViewSchema>;
export type JobSetSpecView = z.output<typeof JobSetSpecViewSchema>;
export type JobSetCommandView = z.output<typeof JobSetCommandSchema>;

/** Where the object's log stands: its last position and when that entry was recorded. */
export interface LogPosition {
  readonly head: number;
  readonly lastRecordedAt: string | undefined;
}

/** The commands a view lists: those decided at log positions from `commandsFrom` on (1: all). */
interface Listed<Command> {
  readonly commands: readonly Command[];
  readonly commandsFrom: number;
}

const logView = ({ head, lastRecordedAt }: LogPosition): JobView['log'] => ({ head, ...(lastRecordedAt === undefined ? {} : { lastRecordedAt }) });

// ---- Jobs ---------------------------------------------------------------------------------

/** The Job with everything `jobfold replay` shows (the parts are read by stored-job-view.ts). */
export function jobView(summary: JobSummary, state: JobState, explanation: Explanation, listed: Listed<IssuedCommand>, log: LogPosition): JobView {
  const identity = state.identity;
  const status = jobStatus(state);
  return {
    job: {
      ...objectIdentity(summary),
      name: identity?.name ?? summary.name,
      ...(identity?.creationTimestamp ? { creationTimestamp: identity.creationTimestamp } : {}),
    },
    deleted: state.deleted,
    spec: jobSpecView(state),
    status: { ...status, conditions: [...status.conditions] },
    commands: [...listed.commands],
    commandsFrom: listed.commandsFrom,
    explanation: briefOf(explanation),
    log: logView(log),
    refusedUpdate: refusedUpdateView(state),
    stalled: summary.stalled ?? null,
  };
}

/** The latest update the API server would refuse, if any: the Job folds under its last valid spec. */
export function refusedUpdateView(state: JobState): JobView['refusedUpdate'] {
  const refused = state.refusedUpdate;
  if (!refused) return null;
  const errors = refused.errors.map(({ field, type, message }) => ({ field, type, message }));
  return { eventId: refused.eventId, observedAt: refused.observedAt, errors };
}

/** The spec with batch/v1 defaults applied (JobSettings), plus the policies as written. */
export function jobSpecView(state: JobState): JobSpecView | null {
  const { spec, settings } = state;
  if (!spec || !settings) return null;
  return {
    completionMode: settings.indexed ? 'Indexed' : 'NonIndexed',
    parallelism: settings.parallelism,
    completions: settings.completions ?? null,
    backoffLimit: settings.backoffLimit,
    backoffLimitPerIndex: settings.backoffLimitPerIndex ?? null,
    maxFailedIndexes: settings.maxFailedIndexes ?? null,
    activeDeadlineSeconds: settings.activeDeadlineSeconds ?? null,
    suspend: settings.suspend,
    managedBy: settings.managedBy ?? null,
    podReplacementPolicy: spec.podReplacementPolicy ?? null,
    successPolicy: spec.successPolicy ?? null,
    podFailurePolicy: spec.podFailurePolicy ?? null,
  };
}

// ---- JobSets ------------------------------------------------------------------------------

/**
 * The JobSet with its defaulted spec, status, child Jobs, the commands issued from
 * `commandsFrom` on, the explanation in brief and where the log stands.
 */
export function jobSetView(summary: JobSummary, state: JobSetState, explanation: JobSetExplanation, listed: Listed<JobSetCommandView>, log: LogPosition): JobSetView {
  const status = jobSetStatus(state);
  return {
    jobSet: objectIdentity(summary),
    deleted: state.deleted,
    spec: state.jobSet ? jobSetSpecView(state.jobSet.spec) : null,
    status: { ...status, conditions: [...status.conditions], replicatedJobsStatus: [...status.replicatedJobsStatus] },
    childJobs: listChildJobs(state).map(({ name, replicatedJob, jobIndex, restartAttempt, suspend, terminating }) => ({
      name,
      ...(replicatedJob === undefined ? {} : { replicatedJob }),
      ...(jobIndex === undefined ? {} : { jobIndex }),
      ...(restartAttempt === undefined ? {} : { restartAttempt }),
      suspend,
      terminating,
    })),
    commands: [...listed.commands],
    commandsFrom: listed.commandsFrom,
    explanation: { ...briefOf(explanation), waiting: explanation.waiting.map((wait) => wait.sentence) },
    log: logView(log),
  };
}


/** The commands the JobSet fold issued, in log order. */
export function commandViews(decisions: readonly LoggedJobSetDecision[]): JobSetCommandView[] {
  const result: JobSetCommandView[] = [];
  for (const { seq, event } of decisions) {
    if (event.type in JOBSET_COMMAND_OF_DECISION && 'commandId' in event) {
      const type = JOBSET_COMMAND_OF_DECISION[event.type as keyof typeof JOBSET_COMMAND_OF_DECISION];
      result.push({ seq, at: event.at, type, commandId: event.commandId, name: event.name });
    }
  }
  return result;
}

/** The JobSet spec after admission defaulting, with what each replicated Job's template runs. */
export function jobSetSpecView(spec: DefaultedJobSetSpec): JobSetSpecView {
  return {
    replicatedJobs: spec.replicatedJobs.map((r) => ({
      name: r.name,
      groupName: r.groupName,
      replicas: r.replicas,
      parallelism: r.template.spec.parallelism ?? 1,
      completions: r.template.spec.completions ?? null,
      completionMode: r.template.spec.completionMode ?? 'NonIndexed',
      backoffLimit: r.template.spec.backoffLimit ?? 6,
      podFailurePolicy: r.template.spec.podFailurePolicy ?? null,
      dependsOn: (r.dependsOn ?? []).map(({ name, status }) => ({ name, status })),
    })),
    successPolicy: { operator: spec.successPolicy.operator, targetReplicatedJobs: [...spec.successPolicy.targetReplicatedJobs] },
    startupPolicy: { ...spec.startupPolicy },
    failurePolicy: spec.failurePolicy
      ? {
          maxRestarts: spec.failurePolicy.maxRestarts,
          restartStrategy: spec.failurePolicy.restartStrategy,
          rules: spec.failurePolicy.rules.map((rule) => ({
            name: rule.name,
            action: rule.action,
            onJobFailureReasons: [...rule.onJobFailureReasons],
            onJobFailureMessagePatterns: [...rule.onJobFailureMessagePatterns],
            targetReplicatedJobs: [...rule.targetReplicatedJobs],
          })),
        }
      : null,
    suspend: spec.suspend,
    managedBy: spec.managedBy ?? null,
    coordinator: spec.coordinator ? { ...spec.coordinator } : null,
    ttlSecondsAfterFinished: spec.ttlSecondsAfterFinished ?? null,
  };
}
