import fc from 'fast-check';
import type { Observation } from '../../../shared/job/events.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/k8s/job-controller.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { jobObserved, T0 } from '../../support/builders.ts';
import { describeOrders } from '../order-floors.ts';
import { clusterHistoryArb, elasticClusterHistoryArb, historyArb, jobArb, type Batch } from './arbitraries.ts';
import { busEvents, lastTime, measureJobOrders, withForwarderCounts, withoutPodsAfterFinish } from './causal-orders.ts';

// Issue 21, "Convergence", over generated histories (arbitraries.ts: any Job feature, pods that
// fail, succeed, are disrupted, deleted, suspended and resumed), as corpus-orders does over the
// conformance scenarios: each history's cluster events delivered in random causal orders
// (causal-orders.ts), folded as the writer does, reconciled at the end with the timers due; the
// status must be the one the cluster's own order gives. The histories and the orders are drawn
// from fixed seeds, so the floors in the *.known.json files (../order-floors.ts) hold run after
// run; `JOBFOLD_WRITE_KNOWN=1` rewrites them.
//
// Two populations. Cluster histories (clusterHistoryArb) are ones a cluster can produce: their
// order is a cluster's order, the one issue 21 asks the fold to converge to; without the pods
// first reported after the Job's finish criterion was met (causal-orders.ts
// withoutPodsAfterFinish), which no cluster reports. Free histories
// (historyArb) also have pods resurrected after their deletion, finished pods running again, a
// removed finalizer back: no cluster has such an order, and most of their divergences come from
// that (a stale observation that the free order makes newest); they stay measured, with their
// own floors, so that a change that makes them worse is seen. Elastic histories
// (elasticClusterHistoryArb) are cluster histories in which the user also changes `parallelism`:
// a spec change whose Job observation may arrive before or after the pod events around it. And
// the cluster histories once more with the forwarder's per-Job counts on every pod event.
//
// Each population is drawn from several seeds, each held to its own floors (one known file per
// population, a case's id naming its seed): the rules were found on seed 21 (its cases keep their
// ids, `history-<n>`), and a figure read from one seed overstated the others (seed 21's cluster
// histories of Jobs jobfold does not run ended right in 98 % of deliveries, seeds 7, 8 and 99's in
// 76-77 %). Each seed's figures are printed apart.
const HISTORIES = 60;
const ORDERS = 10;
const SEEDS = [21, 7, 8, 99, 5] as const;

interface History {
  readonly id: string;
  readonly seed: number;
  readonly job: Job;
  readonly batches: readonly Batch[];
}

const generated = (arb: typeof historyArb): History[] =>
  SEEDS.flatMap((seed) =>
    fc
      .sample(jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: arb(job) })), { seed, numRuns: HISTORIES })
      .map((history, n) => ({ id: seed === 21 ? `history-${n}` : `seed-${seed}/history-${n}`, seed, ...history })),
  );

/** How a population's histories reach the bus: as drawn (free), as a cluster reports them, and with the forwarder's counts. */
type Reported = 'free' | 'cluster' | 'counted';

function measure({ id, seed, job, batches }: History, reported: Reported) {
  const drawn = busEvents(job, batches);
  const end = lastTime([...drawn, ...batches.map((b) => ({ observedAt: b.at }) as Observation)]);
  const fromCluster = reported === 'free' ? drawn : withoutPodsAfterFinish(DEFAULT_FOLD_CONFIG, drawn, end);
  const observations = reported === 'counted' ? withForwarderCounts(fromCluster) : fromCluster;
  return measureJobOrders(id, { orders: ORDERS, seed }, DEFAULT_FOLD_CONFIG, observations, end);
}

// Each population's figures are printed for Jobs jobfold runs apart: their histories are drawn
// without jobfold's own commands (jobfold creates and deletes their pods, and a delivery order
// that changes what it decided changes what their cluster does next), so for them the property
// measures the fold against a history their cluster would not have produced. Their convergence
// is measured closed-loop (managed-orders.property.spec.ts, and through the forwarder,
// test/forwarder/managed/managed-job-shuffled.spec.ts); issue 21 asks the open-loop figure of the others.
const runBy = ({ seed, job }: History): string => `seed ${seed}, ${job.spec.managedBy === JOBFOLD_CONTROLLER_NAME ? 'Jobs jobfold runs' : 'other Jobs'}`;

describeOrders('generated cluster Job history', generated(clusterHistoryArb), ORDERS, new URL('./cluster-history-orders.known.json', import.meta.url), (history) => measure(history, 'cluster'), runBy);

describeOrders('generated free Job history', generated(historyArb), ORDERS, new URL('./generated-orders.known.json', import.meta.url), (history) => measure(history, 'free'), runBy);

describeOrders('generated elastic cluster Job history', generated(elasticClusterHistoryArb), ORDERS, new URL('./elastic-history-orders.known.json', import.meta.url), (history) => measure(history, 'cluster'), runBy);

// The cluster histories again, as a current forwarder sends them: every pod event carries its
// Job's count (`jobSeq`, causal-orders.ts withForwarderCounts), so the fold can tell a view with
// a hole in it (shared/job/pod-view-gap.ts). The same histories and orders as the first population.
describeOrders('generated cluster Job history, with the forwarder\'s counts', generated(clusterHistoryArb), ORDERS, new URL('./counted-history-orders.known.json', import.meta.url), (history) => measure(history, 'counted'), runBy);
