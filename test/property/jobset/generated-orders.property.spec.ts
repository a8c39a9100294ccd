import fc from 'fast-check';
import { describeOrders } from '../order-floors.ts';
import { measureJobSetOrders } from './causal-orders.ts';
import { dependsOnHistoryArb, historyArb, multiPodHistoryArb, playHistory } from './generated-histories.ts';

// Issue 21, "Convergence", for JobSets over generated histories (generated-histories.ts: any
// startup, success and failure policy; child Jobs that run, succeed and fail with upstream's
// reasons; restarts and their deletions), as corpus-orders does over the conformance scenarios
// and test/property/job/generated-orders over generated Job histories. Each history is one a
// cluster can produce (played in a closed loop against the JobSet's reconcile); its events are
// delivered in random causal orders (causal-orders.ts: a child Job's deletion that answers
// jobfold's DeleteJob after the reconcile that sent it), and the status must be the one the
// cluster's own order gives. Histories and orders come from fixed seeds, so the floors in
// generated-orders.known.json (../order-floors.ts) hold run after run.
const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;

const played = (arb: typeof historyArb) =>
  fc.sample(arb, { seed: SEED, numRuns: HISTORIES }).map(({ jobSet, steps }, n) => playHistory(`history-${n}`, jobSet, steps));

describeOrders('generated JobSet history', played(historyArb), ORDERS, new URL('./generated-orders.known.json', import.meta.url), (scenario) =>
  measureJobSetOrders(scenario, { orders: ORDERS, seed: SEED }),
);

// Jobs of several pods (multiPodHistoryArb): partly ready snapshots before the Job counts as ready.
describeOrders('generated multi-pod JobSet history', played(multiPodHistoryArb), ORDERS, new URL('./multi-pod-orders.known.json', import.meta.url), (scenario) =>
  measureJobSetOrders(scenario, { orders: ORDERS, seed: SEED }),
);

// Replicated jobs that depend on the one before them (dependsOnHistoryArb).
describeOrders('generated dependsOn JobSet history', played(dependsOnHistoryArb), ORDERS, new URL('./depends-on-orders.known.json', import.meta.url), (scenario) =>
  measureJobSetOrders(scenario, { orders: ORDERS, seed: SEED }),
);
