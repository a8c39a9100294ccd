import type { JobSpec } from '../k8s/job.ts';

/** A batch/v1 Job as the owning cluster should create it. */
export interface JobManifest {
  readonly apiVersion: 'batch/v1';
  readonly kind: 'Job';
  readonly metadata: {
    readonly name: string;
    readonly namespace: string | undefined;
    readonly labels: Readonly<Record<string, string>>;
    readonly annotations: Readonly<Record<string, string>>;
    readonly ownerReferences: readonly {
      apiVersion: string;
      kind: 'JobSet';
      name: string;
      uid: string | undefined;
      controller: true;
      blockOwnerDeletion: true;
    }[];
  };
  readonly spec: JobSpec;
}

interface CommandBase {
  /** Deterministic: JobSet uid, restart attempt, Job name, action and log position. */
  readonly commandId: string;
  readonly namespace: string | undefined;
  readonly name: string;
}

export interface CreateJob extends CommandBase {
  readonly type: 'CreateJob';
  readonly replicatedJob: string;
  readonly jobIndex: number;
  readonly restartAttempt: number;
  readonly suspend: boolean;
  readonly job: JobManifest;
}

/** Foreground propagation: the Job object outlives the request until its pods are gone. */
export interface DeleteJob extends CommandBase {
  readonly type: 'DeleteJob';
  readonly propagationPolicy: 'Foreground';
}

export interface SuspendJob extends CommandBase {
  readonly type: 'SuspendJob';
}

export interface ResumeJob extends CommandBase {
  readonly type: 'ResumeJob';
}

/**
 * Delete the JobSet itself (`ttlSecondsAfterFinished` passed), foreground: its child Jobs go
 * first. `name` is the JobSet's name.
 */
export interface DeleteJobSet extends CommandBase {
  readonly type: 'DeleteJobSet';
  readonly propagationPolicy: 'Foreground';
}

/** What the JobSet fold asks the owning cluster to do with child Jobs, or with the JobSet. */
export type JobSetCommand = CreateJob | DeleteJob | SuspendJob | ResumeJob | DeleteJobSet;

/** Builds a command id that is the same whenever the same decision is taken again. */
export function commandIdFor(
  jobSetKey: string,
  restartAttempt: number | undefined,
  jobName: string,
  action: Exclude<JobSetCommand['type'], 'DeleteJobSet'>,
  position: number,
): string {
  return `${jobSetKey}/${restartAttempt ?? 'unlabelled'}/${jobName}/${action}/${position}`;
}

/** The id of the JobSet's own deletion, decided at `position`. */
export const deleteJobSetCommandId = (jobSetKey: string, position: number): string => `${jobSetKey}/DeleteJobSet/${position}`;
