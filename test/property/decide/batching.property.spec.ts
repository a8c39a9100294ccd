import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { playJobScenario, scenarioGates } from '../../../cli/scenario/play-job-scenario.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { DEFAULT_FOLD_CONFIG, initialState, type FoldConfig } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { evolve } from '../../../shared/job/evolve.ts';
import { batchesOfRuns, decideAtEachPosition } from '../../../shared/decide/decide-at-each-position.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import { jobObserved, T0 } from '../../support/builders.ts';
import { historyArb, jobArb } from '../job/arbitraries.ts';
import { corpus, scenarioObservations } from './corpus-observations.ts';
import { batchSizesArb } from './deliveries.ts';

// Batching never changes a decision: the same observations, reconciled in batches of any size
// (1, 2, …, all runs of equal observedAt), leave the same log — the same decisions at the same
// positions, hence the same status and commands at every checkpoint.

/** Plays observations in the given batches; returns the log and every sync's commands. */
function play(config: FoldConfig, observations: readonly Observation[], runsPerBatch: readonly number[]) {
  const decider = jobDecider(config);
  const state = decider.initialState();
  const syncs = [];
  const log = [];
  const stream = { kind: 'Job', clusterId: 'c', namespace: 'default', uid: 'job' } as const;
  for (const batch of batchesOfRuns(observations, runsPerBatch)) {
    const decided = decideAtEachPosition(decider, state, batch, { stream });
    // where in its batch a sync's run ended is the batching's, not the log's
    syncs.push(...decided.syncs.map(({ lastObservation: _at, ...sync }) => sync));
    log.push(...decided.entries);
  }
  // the status at every checkpoint (after each sync's decisions), read back from the log alone
  const replay = initialState(config);
  const statusAfter = new Map<number, unknown>();
  const ends = new Set(syncs.map((s) => s.afterSeq + s.decisions.length));
  for (const event of log) {
    evolve(replay, event);
    if (ends.has(replay.position)) statusAfter.set(replay.position, jobStatus(replay));
  }
  return { state, syncs, log, status: jobStatus(state), statusAfter };
}

describe('deciding at each position: conformance corpus in batches of any size', () => {
  it.each(corpus().map((scenario) => ({ id: scenario.id, scenario })))('$id', ({ scenario }) => {
    const config = { gates: scenarioGates(scenario), validateSpecs: false };
    const observations = scenarioObservations(scenario);
    const reference = play(config, observations, [1]);
    // one run per batch is the corpus's execution model: the same syncs as the conformance player
    const corpusRun = playJobScenario(scenario);
    const commandsOf = (syncs: readonly { commands: readonly unknown[] }[]) => syncs.map((s) => s.commands).filter((c) => c.length > 0);
    expect(commandsOf(reference.syncs)).toEqual(commandsOf(corpusRun.syncs));
    expect(reference.status).toEqual(jobStatus(corpusRun.state));
    fc.assert(
      fc.property(batchSizesArb, (sizes) => {
        const batched = play(config, observations, sizes);
        expect(batched.log).toEqual(reference.log);
        expect(batched.syncs).toEqual(reference.syncs);
        expect(batched.statusAfter).toEqual(reference.statusAfter);
        expect(batched.status).toEqual(reference.status);
      }),
      { numRuns: 15 },
    );
  });
});

describe('deciding at each position: generated histories in batches of any size', () => {
  it('leaves the same log, status and commands whatever the batch sizes', () => {
    fc.assert(
      fc.property(
        jobArb.chain((job) => fc.tuple(fc.constant(job), historyArb(job), batchSizesArb)),
        ([job, history, sizes]) => {
          const observations = [jobObserved(job, T0), ...history.flatMap((b) => b.events)] as Observation[];
          const all = [observations.length];
          const reference = play(DEFAULT_FOLD_CONFIG, observations, [1]);
          for (const runs of [sizes, all]) {
            const batched = play(DEFAULT_FOLD_CONFIG, observations, runs);
            expect(batched.log).toEqual(reference.log);
            expect(batched.syncs).toEqual(reference.syncs);
            expect(batched.statusAfter).toEqual(reference.statusAfter);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
