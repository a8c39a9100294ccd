import { randomUUID } from 'node:crypto';
import { CONTROLLER_UID_LABEL, JOB_NAME_LABEL } from '../../shared/k8s/job-controller.ts';
import type { KubeObject } from './fake-kube-store.ts';

export interface JobOptions {
  readonly name?: string;
  readonly namespace?: string;
  readonly managedBy?: string;
  readonly completionMode?: 'Indexed' | 'NonIndexed';
  readonly completions?: number;
  readonly parallelism?: number;
  readonly backoffLimit?: number;
  readonly subdomain?: string;
  readonly suspend?: boolean;
}

/** A batch/v1 Job as the API server stores it (selector and template labels defaulted). */
export function aJob(options: JobOptions = {}): KubeObject {
  const uid = randomUUID();
  const name = options.name ?? 'job';
  const labels = { [CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: name, 'controller-uid': uid, 'job-name': name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      uid,
      labels: { [CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: name },
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"a":"very long copy of the spec"}' },
      managedFields: [{ manager: 'kubectl', operation: 'Update' }],
    },
    spec: {
      parallelism: options.parallelism ?? 1,
      completions: options.completions ?? 1,
      backoffLimit: options.backoffLimit ?? 6,
      completionMode: options.completionMode ?? 'NonIndexed',
      ...(options.managedBy ? { managedBy: options.managedBy } : {}),
      ...(options.suspend === undefined ? {} : { suspend: options.suspend }),
      selector: { matchLabels: { [CONTROLLER_UID_LABEL]: uid } },
      template: {
        metadata: { labels, annotations: { team: 'batch' } },
        spec: {
          restartPolicy: 'Never',
          ...(options.subdomain ? { subdomain: options.subdomain } : {}),
          initContainers: [{ name: 'setup', image: 'busybox', command: ['true'] }],
          containers: [
            { name: 'main', image: 'busybox', command: ['sh', '-c', 'echo $JOB_COMPLETION_INDEX'], env: [{ name: 'MODE', value: 'test' }] },
          ],
        },
      },
    },
    status: { active: 0 },
  };
}

export interface PodOptions {
  readonly name: string;
  readonly phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  readonly index?: number;
  readonly exitCode?: number;
  /** Carries the Job controller's tracking finalizer (not yet counted). */
  readonly tracked?: boolean;
}

/** A pod of `job`, labelled and owned as the Job controller makes them. */
export function aPod(job: KubeObject, options: PodOptions): KubeObject {
  const jobUid = job.metadata.uid ?? '';
  const phase = options.phase ?? 'Running';
  const terminated = phase === 'Failed' || phase === 'Succeeded';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: options.name,
      namespace: job.metadata.namespace ?? 'default',
      uid: randomUUID(),
      labels: { [CONTROLLER_UID_LABEL]: jobUid, [JOB_NAME_LABEL]: job.metadata.name },
      ...(options.index === undefined ? {} : { annotations: { 'batch.kubernetes.io/job-completion-index': String(options.index) } }),
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid: jobUid, controller: true, blockOwnerDeletion: true }],
      ...(options.tracked ? { finalizers: ['batch.kubernetes.io/job-tracking'] } : {}),
    },
    spec: { nodeName: 'node-1', restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
    status: {
      phase,
      conditions: [{ type: 'Ready', status: phase === 'Running' ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:05Z' }],
      containerStatuses: [
        {
          name: 'main',
          restartCount: 0,
          ready: phase === 'Running',
          state: terminated
            ? { terminated: { exitCode: options.exitCode ?? (phase === 'Failed' ? 1 : 0), reason: phase === 'Failed' ? 'Error' : 'Completed', startedAt: '2026-01-01T00:00:01Z', finishedAt: '2026-01-01T00:00:09Z' } }
            : { running: { startedAt: '2026-01-01T00:00:01Z' } },
        },
      ],
    },
  };
}

/** A pod without the Job label, which the forwarder must not watch. */
export function aStandalonePod(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'web' }] } };
}
