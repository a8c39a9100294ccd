import type { KubernetesObject } from '@kubernetes/client-node';
import type { ObjectSequence } from '../../shared/k8s/object-sequence.ts';
import { owningJobSetUid, owningJobUid } from '../../shared/contract/routing.ts';
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
import type { WatchedObjectSink } from './object-watcher.ts';

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
export class Observer implements WatchedObjectSink {
  readonly #o: ObserverOptions;
  readonly #sequencer: ObjectSequencer;
  /**
   * The objects the latest list of each kind showed (uid → resourceVersion), until the informer
   * hands each on. What a list shows carries no count (`jobSeq`, `jobSetSeq`, `jobEvents`): a
   * restarted forwarder lists again what the service already holds, which drops it by eventId,
   * and a count it never folds would look like an observation still on its way. Counting starts
   * with the watch (deletions a list reveals are not counted either).
   */
  readonly #listed = new Map<WatchedKind, Map<string, string | undefined>>();

  constructor(options: ObserverOptions) {
    this.#o = options;
    this.#sequencer = new ObjectSequencer(options.now, options.epochs);
  }

  relisted(kind: WatchedKind, items: readonly KubernetesObject[]): void {
    this.#sequencer.relisted(kind);
    this.#listed.set(kind, new Map(items.flatMap((item) => (item.metadata?.uid ? [[item.metadata.uid, item.metadata.resourceVersion]] : []))));
    const listed = new Set(items.flatMap((item) => item.metadata?.uid ?? []));
    const inScope = (identity: ObjectIdentity) => this.#o.namespace === undefined || identity.namespace === this.#o.namespace;
    for (const identity of this.#o.live.vanished(kind, listed, inScope)) {
      this.#o.metrics.inc('forwarder_tombstones_total', { kind });
      // Found by the list, so not counted either (see #listed).
      const sequence = this.#sequencer.peek(kind, identity.uid);
      this.#emit(kind, tombstoneEvent(this.#o.clusterId, identity, this.#observedAt(), sequence), identity.uid, sequence, undefined, false);
      this.#sequencer.forget(identity.uid);
      if (kind === 'Job') this.#sequencer.forgetJob(identity.uid);
    }
  }

  observed(kind: WatchedKind, object: KubernetesObject): void {
    const uid = object.metadata?.uid ?? '';
    const listedOfKind = this.#listed.get(kind);
    const listed = listedOfKind !== undefined && listedOfKind.has(uid) && listedOfKind.get(uid) === object.metadata?.resourceVersion;
    if (listed) listedOfKind.delete(uid);
    const owner = ownerOf(kind, object.metadata);
    const sequence = this.#sequencer.peek(kind, uid, listed ? undefined : { owner });
    const result = observedEvent(this.#o.clusterId, kind, object, this.#observedAt(), sequence);
    // resourceVersions are compared only for equality: the same version is not sent twice.
    if (result.ok && !this.#o.live.observe(result.event.subject, object.metadata?.resourceVersion ?? '')) return;
    this.#emit(kind, result, object.metadata?.uid, sequence, owner, !listed);
  }

  deleted(kind: WatchedKind, object: KubernetesObject): void {
    const uid = object.metadata?.uid;
    if (uid !== undefined && !this.#o.live.forget(uid)) return;
    const owner = ownerOf(kind, object.metadata);
    const sequence = this.#sequencer.peek(kind, uid ?? '', { owner });
    this.#emit(kind, deletedEvent(this.#o.clusterId, kind, object, this.#observedAt(), sequence), uid, sequence, owner, true);
    if (uid !== undefined) this.#sequencer.forget(uid);
    if (uid !== undefined && kind === 'Job') this.#sequencer.forgetJob(uid);
  }

  #emit(kind: WatchedKind, result: ObservationResult, uid: string | undefined, sequence: ObjectSequence, owner: string | undefined, counted: boolean): void {
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
    // Only what is sent is counted: the counts an owner's events carry have no hole of ours.
    if (counted) this.#sequencer.sent(kind, uid ?? '', owner, sequence);
  }

  #observedAt(): string {
    return new Date(this.#o.now()).toISOString();
  }
}

/**
 * Whose count an event takes: a pod's Job (whose log its events go to; parse-inbound.ts routes
 * by the same owningJobUid), a Job's JobSet (the partition key its events carry).
 */
function ownerOf(kind: WatchedKind, metadata: KubernetesObject['metadata']): string | undefined {
  if (metadata === undefined) return undefined;
  return kind === 'Pod' ? owningJobUid({ metadata } as Parameters<typeof owningJobUid>[0]) : owningJobSetUid(metadata);
}
