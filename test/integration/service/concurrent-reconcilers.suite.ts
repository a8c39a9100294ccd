import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../shared/app/event-store.ts';
import { reconcile } from '../../../shared/app/reconcile.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import type { Decision } from '../../../shared/job/decisions.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podDeletedEvent, podObservedEvent } from '../../support/inbound-events.ts';
import { createServiceHarness, type ServiceHarness } from '../../support/service-harness.ts';
import type { ServiceStoreFactory } from './service-store.ts';

// Lambda may run several reconcilers of one Job at once (retries, a stream shard split, the
// timer). Optimistic concurrency on the log head makes each decision land once.

const RECONCILERS = 8;
const names = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `p${from + i}`);

/** A Job that fails at its first pod failure, with six pods running and p0 failed. */
async function givenAFailingJob(factory: ServiceStoreFactory): Promise<{ h: ServiceHarness; job: Job }> {
  const h = createServiceHarness({ store: (await factory()).store, now: at(10) });
  const job = aJob({ completions: 6, parallelism: 6, backoffLimit: 0 }, { uid: randomUUID() });
  const running = names(0, 5).map((name) => podObservedEvent(aPod({ name }), job, at(1)));
  const failed = podObservedEvent(aPod({ name: 'p0', phase: 'Failed' }), job, at(2));
  expect(await h.deliver([jobObservedEvent(job, at(0)), ...running, failed], 1)).toEqual([]);
  return { h, job };
}

function reconcilers(h: ServiceHarness, job: Job) {
  return Promise.all(Array.from({ length: RECONCILERS }, () => reconcile(h.reconcileDeps, jobStream(job))));
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
  describe(`${RECONCILERS} concurrent reconcilers on one Job (${label})`, () => {
    it('records each condition transition once and terminates each pod with exactly one command', async () => {
      // given a Job whose first pod failure exceeds its backoffLimit of 0
      const { h, job } = await givenAFailingJob(factory);

      // when eight reconcilers run at once, then the terminated pods fail and go, and eight run again
      await reconcilers(h, job);
      const ended = names(1, 5).flatMap((name) => [
        podObservedEvent(aPod({ name, phase: 'Failed' }), job, at(5)),
        podDeletedEvent(aPod({ name }), job, at(5)),
      ]);
      expect(await h.deliver(ended, 1)).toEqual([]);
      h.clock.now = at(6);
      await reconcilers(h, job);

      // then the log holds each transition once, and the outbox one termination per running pod
      const log = await h.log(jobStream(job));
      expect(conditionTransitions(log)).toEqual(once(['FailureTarget=True', 'Failed=True']));
      const outbox = await h.pendingEvents(jobStream(job));
      expect(terminationsByPod(outbox)).toEqual(once(names(1, 5)));
      expect(outbox.filter((e) => e.detailType === 'Job Condition Changed')).toHaveLength(2);
      expect(await h.status(jobStream(job))).toMatchObject({ failed: 6, active: 0, terminating: 0 });
    });

    it('still decides everything once when appends, and the reconciles they trigger, land before their commits', async () => {
      // given the failing Job, and pod events that arrive while the reconcilers work (four new
      // pods, the running ones turning ready): before each commit, the next one is appended and
      // the reconcile its stream record triggers runs to the end, deciding on the newer log
      const { h, job } = await givenAFailingJob(factory);
      const arriving = [
        ...names(6, 9).map((name) => podObservedEvent(aPod({ name }), job, at(3))),
        ...names(1, 5).map((name) => podObservedEvent(aPod({ name, ready: at(3) }), job, at(3))),
      ];
      let triggered = 0;
      h.store.beforeCommit = async () => {
        const next = arriving.shift();
        if (!next) return;
        expect(await h.deliver([next])).toEqual([]);
        triggered++;
        await reconcile(h.reconcileDeps, jobStream(job));
      };

      // when eight reconcilers run at once
      const outcomes = await reconcilers(h, job);

      // then the reconcilers that lost a race retried, and every transition and every pod's
      // termination was still decided exactly once
      expect(triggered).toBe(9);
      expect(Math.max(...outcomes.map((o) => o.attempts))).toBeGreaterThan(1);
      const log = await h.log(jobStream(job));
      expect(conditionTransitions(log)).toEqual(once(['FailureTarget=True']));
      expect(terminationsByPod(await h.pendingEvents(jobStream(job)))).toEqual(once(names(1, 9)));
    });
  });
}
