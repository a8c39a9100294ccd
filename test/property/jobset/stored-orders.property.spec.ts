import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JobSetScenario } from '../../../cli/scenario/jobset-scenario.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { writeBatch, type WriteDeps } from '../../../shared/decide/write-batch.ts';
import { jobSetDecider, type JobSetLogObservation } from '../../../shared/jobset/index.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { NoMarkersStore } from '../../unit/writer/write-support.ts';
import { busEvents, jobSetDeliveryOrders } from './causal-orders.ts';
import {
  dependsOnHistoryArb, historyArb, messagePatternHistoryArb, multiPodHistoryArb, playHistory, ttlHistoryArb, userDeleteHistoryArb,
} from './generated-histories.ts';

// Issues 20, 21: same log => same answer, for JobSets too. A JobSet's snapshot is its whole state
// as JSON (shared/jobset/decider.ts: no archive), so a fold from a snapshot is the snapshot read
// back and the tail folded on it. On every generated population the JobSet order properties draw
// (generated-histories.ts), in the cluster's order and in the random causal orders they deliver
// (causal-orders.ts), each delivery is written through the write loop as it arrives: (1) a writer
// loaded cold for every batch, snapshotting every few entries, logs and commands as one kept warm
// that never snapshots, and (2) the fold of its log to every position, from the newest snapshot at
// or before it, is the replay of the log up to it. writer-jobset-corpus.property.spec.ts writes
// the corpus warm and cold too, but its snapshots (every 50 entries) are seldom reached there.
const SEED = 21;
// 12 histories x (1 + 3) orders a population: ~15 s. JOBFOLD_STORED_HISTORIES / _ORDERS explore further.
const HISTORIES = Number(process.env.JOBFOLD_STORED_HISTORIES ?? 12);
const ORDERS = Number(process.env.JOBFOLD_STORED_ORDERS ?? 3);
const stream: StreamId = { kind: 'JobSet', clusterId: 'c1', namespace: 'default', uid: 'stored' };
const decider = jobSetDecider();

type Arb = typeof historyArb;
const played = (arb: Arb) => fc.sample(arb, { seed: SEED, numRuns: HISTORIES }).map(({ jobSet, steps }, n) => playHistory(`history-${n}`, jobSet, steps));

const POPULATIONS: readonly (readonly [string, Arb])[] = [
  ['generated', historyArb],
  ['multi-pod', multiPodHistoryArb],
  ['dependsOn', dependsOnHistoryArb],
  ['message-pattern', messagePatternHistoryArb],
  ['user-delete', userDeleteHistoryArb as unknown as Arb],
  ['ttl', ttlHistoryArb as unknown as Arb],
];

/** The writer's batches of one delivery: each bus event with an eventId, the Jobs of one cluster event arriving together in one. */
function deliveredBatches(scenario: JobSetScenario, order: readonly number[]): JobSetLogObservation[][] {
  const { observations, batches } = busEvents(scenario);
  const runs: { batch: number; observations: JobSetLogObservation[] }[] = [];
  for (const i of order) {
    const observation = { ...observations[i], eventId: `event-${i}` } as JobSetLogObservation;
    const last = runs.at(-1);
    if (last !== undefined && last.batch === batches[i]) last.observations.push(observation);
    else runs.push({ batch: batches[i] as number, observations: [observation] });
  }
  return runs.map((run) => run.observations);
}

/** The delivery written batch by batch: warm (a cache) or cold (none), snapshotting every `snapshotEvery` entries. */
async function write(batches: readonly JobSetLogObservation[][], warm: boolean, snapshotEvery: number) {
  const store = new NoMarkersStore();
  const deps: WriteDeps = { store, clock: () => '2026-06-01T00:00:00Z', snapshotEvery, ...(warm ? { cache: new StateCache() } : {}) };
  const commands = [];
  for (const batch of batches) commands.push(...(await writeBatch(decider, deps, stream, batch)).commands);
  return { store, commands };
}

/** What a log says, not when it was recorded or what its decisions read. */
async function logged(store: NoMarkersStore) {
  return (await store.read(stream)).entries.map(({ seq, eventId, type, body }) => {
    const { read: _read, ...rest } = body as Record<string, unknown>;
    return { seq, eventId, type, body: rest };
  });
}

async function checkDelivery(scenario: JobSetScenario, order: readonly number[], delivery: number): Promise<void> {
  const batches = deliveredBatches(scenario, order);
  const warm = await write(batches, true, Number.MAX_SAFE_INTEGER);
  // when a writer loaded cold for every batch, snapshotting every 1 to 4 entries, writes the same delivery
  const snapshotEvery = 1 + (delivery % 4);
  const cold = await write(batches, false, snapshotEvery);
  // then it sends and logs as the warm one
  expect({ delivery, commands: cold.commands }).toEqual({ delivery, commands: warm.commands });
  expect({ delivery, log: await logged(cold.store) }).toEqual({ delivery, log: await logged(warm.store) });
  // and the fold of its log to every position from the newest snapshot at or before it is the replay's
  const events = (await cold.store.read(stream)).entries.map((entry) => decider.log.event(entry));
  // (snapshots were taken: the cold writer loaded from them)
  if (events.length >= snapshotEvery) expect(await cold.store.loadSnapshot(stream)).toBeDefined();
  let replay = decider.initialState();
  for (const [i, event] of events.entries()) {
    const seq = i + 1;
    replay = decider.evolve(replay, event);
    const snapshot = await cold.store.loadSnapshot(stream, { atOrBefore: seq });
    let folded = snapshot === undefined ? decider.initialState() : decider.snapshot.restore(JSON.parse(JSON.stringify(snapshot.state)));
    for (const tail of events.slice(snapshot?.seq ?? 0, seq)) folded = decider.evolve(folded, tail);
    expect({ delivery, seq, state: folded }).toEqual({ delivery, seq, state: replay });
  }
}

describe.each(POPULATIONS)('%s JobSet histories, stored as delivered', (population, arb) => {
  it.each(played(arb).map((scenario) => ({ scenario, name: `${population} ${scenario.id}` })))(
    '$name: a cold writer writes as a warm one, and every position folds from snapshots as the replay',
    async ({ scenario }) => {
      for (const [k, order] of jobSetDeliveryOrders(scenario, { orders: ORDERS, seed: SEED }).entries()) await checkDelivery(scenario, order, k);
    },
  );
});
