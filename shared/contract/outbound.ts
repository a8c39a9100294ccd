import type { JobCommand, TerminatePod } from '../job/commands.ts';
import type { JobIdentity } from '../job/job-settings.ts';
import type { Decision, DecisionOf } from '../job/decisions.ts';
import type { JobSetCommand } from '../jobset/commands.ts';
import { JOBFOLD_JOBSET_CONTROLLER_NAME } from '../jobset/constants.ts';
import type { JobSetDecisionEvent } from '../jobset/decision-events.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../k8s/job-controller.ts';
import { CONTROL_SOURCE } from './inbound.ts';
import type { JobCommandFields, JobSetCommandFields } from './command-details.ts';

/**
 * The outbound event contract (docs/events.md), for Jobs and JobSets: source `jobfold.control`.
 * Commands for a cluster carry `clusterId`, which the bus rules use to route them to that
 * cluster's queue. The detail-type of each command, keyed by the command's type, and of each
 * kind's condition change.
 */
export const OutboundDetailType = {
  TerminatePod: 'Pod Termination Requested',
  CreatePod: 'Pod Creation Requested',
  UpdateJobStatus: 'Job Status Update Requested',
  RemovePodFinalizer: 'Pod Finalizer Removal Requested',
  CreateJob: 'Job Creation Requested',
  DeleteJob: 'Job Deletion Requested',
  SuspendJob: 'Job Suspension Requested',
  ResumeJob: 'Job Resume Requested',
  DeleteJobSet: 'JobSet Deletion Requested',
  JobConditionChanged: 'Job Condition Changed',
  JobSetConditionChanged: 'JobSet Condition Changed',
} as const satisfies Record<AnyCommand['type'] | 'JobConditionChanged' | 'JobSetConditionChanged', string>;
export type OutboundDetailType = (typeof OutboundDetailType)[keyof typeof OutboundDetailType];

/** One event to put on the bus; `commandId` makes it idempotent downstream. */
export interface OutboundEvent {
  readonly commandId: string;
  readonly clusterId: string;
  readonly source: typeof CONTROL_SOURCE;
  readonly detailType: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

type AnyCommand = JobCommand | JobSetCommand;

/** The JobSet a JobSet command acts on (its commands name only the child Job). */
export interface JobSetIdentity {
  readonly clusterId: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** What isDispatched reads of a command: its type, and a termination's cause. */
export type DispatchedKind =
  | Pick<TerminatePod, 'type' | 'cause'>
  | { readonly type: Exclude<JobCommand['type'], 'TerminatePod'> }
  | JobSetCommand;

/**
 * Which decided commands leave jobfold. Cleaning up after a decided outcome goes to every
 * cluster: that is the product — terminating a finished Job's lingering pods, deleting the
 * child Jobs of a finished JobSet (`finished`: the JobSet's outcome is decided). The rest —
 * creating pods or child Jobs, deleting excess pods, writing a Job's status, suspending and
 * resuming child Jobs, a restart's deletions, deleting a JobSet whose ttlSecondsAfterFinished
 * passed — is the kind's controller's work, so it goes out only for objects whose
 * `spec.managedBy` names jobfold's controller for that kind; for others it is computed and
 * logged, never sent.
 */
export function isDispatched(command: DispatchedKind, managedBy: string | undefined, finished = false): boolean {
  switch (command.type) {
    case 'TerminatePod':
      return managedBy === JOBFOLD_CONTROLLER_NAME || command.cause === 'JobFinishing' || command.cause === 'JobFinished';
    case 'CreatePod':
    case 'UpdateJobStatus':
    case 'RemovePodFinalizer':
      return managedBy === JOBFOLD_CONTROLLER_NAME;
    case 'DeleteJob':
      return managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME || finished;
    case 'CreateJob':
    case 'SuspendJob':
    case 'ResumeJob':
    case 'DeleteJobSet':
      return managedBy === JOBFOLD_JOBSET_CONTROLLER_NAME;
  }
}

/** The event of a Job command: the command names its Job itself. */
export function commandEvent(command: JobCommand): OutboundEvent {
  const job = { clusterId: command.clusterId, namespace: command.namespace, jobName: command.jobName, jobUid: command.jobUid };
  return controlEvent(command.commandId, OutboundDetailType[command.type], { ...job, ...commandFields(command) });
}

/**
 * The event of a JobSet command: it names the JobSet (from its log) and the child Job it acts
 * on, but for DeleteJobSet, which acts on the JobSet itself.
 */
export function jobSetCommandEvent(jobSet: JobSetIdentity, command: JobSetCommand): OutboundEvent {
  const names = {
    clusterId: jobSet.clusterId,
    namespace: command.namespace ?? jobSet.namespace,
    jobSetName: jobSet.name,
    jobSetUid: jobSet.uid,
    ...(command.type === 'DeleteJobSet' ? {} : { jobName: command.name }),
  };
  return controlEvent(command.commandId, OutboundDetailType[command.type], { ...names, ...commandFields(command) });
}

/**
 * What each command's detail carries besides the names of what it acts on (the field order is the
 * wire's), checked against the schemas docs/events.md is generated from (command-details.ts).
 */
function commandFields(command: AnyCommand): Record<string, unknown> {
  switch (command.type) {
    case 'TerminatePod':
      return { podName: command.podName, podUid: command.podUid, reason: command.reason, message: command.message, cause: command.cause } satisfies JobCommandFields['TerminatePod'];
    case 'CreatePod':
      return {
        index: command.index ?? null,
        templateHash: command.templateHash,
        indexFailureCount: command.indexFailureCount ?? null,
        indexIgnoredFailureCount: command.indexIgnoredFailureCount ?? null,
      } satisfies JobCommandFields['CreatePod'];
    case 'UpdateJobStatus':
      return { status: command.status } satisfies JobCommandFields['UpdateJobStatus'];
    case 'RemovePodFinalizer':
      return { podName: command.podName, podUid: command.podUid, cause: command.cause } satisfies JobCommandFields['RemovePodFinalizer'];
    case 'CreateJob':
      return {
        replicatedJob: command.replicatedJob,
        jobIndex: command.jobIndex,
        restartAttempt: command.restartAttempt,
        suspend: command.suspend,
        job: command.job,
      } satisfies JobSetCommandFields['CreateJob'];
    case 'DeleteJob':
    case 'DeleteJobSet':
      return { propagationPolicy: command.propagationPolicy } satisfies JobSetCommandFields['DeleteJob' | 'DeleteJobSet'];
    case 'SuspendJob':
    case 'ResumeJob':
      return {} satisfies JobSetCommandFields['SuspendJob' | 'ResumeJob'];
  }
}

/** The one envelope of every outbound event: its detail starts with the commandId and cluster too. */
function controlEvent(commandId: string, detailType: OutboundDetailType, detail: { readonly clusterId: string } & Record<string, unknown>): OutboundEvent {
  return { commandId, clusterId: detail.clusterId, source: CONTROL_SOURCE, detailType, detail: { commandId, ...detail } };
}

/*
 * The condition changes, for any subscriber: the condition with its evidence. The two kinds'
 * details differ because their decisions do: a Job's JobConditionChanged decision carries the
 * condition and an `evidence` object; a JobSet's decisions (restarted, failed, completed, …)
 * each carry a condition among their own evidence fields, so the event names the decision and
 * gives the rest as evidence.
 */

/** `Job Condition Changed`. */
export function conditionChangedEvent(identity: JobIdentity, decision: DecisionOf<'JobConditionChanged'>): OutboundEvent {
  return controlEvent(decision.eventId, OutboundDetailType.JobConditionChanged, {
    clusterId: identity.clusterId,
    job: { namespace: identity.namespace, name: identity.name, uid: identity.uid },
    condition: decision.condition,
    evidence: decision.evidence,
  });
}

/** `JobSet Condition Changed` for every decision that set a condition. */
export function jobSetConditionEvents(
  jobSet: JobSetIdentity,
  decisions: ReadonlyArray<{ eventId: string; decision: JobSetDecisionEvent }>,
): OutboundEvent[] {
  return decisions.flatMap(({ eventId, decision }) => {
    if (!('condition' in decision)) return [];
    const { type: _type, at, condition, ...evidence } = decision;
    return [
      controlEvent(eventId, OutboundDetailType.JobSetConditionChanged, {
        clusterId: jobSet.clusterId,
        jobSet: { namespace: jobSet.namespace, name: jobSet.name, uid: jobSet.uid },
        decision: decision.type,
        at,
        condition,
        evidence,
      }),
    ];
  });
}

/** Everything one Job reconcile sends: dispatched commands and condition changes. */
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
