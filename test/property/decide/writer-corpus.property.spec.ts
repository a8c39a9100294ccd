import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { playJobScenario, scenarioGates, SCENARIO_CLUSTER } from '../../../cli/scenario/play-job-scenario.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { batchesOfRuns } from '../../../shared/decide/decide-at-each-position.ts';
import { historyArb, jobArb } from '../job/arbitraries.ts';
import { corpus, scenarioObservations } from './corpus-observations.ts';
import { jobObserved, T0 } from '../../support/builders.ts';
import { NoMarkersStore, statusOf, writeDeps, writeJob } from '../../unit/writer/write-support.ts';
import { batchSizesArb, redeliverArb } from './deliveries.ts';

// The single writer over the conformance corpus: every Job scenario written through writeBatch
// (the store, the dedupe against the fold, the catch-up sync, the warm cache or none) in batches
// of random sizes, with random batches delivered twice (Kinesis retries), ends with the status
// and the commands the conformance player gives, and never hands the store an event twice; so
// do generated histories (stamped as a current forwarder sends them): the same log, commands
// and status as writing the whole history in one batch.



const stream: StreamId = { kind: 'Job', clusterId: SCENARIO_CLUSTER, namespace: 'default', uid: 'scenario' };
const commandsOf = (syncs: readonly { commands: readonly unknown[] }[]) => syncs.flatMap((s) => s.commands);

describe('the single writer over the conformance corpus', () => {
  it.each(corpus().map((scenario) => ({ id: scenario.id, scenario })))('$id', async ({ scenario }) => {
    const config = { gates: scenarioGates(scenario), validateSpecs: false };
    const observations = scenarioObservations(scenario);
    const corpusRun = playJobScenario(scenario);
    await fc.assert(
      fc.asyncProperty(
        batchSizesArb,
        redeliverArb,
        fc.boolean(),
        async (sizes, redeliver, warm) => {
          const store = new NoMarkersStore();
          const deps = writeDeps(store, { config, cache: warm ? new StateCache() : undefined });
          const commands = [];
          for (const [i, batch] of batchesOfRuns(observations, sizes).entries()) {
            commands.push(...(await writeJob(deps, stream, batch)).commands);
            if (redeliver[i]) commands.push(...(await writeJob(deps, stream, batch)).commands);
          }
          expect(commands).toEqual(commandsOf(corpusRun.syncs));
          expect(await statusOf(store, stream, config)).toEqual(jobStatus(corpusRun.state));
        },
      ),
      { numRuns: 6 },
    );
  });
});

describe('the single writer over generated histories', () => {
  it('logs and commands the same whatever the batches, redeliveries and warm states', async () => {
    await fc.assert(
      fc.asyncProperty(
        jobArb.chain((job) => fc.tuple(fc.constant(job), historyArb(job))),
        batchSizesArb,
        redeliverArb,
        fc.boolean(),
        async ([job, history], sizes, redeliver, warm) => {
          // As a current forwarder sends them: distinct versions under distinct eventIds (its
          // uid/resourceVersion; the generator's ids name only the phase and time), each stamped
          // with its order among its object's observations.
          const observations = stampedAsForwarded([jobObserved(job, T0), ...history.flatMap((b) => b.events)] as Observation[]);
          const generated: StreamId = { ...stream, clusterId: observations[0]!.clusterId, uid: job.metadata.uid ?? 'job' };
          const whole = new NoMarkersStore();
          const reference = await writeJob(writeDeps(whole), generated, observations);
          const store = new NoMarkersStore();
          const deps = writeDeps(store, { cache: warm ? new StateCache() : undefined });
          const commands = [];
          for (const [i, batch] of batchesOfRuns(observations, sizes).entries()) {
            commands.push(...(await writeJob(deps, generated, batch)).commands);
            if (redeliver[i]) commands.push(...(await writeJob(deps, generated, batch)).commands);
          }
          expect(commands).toEqual(reference.commands);
          expect(await logged(store, generated)).toEqual(await logged(whole, generated));
          expect(await statusOf(store, generated)).toEqual(await statusOf(whole, generated));
        },
      ),
      { numRuns: 100 },
    );
  });
});

/** A log as compared across runs: what each entry says, not when it was recorded or what it read. */
async function logged(store: NoMarkersStore, at: StreamId) {
  return (await store.read(at)).entries.map(({ seq, eventId, type, observedAt, body }) => {
    const { read: _read, ...rest } = body as Record<string, unknown>;
    return { seq, eventId, type, observedAt, body: rest };
  });
}

function stampedAsForwarded(observations: readonly Observation[]): Observation[] {
  const counts = new Map<string, number>();
  return observations.map((o, i) => {
    const uid = o.type === 'PodObserved' ? o.pod.metadata.uid : o.type === 'JobObserved' ? 'job' : undefined;
    const eventId = `${o.eventId}#${i}`;
    if (uid === undefined) return { ...o, eventId };
    const seq = (counts.get(uid) ?? 0) + 1;
    counts.set(uid, seq);
    return { ...o, eventId, sequence: { epoch: 1, seq } };
  });
}
