import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import { CONTROLLER_UID_LABEL } from '../../shared/job/index.ts';
import { comparableVersion, compareVersions } from '../../shared/k8s/object-sequence.ts';
import { listedPod, type ListedPod } from './job-pods.ts';

/**
 * The Jobs' pods as the forwarder's pod watch has seen them (the informer of
 * forwarder/watch/object-watcher.ts, which lists and watches every pod labelled
 * `batch.kubernetes.io/controller-uid`), by Job, reduced to what the guards read: what upstream's
 * Job controller reads its pods from. A guard may read it only at or after the state the command
 * was decided on, and a view of the past is what the guard exists to refuse; so a read names a
 * resourceVersion the API server gave just before (a consistent read: job-pods.ts), and is
 * answered only once the watch has delivered every change up to it (the informer's resourceVersion,
 * which it advances after each event's handlers ran, and on bookmarks); otherwise, after
 * `waitMs`, not at all, and the caller lists. A watch stopped, failing, or relisting has no
 * resourceVersion or an old one: its pods are never read.
 */
export class WatchedPods {
  readonly #byJob = new Map<string, Map<string, ListedPod>>();
  /** Where each pod is filed: its Job's key. */
  readonly #jobOf = new Map<string, string>();
  readonly #progress: () => string | undefined;
  readonly #waitMs: number;
  readonly #sleep: (ms: number) => Promise<void>;

  /**
   * `progress`: the pod watch's resourceVersion: every change up to it has been handed to this
   * (undefined while it is not watching).
   */
  constructor(progress: () => string | undefined, options: { waitMs?: number; sleep?: (ms: number) => Promise<void> } = {}) {
    this.#progress = progress;
    this.#waitMs = options.waitMs ?? WATCHED_PODS_WAIT_MS;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** A full list of the watched pods: what it holds is all there is. */
  relisted(items: readonly KubernetesObject[]): void {
    this.#byJob.clear();
    this.#jobOf.clear();
    for (const item of items) this.observed(item);
  }

  observed(object: KubernetesObject): void {
    const pod = object as V1Pod;
    const listed = listedPod(pod);
    if (!listed) return;
    const jobUid = pod.metadata?.labels?.[CONTROLLER_UID_LABEL];
    this.#drop(listed.uid);
    if (jobUid === undefined) return;
    const key = jobKey(pod.metadata?.namespace ?? '', jobUid);
    let pods = this.#byJob.get(key);
    if (!pods) this.#byJob.set(key, (pods = new Map()));
    pods.set(listed.uid, listed);
    this.#jobOf.set(listed.uid, key);
  }

  deleted(object: KubernetesObject): void {
    const uid = object.metadata?.uid;
    if (uid) this.#drop(uid);
  }

  /**
   * The Job's pods once the watch has seen every change up to `resourceVersion`, or undefined
   * when it has not within the wait (or versions are not comparable: compared as KEP-5504's
   * increasing integers, shared/k8s/object-sequence.ts comparableVersion, or not at all).
   */
  async at(namespace: string, jobUid: string, resourceVersion: string | undefined): Promise<ListedPod[] | undefined> {
    const wanted = comparableVersion(resourceVersion);
    if (wanted === undefined) return undefined;
    for (let waited = 0; ; waited += WATCHED_PODS_POLL_MS) {
      const seen = comparableVersion(this.#progress());
      if (seen !== undefined && compareVersions(seen, wanted) >= 0) return [...(this.#byJob.get(jobKey(namespace, jobUid))?.values() ?? [])];
      if (waited >= this.#waitMs) return undefined;
      await this.#sleep(WATCHED_PODS_POLL_MS);
    }
  }

  #drop(uid: string): void {
    const key = this.#jobOf.get(uid);
    if (key === undefined) return;
    this.#jobOf.delete(uid);
    const pods = this.#byJob.get(key);
    pods?.delete(uid);
    if (pods?.size === 0) this.#byJob.delete(key);
  }
}

/** How long a read waits for the watch to reach the version asked for before the caller lists. */
export const WATCHED_PODS_WAIT_MS = 1_000;
const WATCHED_PODS_POLL_MS = 10;

const jobKey = (namespace: string, jobUid: string) => `${namespace}/${jobUid}`;
