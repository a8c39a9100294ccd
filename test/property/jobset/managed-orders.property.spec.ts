import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeOrders, describeSafety, type Measured } from '../order-floors.ts';
import { converging, divergence } from './causal-orders.ts';
import { managedDeliveryArb, managedJobSetHistoryArb, playManagedJobSetHistory, type ManagedJobSetHistory } from './managed-histories.ts';
import { foldedInClusterOrder, unsafeCommandsOf } from './managed-safety.ts';

// Issue 21, "Convergence", for JobSets jobfold runs (`managedBy` jobfold's JobSet controller),
// over histories their cluster produces: each is played in a closed loop (managed-histories.ts),
// jobfold's own commands acted on by the simulated cluster, so the child Jobs it asked for exist
// and those it deleted go. A history is played once with every event reaching jobfold in the
// cluster's order, and then in 10 deliveries of its own: the same JobSet and steps (the user's
// suspensions, which Job runs, succeeds or fails, which deletion finishes), each event reaching
// jobfold after a random delay (../in-flight.ts) and the forwarder's lags drawn afresh, so the
// cluster acts on the commands that delivery's jobfold sent, when it sent them. Whatever the
// cluster did after acting on a command reaches jobfold only after it sent it, since the cluster
// made it later. Each delivery must end where its own cluster's events, folded in the cluster's
// order, end. generated-orders.property.spec.ts measures JobSets the cluster's controller runs.
// Histories and deliveries come from fixed seeds, so the floors in managed-orders.known.json
// (../order-floors.ts) hold run after run.
const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;

const drawn = fc.sample(managedJobSetHistoryArb, { seed: SEED, numRuns: HISTORIES }).map((history, n) => ({ id: `history-${n}`, n, ...history }));
const histories = drawn.map(({ id, jobSet, steps }) => playManagedJobSetHistory(id, jobSet, steps));

/** Each history's deliveries, each with a cluster of its own (drawn from the seed and the history's number). */
const deliveries = new Map(
  drawn.map(({ id, n, jobSet, steps }) => [id, fc.sample(managedDeliveryArb(steps), { seed: SEED * 1000 + n, numRuns: ORDERS }).map((delivery) => playManagedJobSetHistory(id, jobSet, steps, delivery))]),
);
const deliveriesOf = (history: ManagedJobSetHistory) => deliveries.get(history.id) ?? [];


function measure(history: ManagedJobSetHistory): Measured {
  let matches = 0;
  let firstWrong: Measured['firstWrong'];
  for (const delivered of deliveriesOf(history)) {
    const want = converging(foldedInClusterOrder(delivered).state);
    const got = converging(delivered.state);
    if (isDeepStrictEqual(got, want)) matches += 1;
    else firstWrong ??= { order: delivered.order, got, want, divergence: divergence(got, want) };
  }
  return { id: history.id, matches, ...(firstWrong ? { firstWrong } : {}) };
}

describeOrders('generated managed JobSet history, closed loop', histories, ORDERS, new URL('./managed-orders.known.json', import.meta.url), measure);

// The delivery in the cluster's order is the closed loop itself: folding its events in that
// order sends exactly the commands its cluster acted on, and ends where it ended.
describe('generated managed JobSet histories', () => {
  it.each(histories)("$id, folded in the cluster's order, sends the commands its cluster acted on", (history) => {
    const inOrder = foldedInClusterOrder(history);
    expect(history.order).toEqual(history.bus.observations.map((_, i) => i));
    expect(inOrder.commands.map((c) => c.commandId)).toEqual(history.sent.map((c) => c.commandId));
    expect(converging(inOrder.state)).toEqual(converging(history.state));
  });
});

/**
 * Issue 21's safety for JobSets jobfold runs, whatever the order (managed-safety.ts): no deletion
 * of a child Job that was healthy in the delivery's own cluster, and no extra creation.
 */
function unsafeCommands(history: ManagedJobSetHistory): string[] {
  return deliveriesOf(history).flatMap((delivered, n) => unsafeCommandsOf(delivered).map((unsafe) => `delivery ${n}: ${unsafe}`));
}

describeSafety(
  'generated managed JobSet history, closed loop',
  'deletes no healthy child Job and creates none twice',
  histories,
  ORDERS,
  new URL('./managed-safety.known.json', import.meta.url),
  unsafeCommands,
);
