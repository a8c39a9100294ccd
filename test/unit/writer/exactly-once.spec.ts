import { describe, expect, it } from 'vitest';
import type { StreamId } from '../../../shared/app/event-store.ts';
import { publishPending, type Publisher } from '../../../shared/app/publish.ts';
import { StateCache } from '../../../shared/app/write/state-cache.ts';
import { writeBatch } from '../../../shared/app/write/write-batch.ts';
import { OutboundDetailType, type OutboundEvent } from '../../../shared/contract/outbound.ts';
import { JOBFOLD_CONTROLLER_NAME } from '../../../shared/job/constants.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { anIndexedJob, aPod, at, CLUSTER, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { CrashableStore, SimulatedCrash, type CrashPoint } from '../../support/service-harness.ts';
import { NoMarkersStore, writeDeps } from './write-support.ts';

// Exactly once in effect, for every kind of command: a crash between any two commit steps of the
// writer (every entry its own step here, termination decisions in pages of a few pods), followed
// by Kinesis redelivering the batch, leaves the same log as a run without a crash and publishes
// every command once, under the id the run without a crash gives it: terminations, condition
// notifications, and for a Job jobfold manages its pod creations, status writes and finalizer
// removals. The publisher runs after every attempt, so a command queued before the crash has
// left before the batch is written again.

const limits = { pageBytes: 300, stepBytes: 1 };
const points: CrashPoint[] = ['commit', 'afterCommit'];

interface Scenario {
  readonly stream: StreamId;
  readonly batches: readonly (readonly Observation[])[];
}

function aJobScenario(uid: string, managed: boolean, outcome: 'leader succeeds' | 'a pod fails'): Scenario {
  const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid };
  const pods = 8;
  const spec = {
    successPolicy: { rules: [{ succeededIndexes: '0' }] },
    podFailurePolicy: { rules: [{ action: 'FailJob' as const, onExitCodes: { operator: 'In' as const, values: [3] } }] },
    ...(managed ? { managedBy: JOBFOLD_CONTROLLER_NAME } : {}),
  };
  const job = jobObserved(anIndexedJob(pods, spec, { uid }), at(0));
  const pod = (i: number, options: Parameters<typeof aPod>[0] = {}) => aPod({ index: i, uid: `${uid}-${i}`, ...options });
  const indexes = Array.from({ length: pods }, (_, i) => i);
  const tipper = outcome === 'leader succeeds' ? 0 : 5;
  const tipping = outcome === 'leader succeeds' ? pod(0, { phase: 'Succeeded' }) : pod(5, { phase: 'Failed', exitCode: 3 });
  const others = indexes.filter((i) => i !== tipper);
  return {
    stream,
    batches: [
      [job],
      indexes.flatMap((i) => [podObserved(pod(i, { phase: 'Pending', nodeName: null }), at(1)), podObserved(pod(i, { ready: true }), at(1))]),
      [podObserved(tipping, at(2))],
      // the cluster applies the terminations: each pod fails as it is deleted, then is gone
      others.map((i) => podObserved(pod(i, { phase: 'Failed', exitCode: 143, deletionTimestamp: at(3) }), at(3))),
      [...indexes.map((i) => podDeleted(`${uid}-${i}`, at(4)))],
    ],
  };
}

class RecordingBus implements Publisher {
  readonly sent: OutboundEvent[] = [];
  async publish(events: readonly OutboundEvent[]) {
    this.sent.push(...events);
    return { failed: [] };
  }
}

interface Crash {
  readonly batch: number;
  readonly step: number;
  readonly point: CrashPoint;
}

/** Writes the scenario's batches, crashing once where told; Kinesis redelivers a failed batch. */
async function run(scenario: Scenario, crash?: Crash) {
  const store = new CrashableStore(new NoMarkersStore());
  const deps = writeDeps(store, { limits, cache: new StateCache() });
  const bus = new RecordingBus();
  const stepsPerBatch: number[] = [];
  let crashes = 0;
  for (const [b, batch] of scenario.batches.entries()) {
    let commits = 0;
    store.beforeCommit = async () => {
      commits += 1;
      if (crash?.batch === b && crash.step === commits) store.crashOnce(crash.point);
    };
    for (let delivered = false; !delivered; ) {
      try {
        await writeBatch(deps, scenario.stream, [...batch]);
        delivered = true;
      } catch (error) {
        if (!(error instanceof SimulatedCrash)) throw error;
        if (++crashes > 1) throw new Error('crashed twice');
      }
      while ((await publishPending({ store, publisher: bus, clock: () => at(9) })).items > 0);
    }
    stepsPerBatch.push(commits);
  }
  store.beforeCommit = undefined;
  const log = (await store.read(scenario.stream)).entries.map(({ seq, eventId, type, body, hash }) => ({ seq, eventId, type, body, hash }));
  return { log, sent: bus.sent, stepsPerBatch, crashes };
}

const kinds = (sent: readonly OutboundEvent[]) => {
  const counts: Record<string, number> = {};
  for (const e of sent) counts[e.detailType] = (counts[e.detailType] ?? 0) + 1;
  return counts;
};

const ids = (sent: readonly OutboundEvent[]) => sent.map((e) => `${e.detailType} ${e.commandId}`).sort();

/** Every crash point of the run without a crash: each step of each batch, before and after. */
function crashesOf(stepsPerBatch: readonly number[]): Crash[] {
  return stepsPerBatch.flatMap((steps, batch) =>
    Array.from({ length: steps }, (_, i) => points.map((point) => ({ batch, step: i + 1, point }))).flat());
}

describe.each([
  ['a Job the cluster runs, whose leader succeeds', false, 'leader succeeds'],
  ['a Job the cluster runs, failed by a FailJob rule', false, 'a pod fails'],
  ['a Job jobfold manages, whose leader succeeds', true, 'leader succeeds'],
  ['a Job jobfold manages, failed by a FailJob rule', true, 'a pod fails'],
] as const)('given %s', (_label, managed, outcome) => {
  it('when the writer dies at any commit step, then every command is published exactly once, under the uncrashed run\'s id', async () => {
    // the run without a crash: what every crashed run must reproduce
    const reference = await run(aJobScenario('job', managed, outcome));
    const expected = kinds(reference.sent);
    expect(expected[OutboundDetailType.PodTerminationRequested]).toBe(7);
    expect(expected[OutboundDetailType.JobConditionChanged]).toBe(2);
    if (managed) {
      expect(expected[OutboundDetailType.PodCreationRequested]).toBe(8);
      expect(expected[OutboundDetailType.PodFinalizerRemovalRequested]).toBe(8);
      expect(expected[OutboundDetailType.JobStatusUpdateRequested]).toBeGreaterThan(2);
    }
    expect(new Set(ids(reference.sent)).size).toBe(reference.sent.length);

    const crashes = crashesOf(reference.stepsPerBatch);
    expect(crashes.length).toBeGreaterThan(40);
    for (const crash of crashes) {
      const crashed = await run(aJobScenario('job', managed, outcome), crash);
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
  for (const batch of batches.slice(0, 2)) await writeBatch(writeDeps(store, { limits }), stream, [...batch]);
  store.crashOnce('afterCommit');
  await expect(writeBatch(writeDeps(store, { limits }), stream, [...batches[2]!])).rejects.toThrow(SimulatedCrash);
  expect((await store.read(stream)).entries.at(-1)?.type).toBe('PodsTerminationRequested');
  return { stream, batches, store };
}

async function outcomeOf(store: CrashableStore, stream: StreamId) {
  const bus = new RecordingBus();
  while ((await publishPending({ store, publisher: bus, clock: () => at(9) })).items > 0);
  const sent = (type: string) => bus.sent.filter((e) => e.detailType === type);
  const entries = (await store.read(stream)).entries;
  return {
    terminated: sent(OutboundDetailType.PodTerminationRequested).map((e) => String(e.detail['podUid'])).sort(),
    notified: sent(OutboundDetailType.JobConditionChanged).map((e) => (e.detail['condition'] as { type: string }).type),
    conditions: entries.filter((e) => e.type === 'JobConditionChanged').map((e) => (e.body as { condition: { type: string } }).condition.type),
  };
}

const othersOf = (uid: string) => Array.from({ length: 7 }, (_, i) => `${uid}-${i + 1}`);

describe('given a sync cut short by a crash after its first termination page', () => {
  it('when the writer restarts with another page size, then the rest keeps the sync\'s ids: each pod terminated once, the Job completes, one notification each', async () => {
    const { stream, batches, store } = await cutAfterFirstStep('job-repaged');
    const restarted = writeDeps(store, { limits: { ...limits, pageBytes: 5_000 } });
    for (const batch of batches.slice(2)) await writeBatch(restarted, stream, [...batch]);
    expect(await outcomeOf(store, stream)).toEqual({
      terminated: othersOf('job-repaged'),
      notified: ['SuccessCriteriaMet', 'Complete'],
      conditions: ['SuccessCriteriaMet', 'Complete'],
    });
  });

});
