import {
  JobObservedSchema,
  JobSetObservedSchema,
  type JobSetObservation,
} from '../../../../shared/jobset/index.ts';

/** `2026-01-01T00:00:<s>Z`-style times, `s` seconds after midnight. */
export const at = (seconds: number): string => {
  const minutes = Math.floor(seconds / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `2026-01-01T00:${pad(minutes)}:${pad(seconds % 60)}Z`;
};

export const JOBSET = 'js';

export interface ReplicatedJobInput {
  readonly name: string;
  readonly replicas?: number;
  readonly parallelism?: number;
  readonly completions?: number;
  readonly dependsOn?: readonly { name: string; status: string }[];
}

/** A JobSet observation; every spec field is passed through as JSON, so anything can be tried. */
export function jobSetObserved(
  spec: { replicatedJobs: readonly ReplicatedJobInput[] } & Record<string, unknown>,
  options: { seconds?: number; uid?: string } = {},
): JobSetObservation {
  const { replicatedJobs, ...rest } = spec;
  return JobSetObservedSchema.parse({
    type: 'JobSetObserved',
    at: at(options.seconds ?? 0),
    jobSet: {
      metadata: { namespace: 'default', name: JOBSET, uid: options.uid ?? 'js-uid' },
      spec: {
        replicatedJobs: replicatedJobs.map(({ name, replicas = 1, parallelism = 1, completions = 1, dependsOn }) => ({
          name,
          replicas,
          template: { spec: { parallelism, completions } },
          ...(dependsOn === undefined ? {} : { dependsOn }),
        })),
        ...rest,
      },
    },
  });
}

export interface JobInput {
  readonly seconds: number;
  readonly attempt?: number;
  readonly active?: number;
  readonly ready?: number;
  readonly succeeded?: number;
  readonly failed?: number;
  readonly suspend?: boolean;
  readonly conditions?: readonly Record<string, string>[];
}

export const jobName = (replicatedJob: string, index: number): string => `${JOBSET}-${replicatedJob}-${index}`;

/** A snapshot of child Job `js-<replicatedJob>-<index>`. */
export function jobObserved(replicatedJob: string, index: number, input: JobInput): JobSetObservation {
  return JobObservedSchema.parse({
    type: 'JobObserved',
    at: at(input.seconds),
    job: {
      metadata: {
        name: jobName(replicatedJob, index),
        labels: {
          'jobset.sigs.k8s.io/replicatedjob-name': replicatedJob,
          'jobset.sigs.k8s.io/job-index': String(index),
          'jobset.sigs.k8s.io/restart-attempt': String(input.attempt ?? 0),
        },
      },
      spec: { parallelism: 1, completions: 1, suspend: input.suspend ?? false },
      status: {
        active: input.active ?? 0,
        ready: input.ready ?? 0,
        succeeded: input.succeeded ?? 0,
        failed: input.failed ?? 0,
        conditions: input.conditions ?? [],
      },
    },
  });
}

export const jobReady = (rjob: string, index: number, input: JobInput): JobSetObservation =>
  jobObserved(rjob, index, { active: 1, ready: 1, ...input });

export const jobSucceeded = (rjob: string, index: number, input: JobInput): JobSetObservation => {
  const time = at(input.seconds);
  const conditions = ['SuccessCriteriaMet', 'Complete'].map((type) => ({ type, status: 'True', lastTransitionTime: time }));
  return jobObserved(rjob, index, { succeeded: 1, conditions, ...input });
};

export const jobFailed = (
  rjob: string,
  index: number,
  input: JobInput & { reason?: string; message?: string },
): JobSetObservation => {
  const { reason = 'BackoffLimitExceeded', message = 'Job has reached the specified backoff limit', ...rest } = input;
  const time = at(input.seconds);
  const conditions = ['FailureTarget', 'Failed'].map((type) => ({ type, status: 'True', reason, message, lastTransitionTime: time }));
  return jobObserved(rjob, index, { failed: 1, conditions, ...rest });
};

export const jobDeleted = (rjob: string, index: number, seconds: number): JobSetObservation => ({
  type: 'JobDeleted',
  at: at(seconds),
  eventId: undefined,
  name: jobName(rjob, index),
});

/** An observation with the resourceVersion the cluster gave it (KEP-5504: later is newer, per resource type). */
export const versioned = (version: number, observation: JobSetObservation): JobSetObservation =>
  observation.type === 'JobObserved'
    ? { ...observation, job: { ...observation.job, metadata: { ...observation.job.metadata, resourceVersion: String(version) } } }
    : observation.type === 'JobSetObserved'
      ? { ...observation, jobSet: { ...observation.jobSet, metadata: { ...observation.jobSet.metadata, resourceVersion: String(version) } } }
      : observation;

/**
 * A JobSet object of `replicated` replicated Jobs × `replicas` (names `rj-000`…), each a one-pod
 * Job, that jobfold manages: what a forwarder sends in `JobSet Observed`.
 */
export function wideJobSet(uid: string, replicated: number, replicas: number, managedBy: string) {
  const replicatedJobs = Array.from({ length: replicated }, (_, i) => ({
    name: `rj-${String(i).padStart(3, '0')}`,
    replicas,
    template: { spec: { parallelism: 1, completions: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } },
  }));
  return {
    apiVersion: 'jobset.x-k8s.io/v1alpha2',
    kind: 'JobSet',
    metadata: { name: 'wide', namespace: 'default', uid, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { replicatedJobs, managedBy },
  };
}
