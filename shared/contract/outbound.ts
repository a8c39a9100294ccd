import type { JobCommand, TerminatePod } from '../job/commands.ts';
import type { JobIdentity } from '../job/job-settings.ts';
import type { Decision, DecisionOf } from '../job/decisions.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { CONTROL_SOURCE } from './inbound.ts';

/**
 * The outbound event contract (docs/events.md): source `jobfold.control`. Commands for a
 * cluster carry `clusterId`, which the bus rules use to route them to that cluster's queue.
 */
export const OutboundDetailType = {
  PodTerminationRequested: 'Pod Termination Requested',
  PodCreationRequested: 'Pod Creation Requested',
  JobStatusUpdateRequested: 'Job Status Update Requested',
  PodFinalizerRemovalRequested: 'Pod Finalizer Removal Requested',
  JobConditionChanged: 'Job Condition Changed',
} as const;
export type OutboundDetailType = (typeof OutboundDetailType)[keyof typeof OutboundDetailType];

/** One event to put on the bus; `commandId` makes it idempotent downstream. */
export interface OutboundEvent {
  readonly commandId: string;
  readonly clusterId: string;
  readonly source: typeof CONTROL_SOURCE;
  readonly detailType: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

/** What isDispatched reads of a command: its type, and a termination's cause. */
export type DispatchedKind = Pick<TerminatePod, 'type' | 'cause'> | { readonly type: Exclude<JobCommand['type'], 'TerminatePod'> };

/**
 * Which decided commands leave jobfold. Terminating the lingering pods of a decided Job goes
 * to every cluster: that is the product. Creating pods, deleting excess ones and writing the
 * status are the Job controller's work, so they go out only for Jobs whose `spec.managedBy`
 * names jobfold; for other Jobs they are computed and logged, never sent.
 */
export function isDispatched(command: DispatchedKind, managedBy: string | undefined): boolean {
  if (managedBy === JOBFOLD_CONTROLLER_NAME) return true;
  return command.type === 'TerminatePod' && (command.cause === 'JobFinishing' || command.cause === 'JobFinished');
}

export function commandEvent(command: JobCommand): OutboundEvent {
  const base = { commandId: command.commandId, clusterId: command.clusterId, source: CONTROL_SOURCE } as const;
  const job = { clusterId: command.clusterId, namespace: command.namespace, jobName: command.jobName, jobUid: command.jobUid };
  switch (command.type) {
    case 'TerminatePod':
      return {
        ...base,
        detailType: OutboundDetailType.PodTerminationRequested,
        detail: {
          commandId: command.commandId,
          ...job,
          podName: command.podName,
          podUid: command.podUid,
          reason: command.reason,
          message: command.message,
          cause: command.cause,
        },
      };
    case 'CreatePod':
      return {
        ...base,
        detailType: OutboundDetailType.PodCreationRequested,
        detail: {
          commandId: command.commandId,
          ...job,
          index: command.index ?? null,
          templateHash: command.templateHash,
          indexFailureCount: command.indexFailureCount ?? null,
          indexIgnoredFailureCount: command.indexIgnoredFailureCount ?? null,
        },
      };
    case 'UpdateJobStatus':
      return {
        ...base,
        detailType: OutboundDetailType.JobStatusUpdateRequested,
        detail: { commandId: command.commandId, ...job, status: command.status },
      };
    case 'RemovePodFinalizer':
      return {
        ...base,
        detailType: OutboundDetailType.PodFinalizerRemovalRequested,
        detail: { commandId: command.commandId, ...job, podName: command.podName, podUid: command.podUid },
      };
  }
}

/** `Job Condition Changed`, for any subscriber: the condition with its evidence. */
export function conditionChangedEvent(
  identity: JobIdentity,
  decision: DecisionOf<'JobConditionChanged'>,
): OutboundEvent {
  return {
    commandId: decision.eventId,
    clusterId: identity.clusterId,
    source: CONTROL_SOURCE,
    detailType: OutboundDetailType.JobConditionChanged,
    detail: {
      commandId: decision.eventId,
      clusterId: identity.clusterId,
      job: { namespace: identity.namespace, name: identity.name, uid: identity.uid },
      condition: decision.condition,
      evidence: decision.evidence,
    },
  };
}

/** Everything one reconcile sends: dispatched commands and condition changes. */
export function outboundEvents(
  identity: JobIdentity | undefined,
  managedBy: string | undefined,
  decisions: readonly Decision[],
  commands: readonly JobCommand[],
): OutboundEvent[] {
  const events = commands.filter((c) => isDispatched(c, managedBy)).map(commandEvent);
  if (!identity) return events;
  for (const decision of decisions) {
    if (decision.type === 'JobConditionChanged') events.push(conditionChangedEvent(identity, decision));
  }
  return events;
}
