import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Observation } from '../../../shared/job/events.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import type { Job } from '../../../shared/k8s/job.ts';
import { jobObserved, T0 } from '../../support/builders.ts';
import { readKnown, reportOrders, type Measured } from '../known-floors.ts';
import { historyArb, jobArb, type Batch } from './arbitraries.ts';
import { answeredCommands, converging, deliver, lastTime, withClusterVersions } from './causal-orders.ts';

// Issue 21, "Convergence", over generated histories (arbitraries.ts: any Job feature, pods that
// fail, succeed, are disrupted, deleted, suspended and resumed), as corpus-orders does over the
// conformance scenarios: each history's cluster events delivered in random causal orders
// (causal-orders.ts), folded as the writer does, reconciled at the end with the timers due; the
// status must be the one the cluster's own order gives. The histories and the orders are drawn
// from fixed seeds, so the floors in generated-orders.known.json (../known-floors.ts) hold run
// after run; `JOBFOLD_WRITE_KNOWN=1` rewrites them. Generated histories are not all histories a
// cluster could produce (a pod may be seen Running after Succeeded): the cluster's order is
// still the order they are generated in, and the fold must not depend on their arrival.

const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;
const KNOWN_FILE = new URL('./generated-orders.known.json', import.meta.url);

type Divergence = 'conditions' | 'counts';
const known = readKnown<Divergence>(KNOWN_FILE);

/** The history's bus events in the cluster's order: the Job, then every observation but the timers. */
function busEvents(job: Job, batches: readonly Batch[]): Observation[] {
  const events = batches.flatMap((batch) => batch.events).filter((event): event is Observation => event.type !== 'Tick' && 'observedAt' in event);
  return withClusterVersions([jobObserved(job, T0) as Observation, ...events]);
}

function measure(id: string, job: Job, batches: readonly Batch[]): Measured<Divergence> {
  const observations = busEvents(job, batches);
  const end = lastTime([...observations, ...batches.map((b) => ({ observedAt: b.at }) as Observation)]);
  const inOrder = deliver(DEFAULT_FOLD_CONFIG, observations, observations.map(() => 0), end);
  const want = converging(inOrder.status);
  const answers = answeredCommands(observations, inOrder);
  const keyArb = fc.array(fc.nat({ max: 1_000_000 }), { minLength: observations.length, maxLength: observations.length });
  let matches = 0;
  let firstWrong: Measured<Divergence>['firstWrong'];
  for (const keys of fc.sample(keyArb, { seed: SEED, numRuns: ORDERS })) {
    const delivered = deliver(DEFAULT_FOLD_CONFIG, observations, keys, end, answers);
    const got = converging(delivered.status);
    if (isDeepStrictEqual(got, want)) matches += 1;
    else firstWrong ??= { order: delivered.order, got, want, divergence: isDeepStrictEqual(got.conditions, want.conditions) ? 'counts' : 'conditions' };
  }
  return { id, matches, ...(firstWrong ? { firstWrong } : {}) };
}

const histories = fc
  .sample(jobArb.chain((job) => fc.record({ job: fc.constant(job), batches: historyArb(job) })), { seed: SEED, numRuns: HISTORIES })
  .map((history, n) => ({ id: `history-${n}`, ...history }));
const measured: Measured<Divergence>[] = [];

describe(`${HISTORIES} generated Job histories in ${ORDERS} random causal delivery orders`, () => {
  it.each(histories)('$id', ({ id, job, batches }) => {
    const result = measure(id, job, batches);
    measured.push(result);
    const floor = known[id]?.matches ?? ORDERS;
    expect(result.matches, `${id}: ${result.matches}/${ORDERS} orders end as the cluster's order does (at least ${floor} expected); job ${JSON.stringify(job.spec)}; first wrong order ${JSON.stringify(result.firstWrong)}`).toBeGreaterThanOrEqual(floor);
  });

  afterAll(() => {
    if (measured.length === histories.length) reportOrders('generated Job', measured, ORDERS, KNOWN_FILE);
  });
});
