import fc from 'fast-check';
import type { Observation } from '../../../shared/job/events.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { jobObserved, T0 } from '../../support/builders.ts';
import { describeOrders } from '../order-floors.ts';
import { historyArb, jobArb, type Batch } from './arbitraries.ts';
import { lastTime, measureJobOrders, withClusterVersions } from './causal-orders.ts';

// Issue 21, "Convergence", over generated histories (arbitraries.ts: any Job feature, pods that
// fail, succeed, are disrupted, deleted, suspended and resumed), as corpus-orders does over the
// conformance scenarios: each history's cluster events delivered in random causal orders
// (causal-orders.ts), folded as the writer does, reconciled at the end with the timers due; the
// status must be the one the cluster's own order gives. The histories and the orders are drawn
// from fixed seeds, so the floors in generated-orders.known.json (../order-floors.ts) hold run
// after run; `JOBFOLD_WRITE_KNOWN=1` rewrites them. Generated histories are not all histories a
// cluster could produce (a pod may be seen Running after Succeeded): the cluster's order is
// still the order they are generated in, and the fold must not depend on their arrival.

const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;

/** The history's bus events in the cluster's order: the Job, then every observation but the timers. */
function busEvents(job: Job, batches: readonly Batch[]): Observation[] {
  const events = batches.flatMap((batch) => batch.events).filter((event): event is Observation => event.type !== 'Tick' && 'observedAt' in event);
  return withClusterVersions([jobObserved(job, T0) as Observation, ...events]);
}

const histories = fc
  .sample(jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: historyArb(job) })), { seed: SEED, numRuns: HISTORIES })
  .map((history, n) => ({ id: `history-${n}`, ...history }));

describeOrders('generated Job history', histories, ORDERS, new URL('./generated-orders.known.json', import.meta.url), ({ id, job, batches }) => {
  const observations = busEvents(job, batches);
  const end = lastTime([...observations, ...batches.map((b) => ({ observedAt: b.at }) as Observation)]);
  return measureJobOrders(id, { orders: ORDERS, seed: SEED }, DEFAULT_FOLD_CONFIG, observations, end);
});
