import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventStore } from '../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../shared/log/pod-archive.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent, type InboundEnvelope } from '../../support/inbound-events.ts';
import { createServiceHarness, eventsOfJob, SimulatedCrash, type ServiceHarness } from '../../support/service-harness.ts';
import type { ServiceStoreFactory } from './service-store.ts';

// A Lambda can die anywhere. Each crash point below is followed by what AWS does next (Kinesis
// redelivers the batch to the writer, the publisher's schedule fires) in a fresh process over
// the same table; afterwards nothing is lost and nothing is decided or commanded twice.

const RUNNING = ['p1', 'p2', 'p3'];
/**
 * The decisions the writer logs for the failing Job, in log order: the start and the creations
 * (computed, not sent: the cluster runs the Job) when it is observed, then the failure's.
 */
const DECIDED = ['StartTimeSet', 'PodCreationsRequested', 'PodsTerminationRequested', 'JobConditionChanged'];

/** A Job that fails at its first pod failure: three pods run, p0 failed. */
function failingJobEvents(): { job: Job; events: InboundEnvelope[] } {
  const job = aJob({ completions: 4, parallelism: 4, backoffLimit: 0 }, { uid: randomUUID() });
  const pods = ['p0', ...RUNNING].map((name) => podObservedEvent(aPod({ name }), job, at(1)));
  const failed = podObservedEvent(aPod({ name: 'p0', phase: 'Failed' }), job, at(2));
  return { job, events: [jobObservedEvent(job, at(0)), ...pods, failed] };
}

/** A new Lambda process over the same store (a fresh harness: new handlers, bus and clock). */
const freshProcess = (store: EventStore & PodArchive): ServiceHarness => createServiceHarness({ store, now: at(10) });

/** What the Job's decisions put in the outbox: one termination per running pod, one condition change. */
function expectDecidedOnce(sent: readonly { detailType: string; commandId: string; detail: Record<string, unknown> }[]): void {
  const terminated = sent.filter((e) => e.detailType === 'Pod Termination Requested').map((e) => e.detail['podName']);
  expect(terminated.sort()).toEqual(RUNNING);
  expect(sent.filter((e) => e.detailType === 'Job Condition Changed').map((e) => (e.detail['condition'] as { type: string }).type)).toEqual(['FailureTarget']);
  expect(new Set(sent.map((e) => e.commandId)).size).toBe(sent.length);
}

async function decisionTypes(h: ServiceHarness, job: Job): Promise<string[]> {
  return (await h.log(jobStream(job))).map((e) => e.type).filter((t) => t !== 'PodObserved' && t !== 'JobObserved');
}

export function describeCrashPoints(label: string, factory: ServiceStoreFactory): void {
  describe(`crash points (${label})`, () => {
    it('recovers a batch written by a process that died before acknowledging it: stored and decided once', async () => {
      // given a batch written by a Lambda that died before acknowledging it
      const { store } = await factory();
      const { job, events } = failingJobEvents();
      expect(await freshProcess(store).deliver(events, events.length)).toEqual([]);

      // when Kinesis redelivers the batch to a new process, and the publisher runs
      const h = freshProcess(store);
      expect(await h.deliver(events, events.length)).toEqual([]);
      await h.publish();

      // then every observation is in the log once and everything decided was published once
      const log = await h.log(jobStream(job));
      expect(new Set(log.map((e) => e.eventId)).size).toBe(log.length);
      expect(log.filter((e) => e.type === 'PodObserved' || e.type === 'JobObserved')).toHaveLength(events.length);
      expect(await decisionTypes(h, job)).toEqual(DECIDED);
      expectDecidedOnce(eventsOfJob(h.bus.sent, job.metadata.uid));
    });

    it('shows nothing of a write that crashed before its commit, and the redelivery decides everything once', async () => {
      // given the failing Job's events, and a store that fails the next commit
      const { store } = await factory();
      const { job, events } = failingJobEvents();
      const h = freshProcess(store);
      h.store.crashOnce('commit');

      // when the writer gets the batch
      const failed = await h.deliver(events, events.length);

      // then it reports the batch failed from its first record, and nothing is visible
      expect(failed).toHaveLength(1);
      expect(await h.log(jobStream(job))).toEqual([]);
      expect(await h.pendingEvents(jobStream(job))).toEqual([]);
      expect(await store.findJob({ kind: 'Job', clusterId: jobStream(job).clusterId, namespace: 'default', name: job.metadata.name, uid: job.metadata.uid })).toBeUndefined();
      expect(await store.loadSnapshot(jobStream(job))).toBeUndefined();

      // and when Kinesis redelivers the batch to a new process, everything is decided once
      const retry = freshProcess(store);
      expect(await retry.deliver(events, events.length)).toEqual([]);
      await retry.publish();
      expect(await decisionTypes(retry, job)).toEqual(DECIDED);
      expectDecidedOnce(eventsOfJob(retry.bus.sent, job.metadata.uid));
    });

    it('decides nothing twice when a write crashed after its commit landed and the batch is redelivered', async () => {
      // given a write whose commit landed before its process died
      const { store } = await factory();
      const { job, events } = failingJobEvents();
      const h = freshProcess(store);
      h.store.crashOnce('afterCommit');
      expect(await h.deliver(events, events.length)).toHaveLength(1);

      // when Kinesis redelivers the batch to a new process, and the publisher runs
      const retry = freshProcess(store);
      expect(await retry.deliver(events, events.length)).toEqual([]);
      await retry.publish();

      // then the log and the bus hold each decision once
      expect(await decisionTypes(retry, job)).toEqual(DECIDED);
      expectDecidedOnce(eventsOfJob(retry.bus.sent, job.metadata.uid));
    });

    it('publishes everything once when the publisher died after the commit, before it sent anything', async () => {
      // given a committed write, and a publisher that dies on its first call
      const { store } = await factory();
      const { job, events } = failingJobEvents();
      const h = freshProcess(store);
      expect(await h.deliver(events, events.length)).toEqual([]);
      h.bus.crashAtCall(1);
      await expect(h.publish()).rejects.toThrow(SimulatedCrash);
      expect(eventsOfJob(h.bus.sent, job.metadata.uid)).toEqual([]);

      // when the publisher's schedule fires in a new process
      const later = freshProcess(store);
      await later.publish();

      // then every command went out exactly once, and the outbox is empty
      expectDecidedOnce(eventsOfJob(later.bus.sent, job.metadata.uid));
      expect(await later.pendingEvents(jobStream(job))).toEqual([]);
    });

    it('sends duplicates only under the same commandIds when the publisher died after sending, before marking', async () => {
      // given a committed write, and a store that fails the publisher's first markPublished
      const { store } = await factory();
      const { job, events } = failingJobEvents();
      const h = freshProcess(store);
      expect(await h.deliver(events, events.length)).toEqual([]);
      const outbox = (await h.pendingEvents(jobStream(job))).map((e) => e.commandId).sort();
      h.store.crashOnce('markPublished');
      await expect(h.publish()).rejects.toThrow(SimulatedCrash);

      // when the publisher runs again in a new process, and once more
      const later = freshProcess(store);
      await later.publish();
      await later.publish();

      // then the first run sent everything, the rerun resent it under the same commandIds, and
      // the third run sent nothing
      expectDecidedOnce(eventsOfJob(h.bus.sent, job.metadata.uid));
      expect(eventsOfJob(h.bus.sent, job.metadata.uid).map((e) => e.commandId).sort()).toEqual(outbox);
      expect(eventsOfJob(later.bus.sent, job.metadata.uid).map((e) => e.commandId).sort()).toEqual(outbox);
      expect(await later.pendingEvents(jobStream(job))).toEqual([]);
    });
  });
}
