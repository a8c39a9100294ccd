import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import type { StreamId } from '../../../shared/app/event-store.ts';
import type { ServiceHarness } from '../../support/service-harness.ts';
import { asQueueMessage } from '../commands.ts';
import { eventually, QUEUE, type Harness } from '../harness.ts';

// The two buses between a forwarder and the service, played by hand: what the forwarder put on
// EventBridge goes to the service's ingest stream (its writer), and the commands the service published go to
// the cluster's command queue, as the bus rules route them. The forwarder stamps observations
// with the wall clock; the scenario runs on its own clock, so the relay restamps `observedAt`
// with the scenario time at which the forwarder saw the change.

export class ClusterRelay {
  #delivered = 0;
  #sent = 0;
  /** The last status the service decided for the Job (`Job Status Update Requested`). */
  lastStatus: Record<string, unknown> | undefined;

  readonly cluster: Harness;
  readonly service: ServiceHarness;
  readonly stream: StreamId;

  constructor(cluster: Harness, service: ServiceHarness, stream: StreamId) {
    this.cluster = cluster;
    this.service = service;
    this.stream = stream;
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

  /** Observations → service; returns how many were relayed. */
  async relayObservations(at: string): Promise<number> {
    const fresh = this.cluster.bus.delivered.slice(this.#delivered);
    this.#delivered += fresh.length;
    const restamped = fresh.map((e) => ({ ...e, detail: { ...(e.detail as object), observedAt: at } }));
    if (restamped.length > 0) {
      const failed = await this.service.deliver(restamped, 10);
      if (failed.length > 0 || this.service.rejected.length > 0) throw new Error(`ingest refused: ${JSON.stringify(this.service.rejected.map((r) => r.errors))}`);
    }
    return restamped.length;
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
      this.cluster.sqs.send(QUEUE, asQueueMessage(event.detailType, event.detail));
    }
    await eventually(() => {
      if (this.cluster.sqs.pending(QUEUE).length > 0) throw new Error('commands still queued');
    }, 5_000);
    return commands;
  }

  /**
   * One scenario step: relay what the cluster reported, reconcile, apply the commands; repeat
   * while the commands change the cluster (pods created, finalizers removed), at most `rounds`.
   */
  async settle(at: string, tick: boolean, rounds = 6): Promise<void> {
    this.service.clock.now = at;
    await this.observationsSettled();
    await this.relayObservations(at);
    if (tick) await this.service.fireTimer(this.stream, at);
    for (let round = 0; round < rounds; round++) {
      const commands = await this.reconcileAndApply();
      await this.observationsSettled();
      const observed = await this.relayObservations(at);
      if (commands.length === 0 && observed === 0) return;
    }
  }
}
