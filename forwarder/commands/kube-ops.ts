import {
  ApiException,
  BatchV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1Job,
  type V1Pod,
} from '@kubernetes/client-node';
import { CONTROLLER_UID_LABEL } from '../../shared/job/index.ts';

/** The most pods one page of a Job's pod list holds (as the watch lists, and kubectl's --chunk-size default). */
export const JOB_POD_PAGE = 500;

/** The API server calls commands need, with the answers that matter turned into values. */
export interface KubeOps {
  readJob(namespace: string, name: string): Promise<V1Job | undefined>;
  /** DELETE with `preconditions.uid`: a pod with the same name and another uid is untouched. */
  deletePod(namespace: string, name: string, uid: string): Promise<'deleted' | 'not-found' | 'uid-mismatch'>;
  /**
   * Lists the Job's pods (label `batch.kubernetes.io/controller-uid`) in pages of at most
   * `JOB_POD_PAGE` (`limit`/`continue`), handing each page to `page` as it arrives: every page is
   * served from the first one's resourceVersion, and that first page is a consistent read (no
   * resourceVersion given). Resolves with the number of pages once the last arrived; a page that
   * fails or is cut (410 Expired for a continue token the server no longer holds) rejects, and
   * what was handed over so far is not the Job's pods.
   */
  listJobPods(namespace: string, jobUid: string, page: (pods: readonly V1Pod[]) => void): Promise<number>;
  /**
   * The API server's resourceVersion now, by a consistent read of the Job's pods that returns at
   * most one (`limit=1`, no resourceVersion given): the version the pod watch must have reached
   * before its pods are read (watched-pods.ts).
   */
  podsResourceVersion(namespace: string, jobUid: string): Promise<string | undefined>;
  readPod(namespace: string, name: string): Promise<V1Pod | undefined>;
  /** A JSON patch (RFC 6902) of a pod; 422 when one of its `test` operations fails. */
  patchPod(namespace: string, name: string, patch: readonly JsonPatchOperation[]): Promise<void>;
  createPod(namespace: string, pod: V1Pod): Promise<V1Pod>;
  /** A JSON merge patch of the `status` subresource. */
  patchJobStatus(namespace: string, name: string, status: Readonly<Record<string, unknown>>): Promise<void>;
  /** POST of a Job; 409 AlreadyExists comes back as a value (the caller decides whose it is). */
  createJob(namespace: string, job: V1Job): Promise<'created' | 'already-exists'>;
  /** DELETE with `propagationPolicy: Foreground` and `preconditions.uid`. */
  deleteJob(namespace: string, name: string, uid: string): Promise<'deleted' | 'not-found' | 'uid-mismatch'>;
  /** A JSON merge patch of `spec.suspend`. */
  patchJobSuspend(namespace: string, name: string, suspend: boolean): Promise<void>;
  /** DELETE of a `jobset.x-k8s.io/v1alpha2` JobSet with `propagationPolicy: Foreground` and `preconditions.uid`. */
  deleteJobSet(namespace: string, name: string, uid: string): Promise<'deleted' | 'not-found' | 'uid-mismatch'>;
}

export type JsonPatchOperation =
  | { readonly op: 'test'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string };

/** An API server answer other than the expected ones, with its HTTP status. */
export class KubeApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KubeApiError';
    this.status = status;
  }
}

export function createKubeOps(kubeConfig: KubeConfig): KubeOps {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const batch = kubeConfig.makeApiClient(BatchV1Api);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  return {
    async readJob(namespace, name) {
      try {
        return await batch.readNamespacedJob({ namespace, name });
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw wrap(error, `get job ${namespace}/${name}`);
      }
    },
    async deletePod(namespace, name, uid) {
      try {
        await core.deleteNamespacedPod({ namespace, name, body: { preconditions: { uid } } });
        return 'deleted';
      } catch (error) {
        return deleteFailed(error, `delete pod ${namespace}/${name}`);
      }
    },
    async listJobPods(namespace, jobUid, page) {
      let token: string | undefined;
      let pages = 0;
      do {
        try {
          const list = await core.listNamespacedPod({ namespace, labelSelector: `${CONTROLLER_UID_LABEL}=${jobUid}`, limit: JOB_POD_PAGE, ...(token ? { _continue: token } : {}) });
          pages++;
          page(list.items);
          token = list.metadata?._continue || undefined;
        } catch (error) {
          throw wrap(error, `list pods of job ${jobUid}${pages > 0 ? ` (page ${pages + 1})` : ''}`);
        }
      } while (token);
      return pages;
    },
    async podsResourceVersion(namespace, jobUid) {
      try {
        return (await core.listNamespacedPod({ namespace, labelSelector: `${CONTROLLER_UID_LABEL}=${jobUid}`, limit: 1 })).metadata?.resourceVersion;
      } catch (error) {
        throw wrap(error, `read the resourceVersion of job ${jobUid}'s pods`);
      }
    },
    async readPod(namespace, name) {
      try {
        return await core.readNamespacedPod({ namespace, name });
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw wrap(error, `get pod ${namespace}/${name}`);
      }
    },
    async patchPod(namespace, name, patch) {
      try {
        await core.patchNamespacedPod({ namespace, name, body: patch }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch));
      } catch (error) {
        throw wrap(error, `patch pod ${namespace}/${name}`);
      }
    },
    async createPod(namespace, pod) {
      try {
        return await core.createNamespacedPod({ namespace, body: pod });
      } catch (error) {
        throw wrap(error, `create pod in ${namespace}`);
      }
    },
    async patchJobStatus(namespace, name, status) {
      try {
        await batch.patchNamespacedJobStatus({ namespace, name, body: { status } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      } catch (error) {
        throw wrap(error, `patch job ${namespace}/${name} status`);
      }
    },
    async createJob(namespace, job) {
      try {
        await batch.createNamespacedJob({ namespace, body: job });
        return 'created';
      } catch (error) {
        if (statusOf(error) === 409) return 'already-exists';
        throw wrap(error, `create job ${namespace}/${job.metadata?.name ?? ''}`);
      }
    },
    async deleteJob(namespace, name, uid) {
      try {
        await batch.deleteNamespacedJob({ namespace, name, body: { propagationPolicy: 'Foreground', preconditions: { uid } } });
        return 'deleted';
      } catch (error) {
        return deleteFailed(error, `delete job ${namespace}/${name}`);
      }
    },
    async patchJobSuspend(namespace, name, suspend) {
      try {
        await batch.patchNamespacedJob({ namespace, name, body: { spec: { suspend } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      } catch (error) {
        throw wrap(error, `patch job ${namespace}/${name} spec.suspend`);
      }
    },
    async deleteJobSet(namespace, name, uid) {
      try {
        const body = { propagationPolicy: 'Foreground', preconditions: { uid } };
        await custom.deleteNamespacedCustomObject({ group: 'jobset.x-k8s.io', version: 'v1alpha2', namespace, plural: 'jobsets', name, body });
        return 'deleted';
      } catch (error) {
        return deleteFailed(error, `delete jobset ${namespace}/${name}`);
      }
    },
  };
}

/** The HTTP status of a failed call; undefined for network errors. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof KubeApiError) return error.status;
  if (error instanceof ApiException) return error.code;
  return undefined;
}

/**
 * A delete with a uid precondition that failed: 404 means the object is gone, 409 Conflict
 * ("Precondition failed: UID in precondition: …, UID in object meta: …") that another object
 * holds the name; anything else is thrown.
 */
function deleteFailed(error: unknown, what: string): 'not-found' | 'uid-mismatch' {
  const status = statusOf(error);
  if (status === 404) return 'not-found';
  if (status === 409) return 'uid-mismatch';
  throw wrap(error, what);
}

function wrap(error: unknown, what: string): Error {
  const status = statusOf(error);
  if (status === undefined) return error instanceof Error ? error : new Error(String(error));
  const body = (error as ApiException<unknown>).body as { message?: string } | string | undefined;
  const message = typeof body === 'string' ? body : (body?.message ?? '');
  return new KubeApiError(status, `${what}: HTTP ${status} ${message}`.trim(), { cause: error });
}
