import type { V1Pod } from '@kubernetes/client-node';
import { JOB_TRACKING_FINALIZER, type LivePod } from '../../shared/job/index.ts';
import { JOB_COMPLETION_INDEX_ANNOTATION, JOB_INDEX_FAILURE_COUNT_ANNOTATION, JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION } from '../../shared/k8s/job-controller.ts';
import { COMMAND_ID_ANNOTATION } from './build-pod.ts';
import type { KubeOps } from './kube-ops.ts';

/**
 * A Job's pods as the guards read them (shared/job/creation-guard.ts, deletion-guard.ts), where
 * the forwarder takes them from: one list of the Job's pods per batch of commands, not one per
 * command. A scale-down of a 100,000-pod Job is tens of thousands of TerminatePod commands; listing
 * every pod for each would read the Job's pods as many times over (docs/forwarder.md, "The live
 * pods"). Upstream's Job controller decides a whole sync on one read of its pods and counts what
 * it has just asked for itself (expectations); so does a batch here: the list is taken once, at the
 * batch's first command that needs it, after every command of the batch was received (so it is at
 * or after the view each was decided on), and what the batch's own commands did since — a pod
 * deleted, created, its finalizer removed — is applied to it as the API server answered them, so
 * the second command's guard counts what the first did.
 */

/** A pod as listed, reduced to what the guards and the commands read (a page of full pods is dropped once read). */
export interface ListedPod {
  readonly uid: string;
  /** The `jobfold.io/command-id` annotation: the CreatePod that made it. */
  readonly commandId: string | undefined;
  readonly finalizers: readonly string[];
  readonly live: LivePod;
}

/** How long one list serves a batch: a later command of a slow batch lists again. */
export const JOB_PODS_MAX_AGE_MS = 10_000;

/**
 * One Job's pods: a complete list, and since then this forwarder's own changes to them. Only a
 * list read to its last page makes one; a list that failed or was cut makes none.
 */
export class JobPods {
  readonly #pods = new Map<string, ListedPod>();
  readonly listedAt: number;

  constructor(pods: Iterable<ListedPod>, listedAt: number) {
    for (const pod of pods) this.#pods.set(pod.uid, pod);
    this.listedAt = listedAt;
  }

  get size(): number {
    return this.#pods.size;
  }

  /** Every pod as the guards read it, but the one with uid `except` (the command's own target, read afresh). */
  live(except?: string): LivePod[] {
    const out: LivePod[] = [];
    for (const pod of this.#pods.values()) if (pod.uid !== except) out.push(pod.live);
    return out;
  }

  /** Whether a pod made by the CreatePod `commandId` is among them. */
  madeBy(commandId: string): boolean {
    for (const pod of this.#pods.values()) if (pod.commandId === commandId) return true;
    return false;
  }

  /** A DELETE was accepted: a pod that holds finalizers stays, being deleted; any other is gone. */
  deleted(uid: string): void {
    const pod = this.#pods.get(uid);
    if (!pod) return;
    if (pod.finalizers.length === 0) this.#pods.delete(uid);
    else this.#pods.set(uid, { ...pod, live: { ...pod.live, deleting: true } });
  }

  /** The pod is gone (a DELETE answered 404, or 409: another pod holds its name). */
  gone(uid: string): void {
    this.#pods.delete(uid);
  }

  /** A pod was created: the API server's answer. */
  created(pod: V1Pod): void {
    const listed = listedPod(pod);
    if (listed) this.#pods.set(listed.uid, listed);
  }

  /** The tracking finalizer was removed: a pod being deleted that holds no other finalizer is gone. */
  finalizerRemoved(uid: string): void {
    const pod = this.#pods.get(uid);
    if (!pod) return;
    const finalizers = pod.finalizers.filter((f) => f !== JOB_TRACKING_FINALIZER);
    if (pod.live.deleting && finalizers.length === 0) this.#pods.delete(uid);
    else this.#pods.set(uid, { ...pod, finalizers, live: { ...pod.live, tracked: false } });
  }
}

/** What reading the pods cost, for the forwarder's metrics: a list's pages and pods, or the watch's pods (pages undefined). */
export interface PodListCount {
  (pages: number | undefined, pods: number): void;
}

/** The pod watch's view (watched-pods.ts): a Job's pods once the watch has reached a version, or undefined. */
export interface WatchedPodsReader {
  at(namespace: string, jobUid: string, resourceVersion: string | undefined): Promise<readonly ListedPod[] | undefined>;
}

/**
 * The Jobs' pods for one batch of commands: each Job's listed at most once (again only once
 * JOB_PODS_MAX_AGE_MS have passed since its list, or after a command whose effect is unknown).
 * A list that fails is remembered for the batch: every command of the batch that needs those
 * pods fails with it (transient: left on the queue, retried), none reads a partial list.
 */
export class BatchPods {
  readonly #kube: Pick<KubeOps, 'listJobPods' | 'podsResourceVersion'>;
  readonly #watched: WatchedPodsReader | undefined;
  readonly #now: () => number;
  readonly #maxAgeMs: number;
  readonly #counted: PodListCount;
  readonly #views = new Map<string, Promise<JobPods>>();
  /** The Jobs whose list failed in this batch. */
  readonly #failed = new Set<string>();

  constructor(
    kube: Pick<KubeOps, 'listJobPods' | 'podsResourceVersion'>,
    options: { now?: () => number; maxAgeMs?: number; counted?: PodListCount; watched?: WatchedPodsReader } = {},
  ) {
    this.#kube = kube;
    this.#watched = options.watched;
    this.#now = options.now ?? Date.now;
    this.#maxAgeMs = options.maxAgeMs ?? JOB_PODS_MAX_AGE_MS;
    this.#counted = options.counted ?? (() => undefined);
  }

  /** The Job's pods: this batch's list of them, with what the batch did since. */
  async of(namespace: string, jobUid: string): Promise<JobPods> {
    const key = `${namespace}/${jobUid}`;
    let view = this.#views.get(key);
    if (view) {
      const held = await view.catch(() => undefined);
      if (held && this.#now() - held.listedAt > this.#maxAgeMs) view = undefined;
    }
    if (!view) {
      view = this.#list(namespace, jobUid);
      view.catch(() => this.#failed.add(key));
      this.#views.set(key, view);
    }
    return view;
  }

  /** Applies a change this forwarder made to the Job's list, if the batch holds one (it lists nothing). */
  async touch(namespace: string, jobUid: string, change: (pods: JobPods) => void): Promise<void> {
    const view = this.#views.get(`${namespace}/${jobUid}`);
    if (view) await view.then(change, () => undefined);
  }

  /**
   * Drops the Job's list: a command's effect on its pods is unknown (an error after it may have
   * acted). A list that failed stays failed for the batch.
   */
  forget(namespace: string, jobUid: string): void {
    const key = `${namespace}/${jobUid}`;
    if (!this.#failed.has(key)) this.#views.delete(key);
  }

  async #list(namespace: string, jobUid: string): Promise<JobPods> {
    if (this.#watched) {
      // The watch's view, if it has caught up with the API server as of now; else a list.
      const watched = await this.#watched.at(namespace, jobUid, await this.#kube.podsResourceVersion(namespace, jobUid));
      if (watched) {
        this.#counted(undefined, watched.length);
        return new JobPods(watched, this.#now());
      }
    }
    const pods: ListedPod[] = [];
    const pages = await this.#kube.listJobPods(namespace, jobUid, (page) => {
      for (const pod of page) {
        const listed = listedPod(pod);
        if (listed) pods.push(listed);
      }
    });
    this.#counted(pages, pods.length);
    return new JobPods(pods, this.#now());
  }
}

export function listedPod(pod: V1Pod): ListedPod | undefined {
  const uid = pod.metadata?.uid;
  if (!uid) return undefined;
  return { uid, commandId: pod.metadata?.annotations?.[COMMAND_ID_ANNOTATION], finalizers: pod.metadata?.finalizers ?? [], live: livePod(pod) };
}

/**
 * A pod as the guards read it; an index annotation that is not a number matches no index, and
 * failure counts that are not numbers are not read.
 */
export function livePod(pod: V1Pod): LivePod {
  const annotations = pod.metadata?.annotations ?? {};
  const index = annotations[JOB_COMPLETION_INDEX_ANNOTATION];
  const phase = pod.status?.phase;
  const failures = count(annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION]);
  const ignored = count(annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] ?? '0');
  const indexFailures = failures === undefined || ignored === undefined ? undefined : failures + ignored;
  return {
    index: index === undefined ? undefined : Number(index),
    terminal: phase === 'Succeeded' || phase === 'Failed',
    succeeded: phase === 'Succeeded',
    deleting: pod.metadata?.deletionTimestamp !== undefined,
    tracked: pod.metadata?.finalizers?.includes(JOB_TRACKING_FINALIZER) === true,
    ...(indexFailures === undefined ? {} : { indexFailures }),
  };
}

/** A failure-count annotation's value: a decimal count, or undefined. */
const count = (value: string | undefined): number | undefined => (value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined);
