import type { JobSetCommand } from '../jobset/commands.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../jobset/constants.ts';
import type { JobSetDecisionEvent } from '../jobset/decision-events.ts';
import { CONTROL_SOURCE } from './inbound.ts';
import type { OutboundEvent } from './outbound.ts';

export { JOBFOLD_JOBSET_CONTROLLER_NAME };

export const JobSetOutboundDetailType = {
  CreateJob: 'Job Creation Requested',
  DeleteJob: 'Job Deletion Requested',
  SuspendJob: 'Job Suspension Requested',
  ResumeJob: 'Job Resume Requested',
  DeleteJobSet: 'JobSet Deletion Requested',
  JobSetConditionChanged: 'JobSet Condition Changed',
} as const;

export interface JobSetIdentity {
  readonly clusterId: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/**
 * Which JobSet commands leave jobfold. As with Jobs: deleting the child Jobs of a JobSet whose
 * outcome is decided goes to every cluster; creating, suspending and resuming child Jobs, the
 * deletions of a restart, and deleting the JobSet once its ttlSecondsAfterFinished has passed,
 * are the JobSet controller's work and go out only for JobSets whose `spec.managedBy` names
 * jobfold. Everything is decided and logged either way.
 */
export function isJobSetCommandDispatched(command: JobSetCommand, managedBy: string | undefined, finished: boolean): boolean {
  if (managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME) return true;
  return command.type === 'DeleteJob' && finished;
}

export function jobSetCommandEvent(identity: JobSetIdentity, command: JobSetCommand): OutboundEvent {
  const base = {
    commandId: command.commandId,
    clusterId: identity.clusterId,
    namespace: command.namespace ?? identity.namespace,
    jobSetName: identity.name,
    jobSetUid: identity.uid,
    jobName: command.name,
  };
  const event = (detailType: string, detail: Record<string, unknown>): OutboundEvent => ({
    commandId: command.commandId,
    clusterId: identity.clusterId,
    source: CONTROL_SOURCE,
    detailType,
    detail: { ...base, ...detail },
  });
  switch (command.type) {
    case 'CreateJob':
      return event(JobSetOutboundDetailType.CreateJob, {
        replicatedJob: command.replicatedJob,
        jobIndex: command.jobIndex,
        restartAttempt: command.restartAttempt,
        suspend: command.suspend,
        job: command.job,
      });
    case 'DeleteJob':
      return event(JobSetOutboundDetailType.DeleteJob, { propagationPolicy: command.propagationPolicy });
    case 'SuspendJob':
      return event(JobSetOutboundDetailType.SuspendJob, {});
    case 'ResumeJob':
      return event(JobSetOutboundDetailType.ResumeJob, {});
    case 'DeleteJobSet': {
      // The JobSet itself: no child Job is named.
      const { jobName: _jobName, ...jobSet } = base;
      return { ...event(JobSetOutboundDetailType.DeleteJobSet, {}), detail: { ...jobSet, propagationPolicy: command.propagationPolicy } };
    }
  }
}

/** `JobSet Condition Changed` for every decision that set a condition, with its evidence. */
export function jobSetConditionEvents(
  identity: JobSetIdentity,
  decisions: ReadonlyArray<{ eventId: string; decision: JobSetDecisionEvent }>,
): OutboundEvent[] {
  return decisions.flatMap(({ eventId, decision }) => {
    if (!('condition' in decision)) return [];
    const { type: _type, at, condition, ...evidence } = decision;
    return [
      {
        commandId: eventId,
        clusterId: identity.clusterId,
        source: CONTROL_SOURCE,
        detailType: JobSetOutboundDetailType.JobSetConditionChanged,
        detail: {
          commandId: eventId,
          clusterId: identity.clusterId,
          jobSet: { namespace: identity.namespace, name: identity.name, uid: identity.uid },
          decision: decision.type,
          at,
          condition,
          evidence,
        },
      },
    ];
  });
}
