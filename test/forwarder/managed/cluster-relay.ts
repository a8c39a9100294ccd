import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import type { ServiceHarness } from '../../support/service-harness.ts';
import { asQueueMessage } from '../commands.ts';
import type { DeliveredEvent } from '../fake-event-bridge.ts';
import { eventually, QUEUE, type Harness } from '../harness.ts';

// The two buses between a forwarder and the service, played by hand: what the forwarder put on
// EventBridge goes to the service's ingest stream (its writer), and the commands the service published go to
// the cluster's command queue, as the bus rules route them. The forwarder stamps observations
// with the wall clock; the scenario runs on its own clock, so the relay restamps `observedAt`
// with the scenario time at which the forwarder saw the change.

/**
 * Which of the observations waiting on the bus reach the service now, and in which order; the
 * rest wait for the next relay. The cluster's order delivers all, as sent.
 */
export type DeliveryOrder = (waiting: readonly DeliveredEvent[]) => { readonly now: DeliveredEvent[]; readonly later: DeliveredEvent[] };

const inSentOrder: DeliveryOrder = (waiting) => ({ now: [...waiting], later: [] });

/** A termination the service asked for, and what the pod was on the API server when it was asked. */
export interface RequestedTermination {
  readonly podName: string;
  readonly cause: string;
  /** Running or pending, not being deleted: nothing in the cluster had ended it. */
  readonly healthy: boolean;
}

export class ClusterRelay {
  #delivered = 0;
  #sent = 0;
  #waiting: DeliveredEvent[] = [];
  readonly #order: DeliveryOrder;
  /** The last status the service decided for the Job (`Job Status Update Requested`). */
  lastStatus: Record<string, unknown> | undefined;
  /** Every `Pod Termination Requested`, in the order published. */
  readonly terminations: RequestedTermination[] = [];
  /** How many pods the service asked to create (`Pod Creation Requested`). */
  creations = 0;

  readonly cluster: Harness;
  readonly service: ServiceHarness;
  readonly stream: StreamId;

  constructor(cluster: Harness, service: ServiceHarness, stream: StreamId, order: DeliveryOrder = inSentOrder) {
    this.cluster = cluster;
    this.service = service;
    this.stream = stream;
    this.#order = order;
  }

  /** Observations the order holds back for a later relay. */
  get held(): number {
    return this.#waiting.length;
  }

  /** Waits until the forwarder has reported every change the API server made so far (Jobs and pods). */
  async observationsSettled(): Promise<void> {
    const kube = this.cluster.kube.store;
    await eventually(() => {
      const ids = new Set(this.cluster.bus.delivered.map((e) => (e.detail as { eventId: string }).eventId));
      for (const object of [...kube.list('jobs'), ...kube.list('pods')]) {
        if (!ids.has(`${object.metadata.uid}/${object.metadata.resourceVersion}`)) throw new Error(`${object.metadata.name} not reported yet`);
      }
      for (const event of kube.since(0)) {
        if (event.resource === 'pods' && event.type === 'DELETED' && !ids.has(`${event.object.metadata.uid}/deleted`)) {
          throw new Error(`deletion of ${event.object.metadata.name} not reported yet`);
        }
      }
    }, 5_000);
  }

  /**
   * Observations → service, as the order lets them through (all of them when `flush`); returns
   * how many were relayed. Each is restamped when the forwarder sent it, whenever it arrives.
   */
  async relayObservations(at: string, flush = false): Promise<number> {
    const fresh = this.cluster.bus.delivered.slice(this.#delivered);
    this.#delivered += fresh.length;
    const waiting = [...this.#waiting, ...fresh.map((e) => ({ ...e, detail: { ...(e.detail as object), observedAt: at } }))];
    const { now, later } = flush ? inSentOrder(waiting) : this.#order(waiting);
    this.#waiting = later;
    if (now.length > 0) {
      const failed = await this.service.deliver(now, 10);
      if (failed.length > 0 || this.service.rejected.length > 0) throw new Error(`ingest refused: ${JSON.stringify(this.service.rejected.map((r) => r.errors))}`);
    }
    return now.length;
  }

  /** Reconcile, publish, and hand the commands to the forwarder; waits until it applied them. */
  async reconcileAndApply(): Promise<OutboundEvent[]> {
    const response = await this.service.tick(this.stream);
    if (response.batchItemFailures.length > 0) throw new Error('reconcile failed');
    await this.service.publish();
    const commands = this.service.bus.sent.slice(this.#sent);
    this.#sent = this.service.bus.sent.length;
    for (const event of commands) {
      if (event.detailType === 'Job Status Update Requested') this.lastStatus = event.detail['status'] as Record<string, unknown>;
      if (event.detailType === 'Pod Creation Requested') this.creations += 1;
      if (event.detailType === 'Pod Termination Requested') this.#noteTermination(event.detail);
      this.cluster.sqs.send(QUEUE, asQueueMessage(event.detailType, event.detail));
    }
    await eventually(() => {
      if (this.cluster.sqs.pending(QUEUE).length > 0) throw new Error('commands still queued');
    }, 5_000);
    return commands;
  }

  #noteTermination(detail: Record<string, unknown>): void {
    const podName = detail['podName'] as string;
    const pod = this.cluster.kube.store.get('pods', this.stream.namespace, podName) as { status?: { phase?: string }; metadata: { deletionTimestamp?: string } } | undefined;
    const phase = pod?.status?.phase;
    const healthy = pod !== undefined && phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
    this.terminations.push({ podName, cause: detail['cause'] as string, healthy });
  }

  /**
   * One scenario step: relay what the cluster reported, reconcile, apply the commands; repeat
   * while the commands change the cluster (pods created, finalizers removed) or held
   * observations arrive, at most `rounds`.
   */
  async settle(at: string, tick: boolean, rounds = 6, flush = false): Promise<void> {
    this.service.clock.now = at;
    // The API server's clock is the scenario's too: a deletion is stamped when it is made.
    this.cluster.kube.now = at;
    await this.observationsSettled();
    await this.relayObservations(at, flush);
    if (tick) await this.service.fireTimer(this.stream, at);
    for (let round = 0; round < rounds; round++) {
      const commands = await this.reconcileAndApply();
      await this.observationsSettled();
      const observed = await this.relayObservations(at, flush);
      if (commands.length === 0 && observed === 0) return;
    }
  }
}
