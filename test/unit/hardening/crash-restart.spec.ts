import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { aJob, aPod, at, withSpec } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent } from '../../support/inbound-events.ts';
import { createServiceHarness, eventsOfJob, type CrashPoint, type ServiceHarness } from '../../support/service-harness.ts';

// Issue 14, "Tests and figures": a crash at each step of ingest, reconcile and publish, for a Job
// with a pending refused update and a pending termination. After the restart (SQS and the stream
// redeliver, the publisher runs again) nothing is lost and nothing is decided twice.

function scenario() {
  const job = aJob({ completions: 3, parallelism: 3, backoffLimit: 0 }, { uid: randomUUID() });
  const refused = jobObservedEvent(withSpec(job, { completionMode: 'Indexed' }), at(1), { eventId: `${job.metadata.uid}/indexed` });
  const events = [
    jobObservedEvent(job, at(0)),
    ...['p0', 'p1', 'p2'].map((name) => podObservedEvent(aPod({ name }), job, at(1))),
    refused,
    podObservedEvent(aPod({ name: 'p0', phase: 'Failed' }), job, at(2)),
  ];
  return { job, events };
}

const fresh = (store: InMemoryEventStore): ServiceHarness => createServiceHarness({ store, now: at(10) });

async function expectEverythingOnce(h: ServiceHarness, job: ReturnType<typeof scenario>['job'], observations: number): Promise<void> {
  const log = await h.log(jobStream(job));
  expect(new Set(log.map((e) => e.eventId)).size).toBe(log.length);
  expect(log.filter((e) => e.type === 'PodObserved' || e.type === 'JobObserved')).toHaveLength(observations);
  const decisions = log.map((e) => e.type).filter((t) => t !== 'PodObserved' && t !== 'JobObserved');
  expect(decisions.filter((t) => t === 'JobUpdateRefused')).toHaveLength(1);
  expect(decisions.filter((t) => t === 'PodsTerminationRequested')).toHaveLength(1);
  expect(decisions.filter((t) => t === 'JobConditionChanged')).toHaveLength(1);
  const sent = eventsOfJob(h.bus.sent, job.metadata.uid);
  expect(sent.filter((e) => e.detailType === 'Pod Termination Requested').map((e) => e.detail['podName']).sort()).toEqual(['p1', 'p2']);
  expect(new Set(sent.map((e) => e.commandId)).size).toBe(sent.length);
}

describe('crash and restart with a pending refused update and a pending termination', () => {
  it('ingest: a batch appended by a process that died before acknowledging it is stored once', async () => {
    const store = new InMemoryEventStore();
    const { job, events } = scenario();
    expect(await fresh(store).deliver(events.slice(0, 3))).toEqual([]); // died after three appends

    const h = fresh(store);
    expect(await h.deliver(events)).toEqual([]);
    expect(await h.tick(jobStream(job))).toEqual({ batchItemFailures: [] });
    await h.publish();
    await expectEverythingOnce(h, job, events.length);
  });

  it.each<CrashPoint>(['commit', 'afterCommit', 'markPublished'])('a crash at %s, then the retry in a new process', async (point) => {
    const store = new InMemoryEventStore();
    const { job, events } = scenario();
    const first = fresh(store);
    expect(await first.deliver(events)).toEqual([]);
    first.store.crashOnce(point);
    await first.tick(jobStream(job));
    await first.publish().catch(() => undefined);

    const h = fresh(store);
    expect(await h.deliver(events)).toEqual([]); // SQS redelivers too
    expect(await h.tick(jobStream(job))).toEqual({ batchItemFailures: [] });
    await h.publish();
    // what the dead process published before its crash counts as published
    const sentBefore = eventsOfJob(first.bus.sent, job.metadata.uid);
    h.bus.sent.unshift(...sentBefore.filter((e) => !h.bus.sent.some((s) => s.commandId === e.commandId && s.detailType === e.detailType)));
    await expectEverythingOnce(h, job, events.length);
  });
});
