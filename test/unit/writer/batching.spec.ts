import { describe, expect, it } from 'vitest';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import { commandKeys, NoMarkersStore, observationsOf, outboxEvents, sampleEvents, statusOf, writeDeps, writeInBatches } from './write-support.ts';

// Batching never changes a decision: the named-failure sample (an Indexed Job whose pod 3
// fails with exit code 2, matching a FailJob rule; the other four pods are then deleted)
// written by the single writer as one batch, two batches, or one event at a time ends with the
// same log, the same status and the same commands — the paced replay's `failed: 5`.

const sample = observationsOf(sampleEvents('samples/named-failure.jsonl'));
const stream = sample[0]!.stream;
const observations = sample.map((s) => s.observation);

async function written(sizes: number[], cache?: StateCache) {
  const store = new NoMarkersStore();
  await writeInBatches(writeDeps(store, { cache }), stream, observations, sizes);
  const log = (await store.read(stream)).entries.map((e) => `${e.seq} ${e.type} ${e.eventId}`);
  return { status: await statusOf(store, stream), commands: commandKeys(await outboxEvents(store, stream)), log };
}

describe('the single writer decides the same whatever the batches', () => {
  it.each([
    ['one batch', [100]],
    ['two batches', [6, 100]],
    ['two batches split inside a run of equal times', [3, 100]],
    ['one event at a time', [1]],
  ])('named-failure written as %s ends Failed with failed: 5 and terminates the other four pods', async (_label, sizes) => {
    // given the sample, when written in these batches
    const { status, commands, log } = await written(sizes);

    // then the Job failed for the rule, every pod counted failed, the four others terminated
    expect(status.failed).toBe(5);
    expect(status.conditions.map((c) => `${c.type}:${c.reason}`)).toEqual([
      'FailureTarget:PodFailurePolicy_ExitCode2',
      'Failed:PodFailurePolicy_ExitCode2',
    ]);
    expect(commands.filter((c) => c.startsWith('Pod Termination Requested'))).toHaveLength(4);
    // and the log, status and commands equal the one-batch run's
    const whole = await written([100]);
    expect({ status, commands, log }).toEqual(whole);
  });

  it('gives the same with a warm state cache as with a load per batch', async () => {
    const cold = await written([1]);
    const warm = await written([1], new StateCache());
    expect(warm).toEqual(cold);
  });
});
