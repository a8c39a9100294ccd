import type { z } from 'zod';
import type { JobSummary } from '../../../shared/app/event-store.ts';
import type { JobSetExplanation, LoggedJobSetDecision } from '../../../shared/jobset/explain.ts';
import { jobSetStatus, listChildJobs, type DefaultedJobSetSpec, type JobSetState } from '../../../shared/jobset/index.ts';
import type { JobSetLogWindow } from './jobset-log-window.ts';
import type { JobSetCommandSchema, JobSetSpecViewSchema, JobSetViewSchema } from './jobset-schemas.ts';

export type JobSetView = z.output<typeof JobSetViewSchema>;
type JobSetSpecView = z.output<typeof JobSetSpecViewSchema>;
type JobSetCommandView = z.output<typeof JobSetCommandSchema>;

const COMMAND_OF = {
  CreateJobIssued: 'CreateJob',
  DeleteJobIssued: 'DeleteJob',
  SuspendJobIssued: 'SuspendJob',
  ResumeJobIssued: 'ResumeJob',
  JobSetDeletionRequested: 'DeleteJobSet',
} as const;

/** What the JobSet routes read: the fleet row, the state at the head and a window of decisions (jobset-log-window.ts). */
export interface JobSetLog extends JobSetLogWindow {
  readonly summary: JobSummary;
}

/**
 * The JobSet with its defaulted spec, status, child Jobs, the commands issued from
 * `commandsFrom` on, the explanation
 * in sentences (`explanation`: explainJobSet over the same log) and where the log stands.
 */
export function jobSetView(log: JobSetLog, explanation: JobSetExplanation): JobSetView {
  const { summary, state, decisions, head, lastRecordedAt } = log;
  const status = jobSetStatus(state);
  return {
    jobSet: objectIdentity(summary),
    deleted: state.deleted,
    spec: state.jobSet ? specView(state.jobSet.spec) : null,
    status: { ...status, conditions: [...status.conditions], replicatedJobsStatus: [...status.replicatedJobsStatus] },
    childJobs: listChildJobs(state).map(({ name, replicatedJob, jobIndex, restartAttempt, suspend, terminating }) => ({
      name,
      ...(replicatedJob === undefined ? {} : { replicatedJob }),
      ...(jobIndex === undefined ? {} : { jobIndex }),
      ...(restartAttempt === undefined ? {} : { restartAttempt }),
      suspend,
      terminating,
    })),
    commands: commandViews(decisions),
    commandsFrom: log.decisionsFrom,
    explanation: {
      outcome: explanation.outcome,
      summary: explanation.summary,
      conditions: explanation.conditions.map(({ type, status, reason, sentence }) => ({ type, status, reason, sentence })),
      rejection: [...explanation.rejection],
      waiting: explanation.waiting.map((wait) => wait.sentence),
    },
    log: { head, ...(lastRecordedAt === undefined ? {} : { lastRecordedAt }) },
  };
}

/** The cluster, namespace, name and uid of a fleet row. */
export function objectIdentity(summary: JobSummary): JobSetView['jobSet'] {
  return { clusterId: summary.clusterId, namespace: summary.namespace, name: summary.name, uid: summary.uid };
}

/** The commands the JobSet fold issued, in log order. */
export function commandViews(decisions: readonly LoggedJobSetDecision[]): JobSetCommandView[] {
  const result: JobSetCommandView[] = [];
  for (const { seq, event } of decisions) {
    if (event.type in COMMAND_OF && 'commandId' in event) {
      const type = COMMAND_OF[event.type as keyof typeof COMMAND_OF];
      result.push({ seq, at: event.at, type, commandId: event.commandId, name: event.name });
    }
  }
  return result;
}

function specView(spec: DefaultedJobSetSpec): JobSetSpecView {
  return {
    replicatedJobs: spec.replicatedJobs.map((r) => ({
      name: r.name,
      groupName: r.groupName,
      replicas: r.replicas,
      parallelism: r.template.spec.parallelism ?? 1,
      completions: r.template.spec.completions ?? null,
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
  };
}
