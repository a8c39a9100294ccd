import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CORPUS_ROOT, scenarioFiles } from '../../../cli/conformance/run.ts';
import { isJobSetScenario, JobSetScenarioSchema, type JobSetScenario } from '../../../cli/scenario/jobset-scenario.ts';
import { playJobSetScenario } from '../../../cli/scenario/play-jobset-scenario.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { batchesOfRuns } from '../../../shared/decide/decide-at-each-position.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { writeBatch, type WriteDeps } from '../../../shared/decide/write-batch.ts';
import { jobSetDecider, jobSetStatus, listChildJobs, type JobSetLogObservation } from '../../../shared/jobset/index.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { NoMarkersStore } from '../../unit/writer/write-support.ts';
import { playHistory, spacedHistoryArb } from '../jobset/generated-histories.ts';
import { batchSizesArb, redeliverArb } from './deliveries.ts';

// The single writer over the JobSet conformance corpus, as over the Job corpus
// (writer-corpus.property.spec.ts): every JobSet scenario written through the write loop with
// the JobSet decider (the store, the dedupe against the fold, a sync at each position, the warm
// cache or none) in batches of random sizes, with random batches delivered twice (Kinesis
// retries), ends with the commands and the status the conformance player gives, and writes the
// same log as one sync per batch — so the JobSet's decisions depend on its log alone, never on
// how its events were delivered. The JobSet is observed a second before the scenario's first
// event, so that it is its own sync (the corpus's checkpoint 0); times are not compared.

const DIR = join(DEFAULT_CORPUS_ROOT, 'jobset');
const stream: StreamId = { kind: 'JobSet', clusterId: 'c1', namespace: 'default', uid: 'scenario' };
const decider = jobSetDecider();

function corpus(): JobSetScenario[] {
  return scenarioFiles([DIR])
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown)
    .filter(isJobSetScenario)
    .map((document) => JobSetScenarioSchema.parse(document));
}

/**
 * The scenario as the writer would log it, from the observations the conformance player
 * logged: each with an eventId, a child Job's snapshots with a uid (its name and restart attempt:
 * the one its labels give, or for a deletion the one of the Job the player's view holds, which
 * jobfold may have created) and the order stamp its Job log would give them — as jobfold's own
 * child-Job reports carry them. The JobSet is observed a second before the first event.
 */
function scenarioObservations(scenario: JobSetScenario, player: ReturnType<typeof playJobSetScenario>): JobSetLogObservation[] {
  const first = scenario.events[0]?.at ?? '2026-01-01T00:00:00Z';
  const observedAt = new Date(Date.parse(first) - 1000).toISOString().replace('.000', '');
  const attempts = new Map<string, number | string>();
  const stamps = new Map<string, number>();
  const observations: JobSetLogObservation[] = [];
  let n = 0;
  for (const { event } of player.log) {
    switch (event.type) {
      case 'CreateJobIssued':
        attempts.set(event.name, event.restartAttempt);
        break;
      case 'JobSetObserved':
        observations.push({ ...event, eventId: `event-${n}`, at: n === 0 ? observedAt : event.at });
        n += 1;
        break;
      case 'JobObserved': {
        const name = event.job.metadata.name;
        attempts.set(name, event.job.metadata.labels?.['jobset.sigs.k8s.io/restart-attempt'] ?? 'x');
        const uid = `${name}-a${attempts.get(name)}`;
        const seq = (stamps.get(uid) ?? 0) + 1;
        stamps.set(uid, seq);
        observations.push({ ...event, eventId: `event-${n}`, sequence: { epoch: 0, seq }, job: { ...event.job, metadata: { ...event.job.metadata, uid } } });
        n += 1;
        break;
      }
      case 'JobDeleted':
        observations.push({ ...event, eventId: `event-${n}`, uid: `${event.name}-a${attempts.get(event.name) ?? 0}` });
        n += 1;
        break;
      default:
        break;
    }
  }
  return observations;
}

/** What a log says, not when it was recorded or what its decisions read. */
async function logged(store: NoMarkersStore) {
  return (await store.read(stream)).entries.map(({ seq, eventId, type, body }) => {
    const { read: _read, ...rest } = body as Record<string, unknown>;
    return { seq, eventId, type, body: rest };
  });
}

/** The status as the corpus compares it: conditions without their transition times. */
async function statusOf(store: NoMarkersStore) {
  const { state } = await loadState(decider, store, stream);
  const status = jobSetStatus(state);
  return {
    ...status,
    conditions: status.conditions.map(({ type, status: s, reason, message }) => ({ type, status: s, reason, message })),
    childJobs: listChildJobs(state),
  };
}

async function write(observations: readonly JobSetLogObservation[], sizes: readonly number[], redeliver: readonly boolean[], warm: boolean) {
  const store = new NoMarkersStore();
  const deps: WriteDeps = { store, clock: () => '2026-06-01T00:00:00Z', ...(warm ? { cache: new StateCache() } : {}) };
  const commands = [];
  for (const [i, batch] of batchesOfRuns(observations, sizes, (o) => o.at).entries()) {
    commands.push(...(await writeBatch(decider, deps, stream, batch)).commands);
    if (redeliver[i]) commands.push(...(await writeBatch(decider, deps, stream, batch)).commands);
  }
  return { store, commands };
}

/**
 * The scenario written one sync per batch gives the conformance player's commands and status;
 * written in random batches, some delivered twice, with a warm cache or none, it gives the same
 * commands, log and status.
 */
async function writesAsPlayed(scenario: JobSetScenario): Promise<void> {
  const player = playJobSetScenario(scenario);
  const observations = scenarioObservations(scenario, player);
  // one sync per batch: the conformance player's model, command for command
  const reference = await write(observations, [1], [], false);
  expect(reference.commands).toEqual(player.syncs.flatMap((sync) => sync.commands));
  const playerStatus = jobSetStatus(player.state);
  const referenceStatus = await statusOf(reference.store);
  expect(referenceStatus).toMatchObject({
    conditions: playerStatus.conditions.map(({ type, status, reason, message }) => ({ type, status, reason, message })),
    terminalState: playerStatus.terminalState,
    restarts: playerStatus.restarts,
    restartsCountTowardsMax: playerStatus.restartsCountTowardsMax,
    replicatedJobsStatus: playerStatus.replicatedJobsStatus,
  });
  const referenceLog = await logged(reference.store);
  await fc.assert(
    fc.asyncProperty(
      batchSizesArb,
      redeliverArb,
      fc.boolean(),
      async (sizes, redeliver, warm) => {
        const batched = await write(observations, sizes, redeliver, warm);
        expect(batched.commands).toEqual(reference.commands);
        expect(await logged(batched.store)).toEqual(referenceLog);
        expect(await statusOf(batched.store)).toEqual(referenceStatus);
      },
    ),
    { numRuns: 10 },
  );
}

describe('the single writer over the JobSet conformance corpus', () => {
  const scenarios = corpus();

  it('covers every JobSet scenario', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(35);
  });

  it.each(scenarios.map((scenario) => ({ id: scenario.id, scenario })))('$id', async ({ scenario }) => {
    await writesAsPlayed(scenario);
  });
});

// The same over generated JobSet histories (test/property/jobset/generated-histories.ts): JobSets
// a cluster can take through restarts, successes and failures under any policy, each event in a
// second of its own (the writer decides once per run of equal times; the player after each event).
describe('the single writer over generated JobSet histories', () => {
  const histories = fc.sample(spacedHistoryArb, { seed: 21, numRuns: 30 }).map(({ jobSet, steps }, n) => playHistory(`history-${n}`, jobSet, steps));

  it.each(histories.map((scenario) => ({ id: scenario.id, scenario })))('$id', async ({ scenario }) => {
    await writesAsPlayed(scenario);
  });
});
