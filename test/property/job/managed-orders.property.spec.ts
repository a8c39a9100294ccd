import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { describeOrders, describeSafety, type Measured } from '../order-floors.ts';
import { foldedInClusterOrder, jobDivergence, jobOutcome, reconciledAtEnd, unwantedCreations } from './causal-orders.ts';
import { managedDeliveryArb, managedHistoryArb, playManagedHistory, type ManagedHistory } from './managed-histories.ts';

// Issue 21, "Convergence", for Jobs jobfold runs (`managedBy`), over histories their cluster
// produces: each is played in a closed loop (managed-histories.ts), jobfold's own commands acted
// on by the simulated cluster, so the pods it asked for exist and those it deleted go. A history
// is played once with every event reaching jobfold as the cluster makes it, and then in 10
// deliveries of its own: the same Job and steps (what the kubelet and the user do, and when),
// each event reaching jobfold after a random delay (../in-flight.ts) and the forwarder's lags
// drawn afresh, so the cluster acts on the commands that delivery's jobfold sent, when it sent
// them; jobfold decides as the writer does and its timers fire as the Scheduler fires them
// (managed-histories.ts, "Time"). Each delivery must end where its own cluster's events, folded
// in that cluster's order, end (causal-orders.ts foldedInClusterOrder). generated-orders.property.spec.ts
// keeps measuring open-loop histories of such Jobs (drawn without jobfold's commands). Histories
// and deliveries come from fixed seeds, so the floors in managed-history-orders.known.json and
// the ceilings in managed-safety.known.json (../order-floors.ts) hold run after run.
const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;

const drawn = fc.sample(managedHistoryArb, { seed: SEED, numRuns: HISTORIES }).map((history, n) => ({ id: `history-${n}`, n, ...history }));
const histories = drawn.map(({ id, job, steps }) => playManagedHistory(id, job, steps));

/** Each history's deliveries, each with a cluster of its own (drawn from the seed and the history's number). */
const deliveries = new Map(
  drawn.map(({ id, n, job, steps }) => [id, fc.sample(managedDeliveryArb(steps), { seed: SEED * 1000 + n, numRuns: ORDERS }).map((delivery) => playManagedHistory(id, job, steps, delivery))]),
);

/** Each delivery must end where its own cluster's events, folded in that cluster's order, end. */
function measure(history: ManagedHistory): Measured {
  let matches = 0;
  let firstWrong: Measured['firstWrong'];
  for (const delivered of deliveries.get(history.id) ?? []) {
    const want = jobOutcome(foldedInClusterOrder(DEFAULT_FOLD_CONFIG, delivered.observations).state);
    const got = jobOutcome(reconciledAtEnd(DEFAULT_FOLD_CONFIG, delivered.state, delivered.observations));
    if (isDeepStrictEqual(got, want)) matches += 1;
    else firstWrong ??= { order: delivered.order, got, want, divergence: jobDivergence(got, want) };
  }
  return { id: history.id, matches, ...(firstWrong ? { firstWrong } : {}) };
}

describeOrders('generated managed Job history, closed loop', histories, ORDERS, new URL('./managed-history-orders.known.json', import.meta.url), measure);

// The delivery in the cluster's order is the closed loop itself: folding its events in that
// order sends exactly the commands its cluster acted on, and ends where it ended; otherwise the
// floors would measure the fold against a history its own commands did not make.
describe('generated managed Job histories', () => {
  it.each(histories)("$id, folded in the cluster's order, sends the commands its cluster acted on", ({ observations, order, sent, state }) => {
    const inOrder = foldedInClusterOrder(DEFAULT_FOLD_CONFIG, observations);
    expect(order).toEqual(observations.map((_, i) => i));
    expect(inOrder.sent.filter((c) => c.type !== 'UpdateJobStatus').map((c) => c.commandId)).toEqual(sent.map((c) => c.commandId));
    expect(jobOutcome(inOrder.state)).toEqual(jobOutcome(reconciledAtEnd(DEFAULT_FOLD_CONFIG, state, observations)));
  });
});

/**
 * Issue 21's safety for Jobs jobfold runs, whatever the order: no deletion of a pod that was
 * healthy in the delivery's own cluster (Pending or Running when jobfold's TerminatePod reached
 * it, the cluster's Job then neither suspended nor running more pods than its parallelism, and
 * never terminated by a fold of its cluster's events in that cluster's order), and no extra
 * creation (no more pods created, after the forwarder's guard, than that fold sends CreatePods,
 * counting no pod that fold wanted when it first saw it: it adopted that one and never sent its
 * CreatePod; an upper bound: that fold reads a spec change the cluster made twice in one second
 * as one, docs/ordering.md).
 */
function unsafeCommands(history: ManagedHistory): string[] {
  const unsafe: string[] = [];
  for (const [n, delivered] of (deliveries.get(history.id) ?? []).entries()) {
    const inOrder = foldedInClusterOrder(DEFAULT_FOLD_CONFIG, delivered.observations).sent;
    const terminatedInOrder = new Set(inOrder.flatMap((c) => (c.type === 'TerminatePod' ? [c.podUid] : [])));
    for (const { uid, running, parallelism, suspended } of delivered.deletedLive) {
      if (!suspended && running <= parallelism && !terminatedInOrder.has(uid)) unsafe.push(`delivery ${n}: deleted healthy ${uid}`);
    }
    // What the cluster made: a CreatePod the forwarder's guard refused (shared/job/creation-guard.ts) created nothing.
    const creations = delivered.created.size;
    const wanted = inOrder.filter((c) => c.type === 'CreatePod').length;
    // Of the pods past that bound, only as many as the fold in the cluster's order did not want
    // when it first saw them (causal-orders.ts unwantedCreations): one it wanted it adopted.
    const unwanted = creations > wanted ? unwantedCreations(DEFAULT_FOLD_CONFIG, delivered.observations, delivered.created).length : 0;
    for (let extra = wanted; extra < Math.min(creations, wanted + unwanted); extra++) unsafe.push(`delivery ${n}: pod ${extra + 1} created, ${wanted} in order`);
  }
  return unsafe;
}

describeSafety(
  'generated managed Job history, closed loop',
  'deletes no healthy pod and creates none too many',
  histories,
  ORDERS,
  new URL('./managed-safety.known.json', import.meta.url),
  unsafeCommands,
);
