import fc from 'fast-check';
import { describeOrders } from '../order-floors.ts';
import { measureJobSetOrders } from './causal-orders.ts';
import { playHistory } from './generated-histories.ts';

// One population of generated JobSet histories measured as generated-orders.property.spec.ts
// measures its three: 60 histories from a fixed seed, each in 10 random causal orders, held to the
// floors of `knownFile` (../order-floors.ts).
const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;

export function describeGeneratedOrders(what: string, arb: fc.Arbitrary<{ jobSet: Parameters<typeof playHistory>[1]; steps: Parameters<typeof playHistory>[2] }>, knownFile: URL): void {
  const histories = fc.sample(arb, { seed: SEED, numRuns: HISTORIES }).map(({ jobSet, steps }, n) => playHistory(`history-${n}`, jobSet, steps));
  describeOrders(what, histories, ORDERS, knownFile, (scenario) => measureJobSetOrders(scenario, { orders: ORDERS, seed: SEED }));
}
