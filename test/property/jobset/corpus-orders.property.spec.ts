import { isDeepStrictEqual } from 'node:util';
import { describeOrders, measureOrders } from '../order-floors.ts';
import { answeredCommands, busEvents, converging, deliver, jobSetScenarios, lastTime } from './causal-orders.ts';

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
//  - "counts": only replicatedJobsStatus differs (the view of the child Jobs).

const ORDERS = 20;
const SEED = 21;

type Outcome = ReturnType<typeof converging>;

function divergence(got: Outcome, want: Outcome): 'conditions' | 'restarts' | 'counts' {
  if (!isDeepStrictEqual(got.conditions, want.conditions) || got.terminalState !== want.terminalState) return 'conditions';
  if (got.restarts !== want.restarts || got.restartsCountTowardsMax !== want.restartsCountTowardsMax) return 'restarts';
  return 'counts';
}

describeOrders('JobSet scenario', jobSetScenarios(), ORDERS, new URL('./corpus-orders.known.json', import.meta.url), (scenario) => {
  const bus = busEvents(scenario);
  const end = lastTime(scenario);
  const inOrder = deliver(bus, bus.observations.map(() => 0), end);
  const answers = answeredCommands(bus, inOrder);
  return measureOrders(scenario.id, {
    count: bus.observations.length,
    orders: ORDERS,
    seed: SEED,
    want: converging(inOrder.state),
    deliverIn: (keys) => {
      const delivered = deliver(bus, keys, end, answers);
      return { order: delivered.order, got: converging(delivered.state) };
    },
    divergence,
  });
});
