import { describe, expect, it } from 'vitest';
import { VersionConflictError, type StreamId } from '../../../shared/log/event-store.ts';
import { sweepPending } from '../../../shared/publish/publish.ts';
import { StateCache } from '../../../shared/decide/state-cache.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import type { Observation } from '../../../shared/job/events.ts';
import { anIndexedJob, aPod, at, CLUSTER, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { CrashableStore, RecordingPublisher, SimulatedCrash, type CrashPoint } from '../../support/service-harness.ts';
import { NoMarkersStore, statusOf, writeDeps, writeJob, type JobWriteDeps } from './write-support.ts';

// A leader-only success policy over many running pods: when the leader succeeds, every other
// pod is terminated by one paged decision committed in several steps. Whatever step the writer
// dies at, the redelivered batch finishes the work: every pod terminated by exactly one command.
// A second writer on the same Job only costs retries.

const PODS = 600;
const small = { pageBytes: 4_000, stepBytes: 12_000 };

function aBigJob(uid: string) {
  const stream: StreamId = { kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid };
  const job = jobObserved(anIndexedJob(PODS, { successPolicy: { rules: [{ succeededIndexes: '0' }] } }, { uid }), at(0));
  const pods = Array.from({ length: PODS }, (_, i) => podObserved(aPod({ index: i, uid: `${uid}-${i}` }), at(1)));
  const leader = podObserved(aPod({ index: 0, uid: `${uid}-0`, phase: 'Succeeded' }), at(2));
  const lingering = pods.slice(1).map((p) => p.pod.metadata.uid);
  return { stream, setup: [job, ...pods] as Observation[], leader, lingering };
}

async function publishAll(store: JobWriteDeps['store']): Promise<OutboundEvent[]> {
  const bus = new RecordingPublisher();
  await sweepPending({ store, publisher: bus, clock: () => at(9) });
  return bus.sent;
}

const terminated = (sent: readonly OutboundEvent[]) =>
  sent.filter((e) => e.detailType === 'Pod Termination Requested').map((e) => String(e.detail['podUid']));

/** Delivers a batch until it is written, as Kinesis retries a failed batch from its start. */
async function deliver(deps: JobWriteDeps, stream: StreamId, batch: Observation[]): Promise<number> {
  for (let tries = 1; tries <= 10; tries++) {
    try {
      await writeJob(deps, stream, batch);
      return tries;
    } catch (error) {
      if (!(error instanceof SimulatedCrash)) throw error;
    }
  }
  throw new Error('never written');
}

describe('the writer recovers from a crash between commit steps', () => {
  const points: CrashPoint[] = ['commit', 'afterCommit'];
  it.each([1, 2, 3, 4])('loses and duplicates no command when it dies around step %i of a paged decision', async (step) => {
    for (const point of points) {
      // given a running big Job, and a store that dies around the n-th step of the next batch
      const { stream, setup, leader, lingering } = aBigJob(`job-${point}-${step}`);
      const store = new CrashableStore(new NoMarkersStore());
      const deps = writeDeps(store, { limits: small, cache: new StateCache() });
      await deliver(deps, stream, setup);
      let commits = 0;
      store.beforeCommit = async () => {
        if (++commits === step) store.crashOnce(point);
      };

      // when the leader's success is written, dies, and the batch is delivered again
      const tries = await deliver(deps, stream, [leader]);
      store.beforeCommit = undefined;

      // then it took a retry, and every lingering pod is terminated by exactly one command
      expect(tries, `${point} ${step}`).toBe(2);
      const sent = terminated(await publishAll(store));
      expect(sent.sort(), `${point} ${step}`).toEqual([...lingering].sort());
      expect(commits).toBeGreaterThan(step);

      // and the Job completes once the cluster reports the deletions
      await deliver(deps, stream, lingering.map((uid) => podDeleted(uid, at(5))));
      const status = await statusOf(store, stream);
      expect(status.conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
    }
  });
});

describe('two writers on one Job', () => {
  it('only cost retries when they write the same batch at once (a retry overlapping)', async () => {
    const { stream, setup, leader, lingering } = aBigJob('job-race-same');
    const store = new NoMarkersStore();
    await writeJob(writeDeps(store, { limits: small }), stream, setup);
    const [a, b] = await Promise.all([
      writeJob(writeDeps(store, { limits: small }), stream, [leader]),
      writeJob(writeDeps(store, { limits: small }), stream, [leader]),
    ]);
    expect(a.attempts + b.attempts).toBeGreaterThan(2);
    const sent = terminated(await publishAll(store));
    expect(sent.sort()).toEqual([...lingering].sort());
    const ids = (await store.read(stream)).entries.map((e) => e.eventId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('only cost retries when their warm states are behind each other', async () => {
    const { stream, setup, leader, lingering } = aBigJob('job-race-stale');
    const store = new NoMarkersStore();
    const first = writeDeps(store, { limits: small, cache: new StateCache() });
    const second = writeDeps(store, { limits: small, cache: new StateCache() });
    await writeJob(first, stream, setup.slice(0, 100));
    await writeJob(second, stream, setup.slice(100, 300));
    // the first writer's warm state is now behind the log: its commit conflicts and it reloads
    const behind = await writeJob(first, stream, setup.slice(300));
    expect(behind.attempts).toBe(2);
    await writeJob(second, stream, [leader]);
    const sent = terminated(await publishAll(store));
    expect(sent.sort()).toEqual([...lingering].sort());
    const ids = (await store.read(stream)).entries.map((e) => e.eventId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives up loudly after maxAttempts lost races, logging nothing twice', async () => {
    // given a Job whose head another writer moves before every commit of this one
    const { stream, setup } = aBigJob('job-race-lost');
    const inner = new NoMarkersStore();
    const store = new CrashableStore(inner);
    await writeJob(writeDeps(store), stream, setup.slice(0, 10));
    let moves = 0;
    store.beforeCommit = async () => {
      moves += 1;
      await inner.commit(stream, { expectedHead: (await inner.read(stream)).head, recordedAt: at(3), entries: [{ eventId: `other-${moves}`, type: 'Tick', observedAt: at(3 + moves), body: { type: 'Tick', eventId: `other-${moves}`, clusterId: CLUSTER, observedAt: at(3 + moves) } }], outbox: [] });
    };
    // when it writes a batch with 4 attempts
    const failing = writeJob(writeDeps(store, { maxAttempts: 4 }), stream, setup.slice(10, 20));
    // then the conflict reaches the caller (the handler fails the Job's records), after 4 tries
    await expect(failing).rejects.toThrow(VersionConflictError);
    expect(moves).toBe(4);
    const ids = (await inner.read(stream)).entries.map((e) => e.eventId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
