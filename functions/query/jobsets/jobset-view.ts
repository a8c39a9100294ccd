import type { z } from 'zod';
import type { JobSummary, LogEntry } from '../../../shared/app/event-store.ts';
import {
  jobSetStatus,
  listChildJobs,
  type DefaultedJobSetSpec,
  type JobSetEvent,
  type JobSetState,
} from '../../../shared/jobset/index.ts';
import { explainJobSet } from './explain-jobset.ts';
import type { JobSetCommandSchema, JobSetSpecViewSchema, JobSetViewSchema } from './jobset-schemas.ts';

export type JobSetView = z.output<typeof JobSetViewSchema>;
type JobSetSpecView = z.output<typeof JobSetSpecViewSchema>;
type JobSetCommandView = z.output<typeof JobSetCommandSchema>;

const COMMAND_OF = {
  CreateJobIssued: 'CreateJob',
  DeleteJobIssued: 'DeleteJob',
  SuspendJobIssued: 'SuspendJob',
  ResumeJobIssued: 'ResumeJob',
} as const;

/** The JobSet with its defaulted spec, status, child Jobs, the commands issued and where the log stands. */
export function jobSetView(summary: JobSummary, state: JobSetState, events: readonly JobSetEvent[], entries: readonly LogEntry[]): JobSetView {
  const identity = { clusterId: summary.clusterId, namespace: summary.namespace, name: summary.name, uid: summary.uid };
  const explanation = explainJobSet(identity, state, events);
  const last = entries.at(-1);
  const status = jobSetStatus(state);
  return {
    jobSet: identity,
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
    commands: commandViews(events),
    explanation: { outcome: explanation.outcome, summary: explanation.summary },
    log: { head: last?.seq ?? 0, ...(last ? { lastRecordedAt: last.recordedAt } : {}) },
  };
}

/** The commands the JobSet fold issued, in log order (event i has seq i + 1). */
function commandViews(events: readonly JobSetEvent[]): JobSetCommandView[] {
  const result: JobSetCommandView[] = [];
  events.forEach((event, i) => {
    if (event.type in COMMAND_OF && 'commandId' in event) {
      const type = COMMAND_OF[event.type as keyof typeof COMMAND_OF];
      result.push({ seq: i + 1, at: event.at, type, commandId: event.commandId, name: event.name });
    }
  });
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
