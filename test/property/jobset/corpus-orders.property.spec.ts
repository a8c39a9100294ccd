import { describeOrders } from '../order-floors.ts';
import { jobSetScenarios, measureJobSetOrders } from './causal-orders.ts';

// Issue 21, "Convergence", for JobSets: every JobSet scenario of the conformance corpora
// (../shared/conformance/jobset, test/conformance/jobset), its bus events delivered in random
// orders that respect causality (causal-orders.ts: only a child Job's deletion answering
// jobfold's DeleteJob waits for it), each run folded and the JobSet settled as the writer and
// the JobSet's reconcile do, then settled at the last time with the timers due: the status
// must be the one the cluster's own order gives.
//
// Where it is not yet, corpus-orders.known.json (../order-floors.ts) records how many of the
// scenario's ORDERS orders end right, and what the first wrong one shows:
//  - "conditions": the conditions or the terminal state differ (a policy decided on a view that
//    lacked evidence the cluster had seen earlier; conditions only move forward);
//  - "restarts": the same conditions, another restart count;
//  - "counts": only replicatedJobsStatus differs (the view of the child Jobs)
// (causal-orders.ts `divergence`).

const ORDERS = 20;
const SEED = 21;

describeOrders('JobSet scenario', jobSetScenarios(), ORDERS, new URL('./corpus-orders.known.json', import.meta.url), (scenario) =>
  measureJobSetOrders(scenario, { orders: ORDERS, seed: SEED }),
);
