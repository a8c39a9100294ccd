import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { sweepPending } from '../../../shared/publish/publish.ts';
import { OutboundDetailType } from '../../../shared/contract/outbound.ts';
import { at } from '../../support/builders.ts';
import { CrashableStore, RecordingPublisher, SimulatedCrash } from '../../support/service-harness.ts';
import { crashesOf, ids, kinds } from '../../support/crashing-run.ts';
import { aJobScenario, limits, run } from './exactly-once-support.ts';
import { NoMarkersStore, writeDeps, writeJob } from './write-support.ts';

// Exactly once in effect, for every kind of command: a crash between any two commit steps of the
// writer (every entry its own step here, termination decisions in pages of a few pods), followed
// by Kinesis redelivering the batch, leaves the same log as a run without a crash and publishes
// every command once, under the id the run without a crash gives it: terminations, condition
// notifications, and for a Job jobfold manages its pod creations, status writes and finalizer
// removals. The publisher runs after every attempt, so a command queued before the crash has
// left before the batch is written again.

describe.each([
  ['a Job the cluster runs, whose leader succeeds', false, 'leader succeeds'],
  ['a Job the cluster runs, failed by a FailJob rule', false, 'a pod fails'],
  ['a Job jobfold manages, whose leader succeeds', true, 'leader succeeds'],
  ['a Job jobfold manages, failed by a FailJob rule', true, 'a pod fails'],
] as const)('given %s', (_label, managed, outcome) => {
  it('when the writer dies at any commit step, then every command is published exactly once, under the uncrashed run\'s id', async () => {
    // the run without a crash: what every crashed run must reproduce
    const reference = await run(aJobScenario('job', managed, outcome), new NoMarkersStore());
    const expected = kinds(reference.sent);
    expect(expected[OutboundDetailType.TerminatePod]).toBe(7);
    expect(expected[OutboundDetailType.JobConditionChanged]).toBe(2);
    if (managed) {
      expect(expected[OutboundDetailType.CreatePod]).toBe(8);
      expect(expected[OutboundDetailType.RemovePodFinalizer]).toBe(8);
      expect(expected[OutboundDetailType.UpdateJobStatus]).toBeGreaterThan(2);
    }
    expect(new Set(ids(reference.sent)).size).toBe(reference.sent.length);

    const crashes = crashesOf(reference.stepsPerBatch);
    expect(crashes.length).toBeGreaterThan(40);
    for (const crash of crashes) {
      const crashed = await run(aJobScenario('job', managed, outcome), new NoMarkersStore(), crash);
      const where = `${crash.point} step ${crash.step} of batch ${crash.batch}`;
      expect(crashed.crashes, where).toBe(1);
      // then the log is the one a run without a crash writes
      expect(crashed.log, where).toEqual(reference.log);
      // and each command left once, with the id it has without a crash
      expect(ids(crashed.sent), where).toEqual(ids(reference.sent));
      expect(kinds(crashed.sent), where).toEqual(expected);
    }
  });
});

/** Writes batches 0–1, then dies right after the first commit step of the tipping batch. */
async function cutAfterFirstStep(uid: string) {
  const { stream, batches } = aJobScenario(uid, false, 'leader succeeds');
  const store = new CrashableStore(new NoMarkersStore());
  for (const batch of batches.slice(0, 2)) await writeJob(writeDeps(store, { limits }), stream, [...batch]);
  store.crashOnce('afterCommit');
  await expect(writeJob(writeDeps(store, { limits }), stream, [...batches[2]!])).rejects.toThrow(SimulatedCrash);
  expect((await store.read(stream)).entries.at(-1)?.type).toBe('PodsTerminationRequested');
  return { stream, batches, store };
}

async function outcomeOf(store: CrashableStore, stream: StreamId) {
  const bus = new RecordingPublisher();
  await sweepPending({ store, publisher: bus, clock: () => at(9) });
  const sent = (type: string) => bus.sent.filter((e) => e.detailType === type);
  const entries = (await store.read(stream)).entries;
  return {
    terminated: sent(OutboundDetailType.TerminatePod).map((e) => String(e.detail['podUid'])).sort(),
    notified: sent(OutboundDetailType.JobConditionChanged).map((e) => (e.detail['condition'] as { type: string }).type),
    conditions: entries.filter((e) => e.type === 'JobConditionChanged').map((e) => (e.body as { condition: { type: string } }).condition.type),
  };
}

const othersOf = (uid: string) => Array.from({ length: 7 }, (_, i) => `${uid}-${i + 1}`);

describe('given a sync cut short by a crash after its first termination page', () => {
  it('when the writer restarts with another page size, then the rest keeps the sync\'s ids: each pod terminated once, the Job completes, one notification each', async () => {
    const { stream, batches, store } = await cutAfterFirstStep('job-repaged');
    const restarted = writeDeps(store, { limits: { ...limits, pageBytes: 5_000 } });
    for (const batch of batches.slice(2)) await writeJob(restarted, stream, [...batch]);
    expect(await outcomeOf(store, stream)).toEqual({
      terminated: othersOf('job-repaged'),
      notified: ['SuccessCriteriaMet', 'Complete'],
      conditions: ['SuccessCriteriaMet', 'Complete'],
    });
  });

});
