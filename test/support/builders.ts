import type * as z from 'zod';
import type { JobEvent } from '../../shared/job/evolve.ts';
import type { JobObserved, PodDeleted, PodObserved, Tick } from '../../shared/job/events.ts';
import {
  JOB_COMPLETION_INDEX_ANNOTATION,
  JOB_INDEX_FAILURE_COUNT_ANNOTATION,
  JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
  JOB_TRACKING_FINALIZER,
} from '../../shared/k8s/job-controller.ts';
import { JobSchema, type Job, type JobSpecSchema } from '../../shared/k8s/job.ts';
import { PodSchema, type Pod, type PodPhase } from '../../shared/k8s/pod.ts';

// Tiny builders with defaults for the Job fold's tests. Every time is an RFC 3339 string; `at(s)`
// is `s` seconds after T0, the Job's creation time.

/** The Job's (and every pod's) creation time. */
export const T0 = '2026-01-01T00:00:00.000Z';

/** `seconds` after T0, as RFC 3339 (with milliseconds, as `decide` writes times). */
export const at = (seconds: number): string => new Date(Date.parse(T0) + seconds * 1000).toISOString();

export const CLUSTER = 'test-cluster';
export const JOB_UID = 'job-uid';

export type JobSpecInput = z.input<typeof JobSpecSchema>;

export interface JobOptions {
  /** `template.spec.restartPolicy`; `Never` unless given. */
  readonly restartPolicy?: 'Never' | 'OnFailure';
  readonly name?: string;
  readonly uid?: string;
  /** A status the cluster reports with the first observation (a Job adopted mid-flight). */
  readonly status?: Job['status'];
}

/**
 * A valid Job (container `main`, restartPolicy Never, uid `job-uid`, created at T0) with the
 * given spec fields laid over the defaults. batch/v1 defaults (completions 1, parallelism 1,
 * backoffLimit 6, NonIndexed) come from the fold, as they would from the API server.
 */
export function aJob(spec: Partial<JobSpecInput> = {}, options: JobOptions = {}): Job {
  return JobSchema.parse({
    metadata: {
      name: options.name ?? 'myjob',
      namespace: 'default',
      uid: options.uid ?? JOB_UID,
      creationTimestamp: T0,
    },
    spec: {
      template: {
        spec: { restartPolicy: options.restartPolicy ?? 'Never', containers: [{ name: 'main', image: 'busybox' }] },
      },
      ...spec,
    },
    status: options.status,
  });
}

/** An Indexed Job with `completions` (and parallelism = completions unless given). */
export function anIndexedJob(completions: number, spec: Partial<JobSpecInput> = {}, options: JobOptions = {}): Job {
  return aJob({ completionMode: 'Indexed', completions, parallelism: completions, ...spec }, options);
}

/** The same Job with spec fields changed (suspend, parallelism, ...). */
export function withSpec(job: Job, spec: Partial<JobSpecInput>): Job {
  return JobSchema.parse({ ...job, spec: { ...job.spec, ...spec } });
}

export interface ContainerOptions {
  readonly name: string;
  /** Terminated with this exit code; running when unset. */
  readonly exitCode?: number;
  readonly finishedAt?: string;
  readonly restartCount?: number;
}

export interface PodOptions {
  readonly name?: string;
  /** Defaults to the name. */
  readonly uid?: string;
  /** The completion index annotation. */
  readonly index?: number;
  readonly phase?: PodPhase;
  /** The exit code of container `main` (terminated); a terminal pod defaults to 0 or 1. */
  readonly exitCode?: number;
  /** When container `main` finished; unset, it finished at Go's zero time (long ago: no backoff). */
  readonly finishedAt?: string;
  readonly restartCount?: number;
  /** Extra containers after `main`, and init containers. */
  readonly containers?: readonly ContainerOptions[];
  readonly initContainers?: readonly ContainerOptions[];
  /** Pod conditions, e.g. `[{ type: 'DisruptionTarget' }]` (status defaults to True). */
  readonly conditions?: readonly { type: string; status?: string; lastTransitionTime?: string }[];
  /** Adds `Ready=True` (since the given time, or T0). */
  readonly ready?: boolean | string;
  /** The tracking finalizer; present unless false. */
  readonly finalizer?: boolean;
  readonly deletionTimestamp?: string;
  readonly failureCount?: number;
  readonly ignoredFailureCount?: number;
  /** Scheduled to a node unless null. */
  readonly nodeName?: string | null;
  readonly creationTimestamp?: string;
  /** metadata.resourceVersion: the cluster's order of the pod's observations (KEP-5504). */
  readonly resourceVersion?: string;
}

/**
 * A pod of the Job as the cluster reports it: Running and scheduled unless told otherwise, with
 * the tracking finalizer, one container `main`, and the completion index annotation if `index`
 * is given. Name `pod-<index>` (or `pod`) and uid = name unless given.
 */
export function aPod(options: PodOptions = {}): Pod {
  const phase = options.phase ?? 'Running';
  const name = options.name ?? (options.index === undefined ? 'pod' : `pod-${options.index}`);
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const mainExit = options.exitCode ?? (terminal ? (phase === 'Succeeded' ? 0 : 1) : undefined);
  const main: ContainerOptions = {
    name: 'main',
    exitCode: mainExit,
    finishedAt: options.finishedAt,
    restartCount: options.restartCount,
  };
  const annotations: Record<string, string> = {};
  if (options.index !== undefined) annotations[JOB_COMPLETION_INDEX_ANNOTATION] = String(options.index);
  if (options.failureCount !== undefined) annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = String(options.failureCount);
  if (options.ignoredFailureCount !== undefined) {
    annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(options.ignoredFailureCount);
  }
  const conditions = (options.conditions ?? []).map((c) => ({ status: 'True', ...c }));
  if (options.ready) {
    const since = typeof options.ready === 'string' ? options.ready : T0;
    conditions.push({ type: 'Ready', status: 'True', lastTransitionTime: since });
  }
  return PodSchema.parse({
    metadata: {
      name,
      namespace: 'default',
      uid: options.uid ?? name,
      ...(options.resourceVersion === undefined ? {} : { resourceVersion: options.resourceVersion }),
      creationTimestamp: options.creationTimestamp ?? T0,
      annotations,
      deletionTimestamp: options.deletionTimestamp,
      finalizers: options.finalizer === false ? [] : [JOB_TRACKING_FINALIZER],
    },
    spec: { nodeName: options.nodeName === null ? undefined : (options.nodeName ?? 'node-1'), restartPolicy: 'Never' },
    status: {
      phase,
      conditions,
      containerStatuses: [main, ...(options.containers ?? [])].map(containerStatus),
      initContainerStatuses: (options.initContainers ?? []).map(containerStatus),
    },
  });
}

function containerStatus(c: ContainerOptions) {
  const state =
    c.exitCode === undefined
      ? { running: {} }
      : { terminated: { exitCode: c.exitCode, finishedAt: c.finishedAt } };
  return { name: c.name, restartCount: c.restartCount ?? 0, state };
}

/** The cluster reported the pod in this state at `observedAt`. */
export function podObserved(pod: Pod, observedAt: string): PodObserved {
  const eventId = `${pod.metadata.uid}/${pod.status?.phase ?? 'Pending'}/${observedAt}`;
  return { type: 'PodObserved', eventId, clusterId: CLUSTER, observedAt, pod };
}

/** The pod left the cluster. */
export function podDeleted(uid: string, observedAt: string): PodDeleted {
  return { type: 'PodDeleted', eventId: `${uid}/deleted`, clusterId: CLUSTER, observedAt, uid };
}

/** The clock ticked: lets deadlines and backoffs expire, and gives `given` a reconcile point. */
export function tick(observedAt: string): Tick {
  return { type: 'Tick', eventId: `tick/${observedAt}`, clusterId: CLUSTER, observedAt };
}

/** The cluster reported the Job (a spec change: suspend, resume, parallelism). */
export function jobObserved(job: Job, observedAt: string): JobObserved {
  return { type: 'JobObserved', eventId: `job/${observedAt}`, clusterId: CLUSTER, observedAt, job };
}

/** When an event of the log happened: `observedAt` for observations, `at` for decisions. */
export function eventTime(event: JobEvent): string {
  return 'observedAt' in event ? event.observedAt : event.at;
}
