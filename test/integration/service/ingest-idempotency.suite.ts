import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Job } from '../../../shared/k8s/job.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podDeletedEvent, podObservedEvent, type InboundEnvelope } from '../../support/inbound-events.ts';
import { createServiceHarness, type ServiceHarness } from '../../support/service-harness.ts';
import type { ServiceStoreFactory } from './service-store.ts';

// The writer is idempotent: the forwarder's eventId (uid + resourceVersion) is stored once however
// often the event arrives, and the fold makes the order of a Job's observations irrelevant.

const aJobOfThree = (): Job => aJob({ completions: 3, parallelism: 3, backoffLimit: 6 }, { uid: randomUUID() });

/** Three pods of `job` going Running → terminal: what the cluster reports, in cluster order. */
function podLifecycles(job: Job): InboundEnvelope[] {
  const event = (name: string, phase: 'Running' | 'Succeeded' | 'Failed', seconds: number) =>
    podObservedEvent(aPod({ name, phase }), job, at(seconds));
  return [
    jobObservedEvent(job, at(0)),
    event('a', 'Running', 1), event('b', 'Running', 1), event('c', 'Running', 2),
    event('a', 'Succeeded', 3), event('b', 'Failed', 4), event('c', 'Succeeded', 5),
  ];
}

/** Delivers the events to the writer, `batchSize` per batch; the Job's status after. */
async function written(h: ServiceHarness, job: Job, events: readonly InboundEnvelope[], batchSize = 10) {
  expect(await h.deliver(events, batchSize)).toEqual([]);
  return h.status(jobStream(job));
}

export function describeIngestIdempotency(label: string, factory: ServiceStoreFactory): void {
  describe(`ingest of duplicated and reordered events (${label})`, () => {
    it('stores an event delivered many times, in one batch and in later ones, once', async () => {
      // given a Job and one pod observation, which EventBridge and SQS deliver more than once
      const h = createServiceHarness({ store: (await factory()).store, now: at(10) });
      const job = aJobOfThree();
      const observed = podObservedEvent(aPod({ name: 'a' }), job, at(1));
      const again = { ...observed, id: 'another-eventbridge-id' };

      // when it arrives three times in one batch, then twice more
      expect(await h.deliver([jobObservedEvent(job, at(0)), observed, again, observed])).toEqual([]);
      expect(await h.deliver([again, observed], 1)).toEqual([]);

      // then the log holds it once (after the Job's observation and what the writer decided on it)
      const log = await h.log(jobStream(job));
      expect(log.map((e) => e.type)).toEqual(['JobObserved', 'StartTimeSet', 'PodCreationsRequested', 'PodObserved']);
      expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    });

    it('changes nothing when a whole batch is delivered again after it was written', async () => {
      // given a Job whose events were written and published
      const h = createServiceHarness({ store: (await factory()).store, now: at(10) });
      const job = aJobOfThree();
      const events = podLifecycles(job);
      const status = await written(h, job, events);
      await h.publish();
      const log = await h.log(jobStream(job));

      // when Kinesis redelivers every record
      const again = await written(h, job, events);

      // then the log, the status and the outbox are as they were
      expect(await h.log(jobStream(job))).toEqual(log);
      expect(again).toEqual(status);
      expect(await h.pendingEvents(jobStream(job))).toEqual([]);
    });

    it('gives the same final status whatever order the pod observations arrive in', async () => {
      // given the same cluster history delivered in cluster order, reversed, and interleaved
      const { store } = await factory();
      const orders = [
        (e: InboundEnvelope[]) => e,
        (e: InboundEnvelope[]) => [e[0], ...e.slice(1).reverse()],
        (e: InboundEnvelope[]) => [e[0], e[4], e[1], e[6], e[5], e[2], e[3]],
        (e: InboundEnvelope[]) => [...e.slice(1), e[0]],
      ];

      // when each order is written one event per batch
      const statuses = [];
      for (const order of orders) {
        const h = createServiceHarness({ store, now: at(10) });
        const job = aJobOfThree();
        statuses.push(await written(h, job, order(podLifecycles(job)) as InboundEnvelope[], 1));
      }

      // then every order ends in the same status: 2 succeeded, 1 failed (and its replacement asked for)
      expect(statuses[0]).toMatchObject({ succeeded: 2, failed: 1, active: 1 });
      for (const status of statuses.slice(1)) expect(status).toEqual(statuses[0]);
    });

    it.each([
      { order: 'the terminal observation comes first', terminalFirst: true },
      { order: 'Pod Deleted comes first', terminalFirst: false },
    ])('counts a failed pod once when $order', async ({ terminalFirst }) => {
      // given a running pod that fails and is deleted, its last observation replayed late
      const h = createServiceHarness({ store: (await factory()).store, now: at(10) });
      const job = aJobOfThree();
      const failed = podObservedEvent(aPod({ name: 'a', phase: 'Failed' }), job, at(3));
      const deleted = podDeletedEvent(aPod({ name: 'a' }), job, at(4));
      const replayed = podObservedEvent(aPod({ name: 'a', phase: 'Failed' }), job, at(5));
      const running = [jobObservedEvent(job, at(0)), podObservedEvent(aPod({ name: 'a' }), job, at(1))];

      // when the failure and the deletion arrive in that order, then the replay
      const status = await written(h, job, [...running, ...(terminalFirst ? [failed, deleted] : [deleted, failed]), replayed], 1);

      // then the pod counts as one failure
      expect(status).toMatchObject({ failed: 1, succeeded: 0 });
    });
  });
}
