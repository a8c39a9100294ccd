import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { OutboundDetailType } from '../../../shared/contract/outbound.ts';
import { JOBFOLD_CONTROLLER_NAME, MAX_POD_CREATE_DELETE_PER_SYNC } from '../../../shared/k8s/job-controller.ts';
import { anIndexedJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent } from '../../support/inbound-events.ts';
import { createServiceHarness } from '../../support/service-harness.ts';

// A managed Indexed Job of 10,000 completions (20 times the per-sync cap) through the service
// path: ingest, reconcile, outbox, publish. Upstream creates at most MaxPodCreateDeletePerSync
// (500) pods per sync and waits until it has seen them before creating more (expectations);
// jobfold's creations go out the same way, and no index is lost or created twice.

const COMPLETIONS = 10_000;

describe('Given a managed Indexed Job with 10,000 completions and parallelism', () => {
  it('sends pod creations in per-sync batches of at most 500 until every index exists once', async () => {
    const h = createServiceHarness({ store: new InMemoryEventStore(), now: at(0) });
    const job = anIndexedJob(COMPLETIONS, { parallelism: COMPLETIONS, managedBy: JOBFOLD_CONTROLLER_NAME }, { name: 'wide' });
    const stream = jobStream(job);
    await h.deliver([jobObservedEvent(job, at(0))]);

    const perRound: number[] = [];
    const seen = new Set<number>();
    let sent = 0;
    for (let round = 1; seen.size < COMPLETIONS && round <= 2 * (COMPLETIONS / MAX_POD_CREATE_DELETE_PER_SYNC); round++) {
      h.clock.now = at(round);
      expect((await h.tick(stream)).batchItemFailures).toEqual([]);
      await h.publish();
      const creations = h.bus.sent.slice(sent).filter((e) => e.detailType === OutboundDetailType.CreatePod);
      sent = h.bus.sent.length;
      perRound.push(creations.length);
      // The cluster creates the pods; the forwarder reports them before the next reconcile.
      const pods = creations.map((e) => {
        const index = e.detail['index'] as number;
        expect(seen.has(index)).toBe(false);
        seen.add(index);
        return podObservedEvent(aPod({ index, name: `wide-${index}`, phase: 'Pending', nodeName: null }), job, at(round));
      });
      expect(await h.deliver(pods, 100)).toEqual([]);
    }

    expect(perRound).toEqual(Array.from({ length: COMPLETIONS / MAX_POD_CREATE_DELETE_PER_SYNC }, () => MAX_POD_CREATE_DELETE_PER_SYNC));
    expect(seen.size).toBe(COMPLETIONS);
    expect(Math.min(...seen)).toBe(0);
    expect(Math.max(...seen)).toBe(COMPLETIONS - 1);
    h.clock.now = at(100);
    await h.tick(stream);
    await h.publish();
    expect(h.bus.sent.slice(sent).filter((e) => e.detailType === OutboundDetailType.CreatePod)).toEqual([]);
    expect((await h.status(stream)).active).toBe(COMPLETIONS);
  }, 120_000);
});
