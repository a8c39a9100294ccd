import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAtEachPosition } from '../../../shared/decide/decide-at-each-position.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import { DEFAULT_FOLD_CONFIG, initialState } from '../../../shared/job/state.ts';
import { sameInstant } from '../../../shared/k8s/time.ts';
import { describeOrders } from '../order-floors.ts';
import { JOB_STREAM, lastTime, measureJobOrders } from './causal-orders.ts';
import { managedHistoryArb, playManagedHistory, type ManagedHistory } from './managed-histories.ts';

// Issue 21, "Convergence", for Jobs jobfold runs (`managedBy`), over histories their cluster
// produces: each is played in a closed loop (managed-histories.ts), jobfold's own commands acted
// on by the simulated cluster, so the pods it asked for exist and those it deleted go. Its events
// (the forwarder's, each pod event with its Job's count, and jobfold's timers) are delivered in
// random causal orders (causal-orders.ts: a pod's deletion jobfold asked for after the reconcile
// that asked, and a pod jobfold created first seen after the reconcile that created it), folded
// as the writer does, each timer the delivery's own jobfold asks for fired before the first event
// observed after it, reconciled at the end with the timers due; the status must be the one the
// cluster's own order gives. generated-orders.property.spec.ts keeps measuring open-loop
// histories of such Jobs (drawn without jobfold's commands); this is the figure issue 21 asks
// for them. Histories and orders come from fixed seeds, so the floors in
// managed-history-orders.known.json (../order-floors.ts) hold run after run.
const HISTORIES = 60;
const ORDERS = 10;
const SEED = 21;

const histories = fc.sample(managedHistoryArb, { seed: SEED, numRuns: HISTORIES }).map(({ job, steps }, n) => playManagedHistory(`history-${n}`, job, steps));

const measure = ({ id, observations, created }: ManagedHistory) =>
  measureJobOrders(id, { orders: ORDERS, seed: SEED }, DEFAULT_FOLD_CONFIG, observations, lastTime(observations), created);

describeOrders('generated managed Job history, closed loop', histories, ORDERS, new URL('./managed-history-orders.known.json', import.meta.url), measure);

/** The commands (status writes left out) a fold of the events in the cluster's order sends, run by run as the writer decides. */
function sentInOrder(observations: readonly Observation[]): string[] {
  const state = initialState(DEFAULT_FOLD_CONFIG);
  const decider = jobDecider(DEFAULT_FOLD_CONFIG);
  const sent: string[] = [];
  for (let start = 0; start < observations.length; ) {
    let end = start + 1;
    while (end < observations.length && sameInstant((observations[end] as Observation).observedAt, (observations[start] as Observation).observedAt)) end += 1;
    const { syncs } = decideAtEachPosition(decider, state, observations.slice(start, end), { stream: JOB_STREAM });
    sent.push(...syncs.flatMap((sync) => sync.commands).filter((c) => c.type !== 'UpdateJobStatus').map((c) => c.commandId));
    start = end;
  }
  return sent;
}

// The in-order delivery is the closed loop itself: otherwise the floors would measure the fold
// against a history its own commands did not make.
describe('generated managed Job histories', () => {
  it.each(histories)('$id, folded in the cluster\'s order, sends the commands its cluster acted on', ({ observations, sent }) => {
    expect(sentInOrder(observations)).toEqual(sent);
  });
});
