import type { KubernetesObject } from '@kubernetes/client-node';
import type { ObjectSequence } from '../../shared/k8s/object-sequence.ts';
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
import type { EpochStore } from './epoch-file.ts';
import { ObjectSequencer } from './object-sequencer.ts';
import type { WatchSink } from './object-watcher.ts';

export interface ObserverOptions {
  readonly clusterId: string;
  readonly namespace: string | undefined;
  readonly live: LiveObjects;
  readonly submit: (event: OutgoingEvent) => void;
  readonly metrics: Metrics;
  readonly log: Logger;
  readonly now: () => number;
  /** Where the last epoch is kept across restarts (epoch-file.ts); in memory only when unset. */
  readonly epochs?: EpochStore;
}

/**
 * Turns what the watchers see into contract events: every new resourceVersion once, every
 * deletion once (from the watch, or from a relist that no longer contains the object). Each
 * event carries its order among the events of its object (`sequence`, ./object-sequencer.ts).
 */
export class Observer implements WatchSink {
  readonly #o: ObserverOptions;
  readonly #sequencer: ObjectSequencer;

  constructor(options: ObserverOptions) {
    this.#o = options;
    this.#sequencer = new ObjectSequencer(options.now, options.epochs);
  }

  relisted(kind: WatchedKind, items: readonly KubernetesObject[]): void {
    this.#sequencer.relisted(kind);
    const listed = new Set(items.flatMap((item) => item.metadata?.uid ?? []));
    const inScope = (identity: ObjectIdentity) => this.#o.namespace === undefined || identity.namespace === this.#o.namespace;
    for (const identity of this.#o.live.vanished(kind, listed, inScope)) {
      this.#o.metrics.inc('forwarder_tombstones_total', { kind });
      const sequence = this.#sequencer.peek(kind, identity.uid);
      this.#emit(kind, tombstoneEvent(this.#o.clusterId, identity, this.#observedAt(), sequence), identity.uid, sequence);
      this.#sequencer.forget(identity.uid);
    }
  }

  observed(kind: WatchedKind, object: KubernetesObject): void {
    const uid = object.metadata?.uid ?? '';
    const sequence = this.#sequencer.peek(kind, uid);
    const result = observedEvent(this.#o.clusterId, kind, object, this.#observedAt(), sequence);
    // resourceVersions are compared only for equality: the same version is not sent twice.
    if (result.ok && !this.#o.live.observe(result.event.subject, object.metadata?.resourceVersion ?? '')) return;
    this.#emit(kind, result, object.metadata?.uid, sequence);
  }

  deleted(kind: WatchedKind, object: KubernetesObject): void {
    const uid = object.metadata?.uid;
    if (uid !== undefined && !this.#o.live.forget(uid)) return;
    const sequence = this.#sequencer.peek(kind, uid ?? '');
    this.#emit(kind, deletedEvent(this.#o.clusterId, kind, object, this.#observedAt(), sequence), uid, sequence);
    if (uid !== undefined) this.#sequencer.forget(uid);
  }

  #emit(kind: WatchedKind, result: ObservationResult, uid: string | undefined, sequence: ObjectSequence): void {
    if (uid !== undefined) this.#sequencer.commit(uid, sequence);
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
    if (result.partitionKeyDropped) {
      metrics.inc('forwarder_partition_keys_dropped_total', { kind });
      log.warn('the owning Job\'s uid is no Kinesis partition key; sent keyed by the event id', { kind, uid, reason: result.partitionKeyDropped });
    }
    metrics.inc('forwarder_observations_total', { kind, detailType: result.event.detailType });
    this.#o.submit(result.event);
  }

  #observedAt(): string {
    return new Date(this.#o.now()).toISOString();
  }
}
