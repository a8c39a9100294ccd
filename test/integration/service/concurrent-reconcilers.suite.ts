import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../shared/log/event-store.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import type { Decision } from '../../../shared/job/decisions.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobObservedEvent, jobStream, podDeletedEvent, podObservedEvent, type InboundEnvelope } from '../../support/inbound-events.ts';
import { observationsOf, writeJob } from '../../unit/writer/write-support.ts';
import { createServiceHarness, type ServiceHarness } from '../../support/service-harness.ts';
import type { ServiceStoreFactory } from './service-store.ts';

// One writer per Job is the design, but Lambda may still run several writers of one Job at once
// (a retry overlapping the batch it retries, a shard split, a stale warm state). Optimistic
// concurrency on the log head makes each observation and each decision land once.

const WRITERS = 8;
const names = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `p${from + i}`);

/**
 * A Job with six pods running, whose first pod failure (p0's, `failed`) exceeds its backoffLimit
 * of 0; `parallelism` above six leaves room for more pods.
 */
async function givenAJobAboutToFail(factory: ServiceStoreFactory, parallelism = 6): Promise<{ h: ServiceHarness; job: Job; failed: InboundEnvelope }> {
  const h = createServiceHarness({ store: (await factory()).store, now: at(10) });
  const job = aJob({ completions: parallelism, parallelism, backoffLimit: 0 }, { uid: randomUUID() });
  const running = names(0, 5).map((name) => podObservedEvent(aPod({ name }), job, at(1)));
  expect(await h.deliver([jobObservedEvent(job, at(0)), ...running], 1)).toEqual([]);
  const failed = podObservedEvent(aPod({ name: 'p0', phase: 'Failed' }), job, at(2));
  return { h, job, failed };
}

/** A writer of its own process (no warm state); lost races only cost it retries. */
const writerDeps = (h: ServiceHarness) => ({ store: h.store, clock: () => h.clock.now, config: DEFAULT_FOLD_CONFIG, maxAttempts: 40 });

/** Eight writers write the same batch at once. */
function writers(h: ServiceHarness, job: Job, events: readonly InboundEnvelope[]) {
  const observations = observationsOf(events).map((o) => o.observation);
  return Promise.all(Array.from({ length: WRITERS }, () => writeJob(writerDeps(h), jobStream(job), observations)));
}

/** How often each condition transition (`type=status`) was recorded in the log. */
function conditionTransitions(log: readonly LogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of log) {
    const decision = entry.body as Decision;
    if (decision.type !== 'JobConditionChanged') continue;
    const key = `${decision.condition.type}=${decision.condition.status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** How many `Pod Termination Requested` commands the outbox holds for each pod. */
function terminationsByPod(events: readonly OutboundEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of events) {
    if (event.detailType !== 'Pod Termination Requested') continue;
    const podUid = String(event.detail['podUid']);
    counts[podUid] = (counts[podUid] ?? 0) + 1;
  }
  return counts;
}

const once = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, 1]));

export function describeConcurrentReconcilers(label: string, factory: ServiceStoreFactory): void {
  describe(`${WRITERS} concurrent writers on one Job (${label})`, () => {
    it('record each observation and condition transition once and terminate each pod with exactly one command', async () => {
      // given a Job about to fail
      const { h, job, failed } = await givenAJobAboutToFail(factory);

      // when eight writers write the failure at once, then the terminated pods fail and go, and
      // eight writers write that at once
      await writers(h, job, [failed]);
      const ended = names(1, 5).flatMap((name) => [
        podObservedEvent(aPod({ name, phase: 'Failed' }), job, at(5)),
        podDeletedEvent(aPod({ name }), job, at(5)),
      ]);
      h.clock.now = at(6);
      await writers(h, job, ended);

      // then the log holds each observation and transition once, and the outbox one termination per running pod
      const log = await h.log(jobStream(job));
      expect(new Set(log.map((e) => e.eventId)).size).toBe(log.length);
      expect(conditionTransitions(log)).toEqual(once(['FailureTarget=True', 'Failed=True']));
      const outbox = await h.pendingEvents(jobStream(job));
      expect(terminationsByPod(outbox)).toEqual(once(names(1, 5)));
      expect(outbox.filter((e) => e.detailType === 'Job Condition Changed')).toHaveLength(2);
      expect(await h.status(jobStream(job))).toMatchObject({ failed: 6, active: 0, terminating: 0 });
    });

    it('still decide everything once when other batches of the Job land before their commits', async () => {
      // given the Job about to fail (room for ten pods), and pod events that arrive while the
      // writers work (the four pods still to come, the running ones turning ready): before each
      // commit, the next one is written by another writer first
      const { h, job, failed } = await givenAJobAboutToFail(factory, 10);
      const arriving = [
        ...names(6, 9).map((name) => podObservedEvent(aPod({ name }), job, at(3))),
        ...names(1, 5).map((name) => podObservedEvent(aPod({ name, ready: at(3) }), job, at(3))),
      ];
      let landed = 0;
      h.store.beforeCommit = async () => {
        const next = arriving.shift();
        if (!next) return;
        await writeJob(writerDeps(h), jobStream(job), observationsOf([next]).map((o) => o.observation));
        landed++;
      };

      // when eight writers write the failure at once
      const outcomes = await writers(h, job, [failed]);
      h.store.beforeCommit = undefined;

      // then the writers that lost a race retried, and every observation and every pod's
      // termination was still logged exactly once
      expect(landed).toBe(9);
      expect(Math.max(...outcomes.map((o) => o.attempts))).toBeGreaterThan(1);
      const log = await h.log(jobStream(job));
      expect(new Set(log.map((e) => e.eventId)).size).toBe(log.length);
      expect(terminationsByPod(await h.pendingEvents(jobStream(job)))).toEqual(once(names(1, 9)));

      // and once the cluster reports the terminated pods gone, each transition is logged once
      const gone = names(1, 9).map((name) => podDeletedEvent(aPod({ name }), job, at(5)));
      expect(await h.deliver(gone, gone.length)).toEqual([]);
      expect(conditionTransitions(await h.log(jobStream(job)))).toEqual(once(['FailureTarget=True', 'Failed=True']));
    });
  });
}
