import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent } from '../../support/inbound-events.ts';
import { createServiceHarness } from '../../support/service-harness.ts';
import { HOSTILE_CASES, VALID } from './hostile-events.ts';
import type { ServiceStore, ServiceStoreFactory } from './service-store.ts';

// Ingest refuses what it cannot trust: the refusal goes to the rejected-events destination with
// the field path and the reason, nothing reaches the store, and the SQS message is not failed
// (a retry could never help), so the rest of its batch goes on.

export function describeBadInput(label: string, factory: ServiceStoreFactory): void {
  describe(`bad input (${label})`, () => {
    let shared: ServiceStore;
    beforeAll(async () => {
      shared = await factory();
    });

    it('has at least 50 cases', () => {
      expect(HOSTILE_CASES.length).toBeGreaterThanOrEqual(50);
    });

    it.each(HOSTILE_CASES)('rejects $name with its reason and writes nothing', async ({ body, path, message }) => {
      // given the service and its store, as it stands
      const h = createServiceHarness({ store: shared.store });
      const writeUnits = shared.writeUnits();
      const items = await shared.itemCount();

      // when the event arrives on the ingest stream
      const response = await h.deliverBodies([body]);

      // then the record is not failed, the rejection names the field and why
      expect(response.batchItemFailures).toEqual([]);
      expect(h.rejected).toHaveLength(1);
      const [rejection] = h.rejected;
      expect(rejection?.errors).toContainEqual({
        path: typeof path === 'string' ? path : expect.stringMatching(path),
        message: expect.stringMatching(message),
      });
      expect(rejection?.reason).not.toBe('');
      // and nothing was written
      expect(h.store.writes).toBe(0);
      expect(shared.writeUnits()).toBe(writeUnits);
      expect(await shared.itemCount()).toBe(items);
    });

    it('never fails the rest of a batch for its bad events', async () => {
      // given a batch where good events of one Job alternate with bad ones
      const h = createServiceHarness({ store: shared.store, now: at(5) });
      const job = aJob({}, { uid: randomUUID() });
      const good = [jobObservedEvent(job, at(0)), podObservedEvent(aPod({ name: 'a' }), job, at(1)), podObservedEvent(aPod({ name: 'b' }), job, at(1))];
      const bad = ['{ not json', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, JSON.stringify({ ...VALID.podObserved, source: 'aws.events' })];
      const bodies = [JSON.stringify(good[0]), bad[0], JSON.stringify(good[1]), bad[1], bad[2], JSON.stringify(good[2])] as string[];

      // when the batch arrives
      const response = await h.deliverBodies(bodies);

      // then no message failed, the good events are in the log, and each bad one was refused with its reason
      expect(response.batchItemFailures).toEqual([]);
      const observed = (await h.log(jobStream(job))).filter((e) => e.type === 'JobObserved' || e.type === 'PodObserved');
      expect(observed.map((e) => e.eventId).sort()).toEqual(good.map((e) => (e.detail as { eventId: string }).eventId).sort());
      expect(h.rejected.map((r) => r.reason).sort()).toEqual([
        expect.stringMatching(/nested deeper than/),
        expect.stringMatching(/^source: /),
        expect.stringMatching(/not JSON/),
      ]);
      expect(h.rejected.map((r) => r.original).sort()).toEqual([...bad].sort());
    });
  });
}
