import { afterEach, describe, expect, it } from 'vitest';
import { seeded } from '../../integration/faults/fault-outcomes.ts';
import type { DeliveredEvent } from '../fake-event-bridge.ts';
import { startHarness, type Harness } from '../harness.ts';
import type { ClusterRelay, DeliveryOrder } from './cluster-relay.ts';
import { playManaged, scenario } from './play-managed.ts';

// Issue 21, "no harmful command from a transient view": a Job jobfold manages, its forwarder's
// observations delivered to the service out of order — shuffled within a step, and about a third
// held back to a later round or step (EventBridge neither orders nor delivers at once), never past
// the point where the scenario's clock moves on by more than a minute (play-managed.ts). Answers
// to jobfold's own commands stay after them by construction: the forwarder reports a pod only once
// it exists. Against the same scenario delivered in the order the forwarder sent it, a shuffled
// run may not terminate more pods that were running or pending on the API server when their
// termination was asked for, nor ask for more pods. Its final status is measured against the
// in-order run's: the cluster's own history follows jobfold's commands, so a decision taken later
// (a held view waits, pod-view-gap.ts) meets a pod the scenario then finishes, where in order it
// was deleted first; those runs are counted, with a floor.

const SCENARIOS = [
  'completions__too-many-active-pods-deletes-excess',
  'completions__status-change-counts-succeeded',
  'indexed__indexed-some-failed-pods-recreated',
  'suspend__suspend-deletes-active-pods',
  'integration:elastic-indexed__scale-down',
  'integration:suspend__resume-suspended-job',
  'integration:basics__indexed-job',
  'backoff-per-index__fail-index-action',
  'pod-replacement__indexed-policy-failed-terminating-pod-blocks-a-slot',
  'completions__work-queue-job-start',
];
const SEEDS = [1, 2, 3, 4, 5, 6];

/** Shuffles what waits on the bus and holds about a third of it back for a later relay. */
function shuffledDelivery(seed: number): DeliveryOrder {
  const random = seeded(seed);
  return (waiting) => {
    const now: DeliveredEvent[] = [];
    const later: DeliveredEvent[] = [];
    for (const event of waiting) (random() < 0.35 ? later : now).push(event);
    for (let i = now.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [now[i], now[j]] = [now[j] as DeliveredEvent, now[i] as DeliveredEvent];
    }
    return { now, later };
  };
}

/** The pods terminated while running or pending on the API server, by cause. */
function healthyTerminations(relay: ClusterRelay): string[] {
  return relay.terminations.filter((t) => t.healthy).map((t) => `${t.podName} (${t.cause})`);
}

/** The status fields that must converge (times left out: a held observation decides later). */
function finalStatus(relay: ClusterRelay): unknown {
  const { conditions, startTime: _s, completionTime: _c, ...counts } = relay.lastStatus ?? {};
  const kept = ((conditions ?? []) as { type: string; status: string; reason?: string }[]).map(({ type, status, reason }) => ({ type, status, reason }));
  return { ...counts, conditions: kept };
}

/** What a shuffled run did beyond the in-order one: more running pods terminated, more pods created. */
function harm(inOrder: ClusterRelay, shuffled: ClusterRelay): string[] {
  const found: string[] = [];
  // Counted, not named: which of two pods of one index goes, or whether a pod goes as a
  // duplicate or for an index the scale-down invalidated, follows the order jobfold saw them in.
  const [before, after] = [healthyTerminations(inOrder), healthyTerminations(shuffled)];
  if (after.length > before.length) found.push(`running pods terminated: ${after.join(', ')} (in order: ${before.join(', ') || 'none'})`);
  if (shuffled.creations > inOrder.creations) found.push(`${shuffled.creations - inOrder.creations} extra pod creation(s)`);
  return found;
}

/**
 * Shuffled runs (of SCENARIOS × SEEDS) ending with the in-order run's status, as measured: only
 * ever raised. 57 of 60 with the wait for missing pod events (seeds 1–12: 116 of 120; on
 * 32bc02e, without it, 119 of 120). The forwarder's timing may interleave a step's Job and pod
 * observations differently from run to run, so it is a floor, not an exact count.
 */
const SAME_STATUS_FLOOR = 54;

let cluster: Harness | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function run(id: string, order?: DeliveryOrder): Promise<ClusterRelay> {
  cluster = await startHarness();
  try {
    return await playManaged(cluster, scenario(id), order);
  } finally {
    await cluster.close();
    cluster = undefined;
  }
}

const sameStatus: string[] = [];
const otherStatus: string[] = [];

describe.each(SCENARIOS)('Managed Job, observations shuffled: %s', (id) => {
  it(`terminates no more running pods and creates no more pods than in order, in ${SEEDS.length} delivery orders`, async () => {
    const inOrder = await run(id);
    const harmful: string[] = [];
    for (const seed of SEEDS) {
      const shuffled = await run(id, shuffledDelivery(seed));
      const found = harm(inOrder, shuffled);
      if (found.length > 0) harmful.push(`seed ${seed}: ${found.join('; ')}`);
      const [got, wanted] = [JSON.stringify(finalStatus(shuffled)), JSON.stringify(finalStatus(inOrder))];
      if (got === wanted) sameStatus.push(`${id} seed ${seed}`);
      else otherStatus.push(`${id} seed ${seed}: ${got} (in order: ${wanted})`);
    }
    expect(harmful).toEqual([]);
  }, 120_000);
});

describe('Managed Jobs, observations shuffled', () => {
  it('end with the in-order status in at least the floor of runs', () => {
    console.log(`shuffled deliveries ending with the in-order status: ${sameStatus.length}/${SCENARIOS.length * SEEDS.length}${otherStatus.map((h) => `\n  ${h}`).join('')}`);
    expect(sameStatus.length, otherStatus.join('\n')).toBeGreaterThanOrEqual(SAME_STATUS_FLOOR);
  });
});
