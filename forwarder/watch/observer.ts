import type { KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import {
  deletedEvent,
  observedEvent,
  tombstoneEvent,
  type ObjectIdentity,
  type ObservationResult,
  type OutgoingEvent,
  type WatchedKind,
} from '../observation.ts';
import { fitsOneEntry } from '../send/batching.ts';
import type { LiveObjects } from './live-objects.ts';
import type { WatchSink } from './object-watcher.ts';

export interface ObserverOptions {
  readonly clusterId: string;
  readonly namespace: string | undefined;
  readonly live: LiveObjects;
  readonly submit: (event: OutgoingEvent) => void;
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly now: () => number;
}

/**
 * Turns what the watchers see into contract events: every new resourceVersion once, every
 * deletion once (from the watch, or from a relist that no longer contains the object).
 */
export class Observer implements WatchSink {
  readonly #o: ObserverOptions;

  constructor(options: ObserverOptions) {
    this.#o = options;
  }

  relisted(kind: WatchedKind, items: readonly KubernetesObject[]): void {
    const listed = new Set(items.flatMap((item) => item.metadata?.uid ?? []));
    const inScope = (identity: ObjectIdentity) => this.#o.namespace === undefined || identity.namespace === this.#o.namespace;
    for (const identity of this.#o.live.vanished(kind, listed, inScope)) {
      this.#o.metrics.inc('forwarder_tombstones_total', { kind });
      this.#emit(kind, tombstoneEvent(this.#o.clusterId, identity, this.#observedAt()), identity.uid);
    }
  }

  observed(kind: WatchedKind, object: KubernetesObject): void {
    const result = observedEvent(this.#o.clusterId, kind, object, this.#observedAt());
    if (result.ok && !this.#o.live.observe(result.event.subject, object.metadata?.resourceVersion ?? '')) return;
    this.#emit(kind, result, object.metadata?.uid);
  }

  deleted(kind: WatchedKind, object: KubernetesObject): void {
    const uid = object.metadata?.uid;
    if (uid !== undefined && !this.#o.live.forget(uid)) return;
    this.#emit(kind, deletedEvent(this.#o.clusterId, kind, object, this.#observedAt()), uid);
  }

  #emit(kind: WatchedKind, result: ObservationResult, uid: string | undefined): void {
    const { metrics, log } = this.#o;
    if (!result.ok) {
      metrics.inc('forwarder_events_invalid_total', { kind, reason: 'contract' });
      log.error('object refused by the event contract; not sent', { kind, uid, reason: result.reason });
      return;
    }
    if (!fitsOneEntry(result.event)) {
      metrics.inc('forwarder_events_invalid_total', { kind, reason: 'too_large' });
      log.error('event larger than an EventBridge entry may be; not sent', { kind, uid, eventId: result.event.eventId, bytes: result.event.detail.length });
      return;
    }
    metrics.inc('forwarder_observations_total', { kind, detailType: result.event.detailType });
    this.#o.submit(result.event);
  }

  #observedAt(): string {
    return new Date(this.#o.now()).toISOString();
  }
}
