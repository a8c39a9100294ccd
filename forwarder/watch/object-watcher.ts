import { ListWatch, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { WatchedKind } from '../observation.ts';
import { backoffDelayMs, type BackoffPolicy } from '../send/backoff.ts';
import { BookmarkWatch } from './bookmark-watch.ts';
import type { WatchTarget } from './watch-targets.ts';

/** Where a watcher reports what it sees (not shared/ports.ts WatchSink, the service's watch response). */
export interface WatchedObjectSink {
  /** A full list arrived (before its items are reported one by one). */
  relisted(kind: WatchedKind, items: readonly KubernetesObject[]): void;
  observed(kind: WatchedKind, object: KubernetesObject): void;
  deleted(kind: WatchedKind, object: KubernetesObject): void;
}

export interface ObjectWatcherOptions {
  readonly kubeConfig: KubeConfig;
  readonly target: WatchTarget;
  readonly sink: WatchedObjectSink;
  readonly metrics: Metrics;
  readonly log: Logger;
  /** Delay before restarting after a list or watch error. */
  readonly restartBackoff: BackoffPolicy;
  readonly random?: () => number;
  /** How the informer waits between reconnects of a dropped watch (tests shorten it). */
  readonly reconnectDelay?: (ms: number) => Promise<void>;
}

/**
 * One @kubernetes/client-node informer (ListWatch) on one collection. The informer lists,
 * then watches from the list's resourceVersion; on a dropped stream it reconnects from the
 * last version it saw, and on 410 Gone it lists again. What it does not do is recover from
 * other errors (it stops), so this restarts it with jittered backoff.
 */
export class ObjectWatcher {
  readonly #o: ObjectWatcherOptions;
  #informer: ListWatch<KubernetesObject> | undefined;
  #stopped = true;
  #errors = 0;
  #restartTimer: NodeJS.Timeout | undefined;

  constructor(options: ObjectWatcherOptions) {
    this.#o = options;
  }

  /** Starts with a fresh informer: an empty cache and a full list. */
  async start(): Promise<void> {
    this.#stopped = false;
    const informer = this.#create();
    this.#informer = informer;
    await this.#run(informer);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#restartTimer);
    const informer = this.#informer;
    this.#informer = undefined;
    await informer?.stop();
  }

  /**
   * The resourceVersion up to which every change has been handed to the sink: the running
   * informer's (advanced after each event's handlers ran, and on bookmarks); undefined while
   * stopped or before its first list.
   */
  resourceVersion(): string | undefined {
    if (this.#stopped) return undefined;
    return this.#informer?.latestResourceVersion() || undefined;
  }

  /** Drops the cache and lists again (after events were lost to a full spool). */
  async relist(): Promise<void> {
    await this.stop();
    await this.start();
  }

  #create(): ListWatch<KubernetesObject> {
    const { kubeConfig, target, sink, metrics, log } = this.#o;
    const kind = target.kind;
    const current = () => !this.#stopped && this.#informer === informer;
    const list = async () => {
      const result = await target.list();
      this.#errors = 0;
      metrics.inc('forwarder_relists_total', { kind });
      if (current()) sink.relisted(kind, result.items);
      return result;
    };
    const watch = new BookmarkWatch(kubeConfig, this.#o.random);
    const options = this.#o.reconnectDelay ? { delayFn: this.#o.reconnectDelay } : {};
    const informer = new ListWatch<KubernetesObject>(target.path, watch, list, false, target.labelSelector, undefined, options);
    informer.on('add', (object) => current() && sink.observed(kind, object));
    informer.on('update', (object) => current() && sink.observed(kind, object));
    informer.on('delete', (object) => current() && sink.deleted(kind, object));
    informer.on('connect', () => current() && metrics.inc('forwarder_watch_connects_total', { kind }));
    informer.on('error', (error) => {
      if (!current()) return;
      metrics.inc('forwarder_watch_errors_total', { kind });
      const delayMs = backoffDelayMs(this.#errors++, this.#o.restartBackoff, this.#o.random ?? Math.random);
      log.warn('watch failed; restarting', { kind, path: target.path, delayMs, error });
      clearTimeout(this.#restartTimer);
      this.#restartTimer = setTimeout(() => current() && void this.#run(informer).catch(() => undefined), delayMs);
    });
    return informer;
  }

  async #run(informer: ListWatch<KubernetesObject>): Promise<void> {
    try {
      await informer.start();
    } catch (error) {
      // start() only throws before any request (no current cluster); nothing will retry it.
      this.#o.log.error('watch could not start', { kind: this.#o.target.kind, error });
      throw error;
    }
  }
}
