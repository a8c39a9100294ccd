import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobSetScenario } from '../../../cli/replay/jobset-scenario.ts';
import { readKnown, reportOrders, type Measured } from '../known-floors.ts';
import { answeredCommands, busEvents, converging, deliver, jobSetScenarios, lastTime } from './causal-orders.ts';

// Issue 21, "Convergence", for JobSets: every JobSet scenario of the conformance corpora
// (../shared/conformance/jobset, test/conformance/jobset), its bus events delivered in random
// orders that respect causality (causal-orders.ts: only a child Job's deletion answering
// jobfold's DeleteJob waits for it), each run folded and the JobSet settled as the writer and
// the JobSet's reconcile do, then settled at the last time with the timers due: the status
// must be the one the cluster's own order gives.
//
// Where it is not yet, corpus-orders.known.json (../known-floors.ts) records how many of the
// scenario's ORDERS orders end right, and what the first wrong one shows:
//  - "conditions": the conditions or the terminal state differ (a policy decided on a view that
//    lacked evidence the cluster had seen earlier; conditions only move forward);
//  - "restarts": the same conditions, another restart count;
//  - "counts": only replicatedJobsStatus differs (the view of the child Jobs).

const ORDERS = 20;
const SEED = 21;
const KNOWN_FILE = new URL('./corpus-orders.known.json', import.meta.url);

type Divergence = 'conditions' | 'restarts' | 'counts';
const known = readKnown<Divergence>(KNOWN_FILE);

function measure(scenario: JobSetScenario): Measured<Divergence> {
  const bus = busEvents(scenario);
  const count = bus.observations.length;
  const end = lastTime(scenario);
  const inOrder = deliver(bus, bus.observations.map(() => 0), end);
  const want = converging(inOrder.state);
  const answers = answeredCommands(bus, inOrder);
  const keyArb = fc.array(fc.nat({ max: 1_000_000 }), { minLength: count, maxLength: count });
  let matches = 0;
  let firstWrong: Measured<Divergence>['firstWrong'];
  for (const keys of fc.sample(keyArb, { seed: SEED, numRuns: ORDERS })) {
    const delivered = deliver(bus, keys, end, answers);
    const got = converging(delivered.state);
    if (isDeepStrictEqual(got, want)) matches += 1;
    else firstWrong ??= { order: delivered.order, got, want, divergence: divergence(got, want) };
  }
  return { id: scenario.id, matches, ...(firstWrong ? { firstWrong } : {}) };
}

function divergence(got: ReturnType<typeof converging>, want: ReturnType<typeof converging>): Divergence {
  if (!isDeepStrictEqual(got.conditions, want.conditions) || got.terminalState !== want.terminalState) return 'conditions';
  if (got.restarts !== want.restarts || got.restartsCountTowardsMax !== want.restartsCountTowardsMax) return 'restarts';
  return 'counts';
}

const scenarios = jobSetScenarios();
const measured: Measured<Divergence>[] = [];

describe(`every JobSet scenario in ${ORDERS} random causal delivery orders`, () => {
  it.each(scenarios.map((scenario) => ({ id: scenario.id, scenario })))('$id', ({ id, scenario }) => {
    const result = measure(scenario);
    measured.push(result);
    const floor = known[id]?.matches ?? ORDERS;
    expect(result.matches, `${id}: ${result.matches}/${ORDERS} orders end as the cluster's order does (at least ${floor} expected); first wrong order ${JSON.stringify(result.firstWrong)}`).toBeGreaterThanOrEqual(floor);
  });

  it('lists only scenarios of the corpora as known divergences', () => {
    const ids = new Set(scenarios.map((s) => s.id));
    expect(Object.keys(known).filter((id) => !ids.has(id))).toEqual([]);
  });

  afterAll(() => {
    if (measured.length === scenarios.length) reportOrders('JobSet', measured, ORDERS, KNOWN_FILE);
  });
});
