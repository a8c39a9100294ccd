import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventStore, ReadOptions, ReadResult, StreamId } from '../../../shared/log/event-store.ts';
import { jsonBytes, MAX_COMMAND_DETAIL_BYTES } from '../../../shared/log/event-store-limits.ts';
import { ForwardingStore } from '../../../shared/log/forwarding-store.ts';
import { decisionEntry } from '../../../shared/job/log-codec.ts';
import { OUTBOX_PAGE_TYPE, type OutboxPageDetail } from '../../../shared/outbox/outbox-page.ts';
import type { PodArchive } from '../../../shared/log/pod-archive.ts';
import { publishPending, sweepPending, PROGRESS_EVERY } from '../../../shared/publish/publish.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { writeBatch, type WriteDeps } from '../../../shared/decide/write-batch.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import type { Observation } from '../../../shared/job/events.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { anIndexedJob, aPod, at, jobObserved, podDeleted, podObserved } from '../../support/builders.ts';
import { CrashableStore, RecordingPublisher, SimulatedCrash, type CrashPoint } from '../../support/service-harness.ts';
import type { ServiceStoreFactory } from './service-store.ts';

// A decision over thousands of pods, through the one write loop: an Indexed Job whose leader
// (index 0) succeeds while every other pod runs; the success policy terminates them all. Every
// termination is published exactly once, the Job completes after the deletions, and a crash
// between any two steps of the paged commit (the leader's batch delivered again, as Kinesis
// does) or of the publisher's walk loses nothing and duplicates nothing (a crash after a run
// reached the bus, before its checkpoint, re-sends exactly that run, under the same commandIds).
// The outbox items carry the pods (names and uids) with each termination's reason, message and
// cause, so the publisher never reads the log, except for an item an older version wrote in the
// log-range form.

export interface BigDecisionOptions {
  readonly pods: number;
  /** Small pages and steps so that a few thousand pods make many of each. */
  readonly limits?: WriteDeps['limits'];
  /** Pod names padded to this length (long names make big pages with fewer pods). */
  readonly nameLength?: number;
  /** Pods of the Jobs of the crash tests (default: `pods`); 0 leaves them out. */
  readonly crashPods?: number;
  /** Limits of the crash tests (default: `limits`). */
  readonly crashLimits?: WriteDeps['limits'];
  /** Whether to run the writer crash tests around each commit step (default true); the publisher crash tests always run. */
  readonly commitCrashes?: boolean;
  /** Per-test timeout (DynamoDB Local takes ~10 ms a write). */
  readonly timeout?: number;
}

/** A bus that records what it was given, and can die once on its n-th call. */
const decider = jobDecider(DEFAULT_FOLD_CONFIG);

/** The running Job, written (and decided) by the writer; the leader's success is not delivered yet. */
async function givenRunningJob(store: EventStore & PodArchive, options: BigDecisionOptions): Promise<{ stream: StreamId; leader: Observation; podUids: string[]; podNames: string[] }> {
  const pods = options.pods;
  const name = (i: number) => `pod-${i}-`.padEnd(options.nameLength ?? 0, 'x');
  const uid = randomUUID();
  const job = anIndexedJob(pods, { successPolicy: { rules: [{ succeededIndexes: '0' }] } }, { uid });
  const stream: StreamId = { kind: 'Job', clusterId: 'test-cluster', namespace: 'default', uid };
  const running = Array.from({ length: pods }, (_, i) => aPod({ index: i, name: name(i), uid: `${uid}-${i}` }));
  await writeBatch(decider, deps(store, options), stream, [jobObserved(job, at(0)), ...running.map((pod) => podObserved(pod, at(1)))]);
  const leader = podObserved(aPod({ index: 0, name: name(0), uid: `${uid}-0`, phase: 'Succeeded' }), at(2));
  return { stream, leader, podUids: running.slice(1).map((p) => p.metadata.uid), podNames: running.slice(1).map((p) => p.metadata.name) };
}

/** Pods whose termination outbox, with 200-character names, is over twice MAX_COMMAND_DETAIL_BYTES (~245 bytes a pod). */
const OUTBOX_CAP_PODS = Math.ceil((2 * MAX_COMMAND_DETAIL_BYTES) / 200);

/** A store whose log cannot be read: what the publisher does with it, it does from the outbox items alone. */
class UnreadableLog extends ForwardingStore {
  reads = 0;

  override read(_stream: StreamId, _options?: ReadOptions): Promise<ReadResult> {
    this.reads++;
    throw new Error('the publisher read the log');
  }
}

const deps = (store: EventStore & PodArchive, options: BigDecisionOptions): WriteDeps => ({
  store, clock: () => at(3), limits: options.limits,
});

function terminations(sent: readonly OutboundEvent[]): string[] {
  return sent.filter((e) => e.detailType === 'Pod Termination Requested').map((e) => String(e.detail['podName']));
}

/** Writes `batch` and publishes until nothing is left, delivering the batch again after each simulated crash. */
async function settle(store: CrashableStore, bus: RecordingPublisher, stream: StreamId, batch: readonly Observation[], options: BigDecisionOptions): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      await writeBatch(decider, deps(store, options), stream, batch);
      await sweepPending({ store, publisher: bus, clock: () => at(4) });
      return;
    } catch (error) {
      if (!(error instanceof SimulatedCrash)) throw error;
    }
  }
  throw new Error('did not settle');
}

export function describeBigDecision(label: string, factory: ServiceStoreFactory, options: BigDecisionOptions): void {
  describe(`a decision over ${options.pods} pods (${label})`, () => {
    const crash = { ...options, pods: options.crashPods ?? options.pods, limits: options.crashLimits ?? options.limits };
    const timeout = options.timeout;
    it('publishes every termination exactly once, and the Job completes after the deletions', { timeout }, async () => {
      // given a running Job whose leader just succeeded
      const { store } = await factory();
      const { stream, leader, podNames, podUids } = await givenRunningJob(store, options);
      const bus = new RecordingPublisher();

      // when the leader's success is written and the outbox published
      await settle(new CrashableStore(store), bus, stream, [leader], options);

      // then each lingering pod got exactly one termination
      expect(terminations(bus.sent).sort()).toEqual([...podNames].sort());
      expect(new Set(bus.sent.map((e) => e.commandId)).size).toBe(bus.sent.length);
      expect(await store.pendingOutbox(10)).toEqual([]);
      expect(jobStatus((await loadState(decider, store, stream)).state).conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet']);

      // and when the cluster reports the deletions, the Job is Complete
      await writeBatch(decider, deps(store, options), stream, podUids.map((uid) => podDeleted(uid, at(5))));
      const done = jobStatus((await loadState(decider, store, stream)).state);
      expect(done.conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
      expect(done.terminating ?? 0).toBe(0);
    });

    it('carries every termination in the outbox items, each within MAX_COMMAND_DETAIL_BYTES (twice that in all), and publishes them without reading the log', { timeout }, async () => {
      // given a running Job whose terminations outweigh twice an outbox item's cap
      const { store } = await factory();
      // (at the real page and step sizes, whatever the suite's)
      const sized: BigDecisionOptions = { pods: OUTBOX_CAP_PODS, nameLength: 200 };
      const { stream, leader, podNames } = await givenRunningJob(store, sized);

      // when the leader's success is written
      await writeBatch(decider, deps(store, sized), stream, [leader]);

      // then its pods are in the outbox items, cut across commit steps, none over the cap
      const items = (await store.pendingOutbox(1000)).filter((item) => item.stream.uid === stream.uid);
      const details = items.map((item) => item.detail as OutboxPageDetail);
      expect(items.every((item) => item.detailType === OUTBOX_PAGE_TYPE && jsonBytes(item.detail) <= MAX_COMMAND_DETAIL_BYTES)).toBe(true);
      expect(details.reduce((sum, detail) => sum + jsonBytes(detail.terminations), 0)).toBeGreaterThan(2 * MAX_COMMAND_DETAIL_BYTES);
      expect(details.flatMap((detail) => (detail.terminations ?? []).flatMap((page) => page.names)).sort()).toEqual([...podNames].sort());
      expect(details.some((detail) => detail.range !== undefined)).toBe(false);
      // several items to a commit step: the pods cost steps only by their bytes, not by an item's cap
      const steps = new Set(items.map((item) => item.commandId.split('/out/')[1]?.split('/')[0]));
      expect(steps.size).toBeLessThan(items.length);

      // and when they are published from a store whose log cannot be read, each pod is terminated once
      const unreadable = new UnreadableLog(store);
      const bus = new RecordingPublisher();
      await sweepPending({ store: unreadable, publisher: bus, clock: () => at(4) });
      const sent = bus.sent.filter((e) => e.commandId.startsWith(`${stream.uid}/terminate/`));
      expect(terminations(sent).sort()).toEqual([...podNames].sort());
      expect(sent.map((e) => e.commandId).sort()).toEqual(podNames.map((_, i) => `${stream.uid}/terminate/${stream.uid}-${i + 1}`).sort());
      expect(unreadable.reads).toBe(0);
    });

    it('still publishes an outbox page an older version wrote in the log-range form, reading that range back', { timeout }, async () => {
      // given a log whose termination decision was queued as the log range that holds it
      const { store } = await factory();
      const uid = randomUUID();
      const stream: StreamId = { kind: 'Job', clusterId: 'test-cluster', namespace: 'default', uid };
      const pods = Array.from({ length: 3 }, (_, i) => ({ uid: `${uid}-${i}`, name: `pod-${i}`, index: i, seq: i + 1 }));
      const termination = {
        type: 'PodsTerminationRequested', eventId: `${uid}/d/1`, at: at(2), cause: 'JobFinishing', reason: 'SuccessPolicy',
        message: 'Matched rules at index 0', finalizersRemoved: false, pods,
      } as const;
      const range: OutboxPageDetail = {
        job: { clusterId: stream.clusterId, namespace: stream.namespace, name: 'legacy', uid }, managedBy: undefined, inline: [],
        range: { fromSeq: 1, toSeq: 1 },
      };
      await store.commit(stream, {
        expectedHead: 0, recordedAt: at(2), entries: [decisionEntry(termination)],
        outbox: [{ commandId: `${uid}/out/1`, clusterId: stream.clusterId, detailType: OUTBOX_PAGE_TYPE, detail: range, createdAt: at(2) }],
      });

      // when the outbox is swept
      const bus = new RecordingPublisher();
      await sweepPending({ store, publisher: bus, clock: () => at(4) });

      // then each pod of the decision is terminated once, under the commandId the item form gives too
      expect(bus.sent.filter((e) => e.commandId.startsWith(`${uid}/`)).map((e) => [e.commandId, e.detail['podName'], e.detail['reason']])).toEqual(
        pods.map((pod) => [`${uid}/terminate/${pod.uid}`, pod.name, 'SuccessPolicy']),
      );
    });

    if (crash.pods === 0) return;
    const commitCrashes: CrashPoint[] = ['commit', 'afterCommit'];
    if (options.commitCrashes ?? true) it.each([1, 2, 3])('loses and duplicates nothing when the writer dies around its commit step %i', { timeout }, async (step) => {
      for (const point of commitCrashes) {
        // given the Job, and a store that dies before (or right after) the n-th commit step
        const { store: inner } = await factory();
        const { stream, leader, podNames } = await givenRunningJob(inner, crash);
        const store = new CrashableStore(inner);
        let commits = 0;
        store.beforeCommit = async () => {
          if (++commits === step) store.crashOnce(point);
        };
        const bus = new RecordingPublisher();

        // when the writer dies there and the batch, delivered again, finishes the work
        await settle(store, bus, stream, [leader], crash);

        // then every pod got exactly one termination
        expect(terminations(bus.sent).sort(), `${point} ${step}`).toEqual([...podNames].sort());
        expect(new Set(bus.sent.map((e) => e.commandId)).size).toBe(bus.sent.length);
      }
    });

    it('resumes a publisher that died between two runs at its checkpoint, sending nothing twice', { timeout }, async () => {
      const { store: inner } = await factory();
      const { stream, leader, podNames } = await givenRunningJob(inner, crash);
      const store = new CrashableStore(inner);
      await writeBatch(decider, deps(store, crash), stream, [leader]);
      const bus = new RecordingPublisher();
      store.crashOnce('afterOutboxProgress');
      await settle(store, bus, stream, [], crash);
      expect(terminations(bus.sent).sort()).toEqual([...podNames].sort());
      expect(new Set(bus.sent.map((e) => e.commandId)).size).toBe(bus.sent.length);
    });

    it('re-sends only the run in flight, under the same commandIds, when the publisher died before its checkpoint', { timeout }, async () => {
      const { store: inner } = await factory();
      const { stream, leader, podNames } = await givenRunningJob(inner, crash);
      const store = new CrashableStore(inner);
      await writeBatch(decider, deps(store, crash), stream, [leader]);
      const bus = new RecordingPublisher();
      store.crashOnce('saveOutboxProgress');
      await settle(store, bus, stream, [], crash);
      const sent = terminations(bus.sent);
      expect([...new Set(sent)].sort()).toEqual([...podNames].sort());
      expect(sent.length - new Set(sent).size).toBeLessThanOrEqual(PROGRESS_EVERY);
    });

    it('loses nothing when the bus fails mid-walk: the item stays pending and resumes', { timeout }, async () => {
      const { store } = await factory();
      const { stream, leader, podNames } = await givenRunningJob(store, crash);
      await writeBatch(decider, deps(store, crash), stream, [leader]);
      const bus = new RecordingPublisher();
      bus.crashAtCall(2);
      await expect(publishPending({ store, publisher: bus, clock: () => at(4) })).rejects.toThrow(SimulatedCrash);
      await sweepPending({ store, publisher: bus, clock: () => at(4) });
      expect(terminations(bus.sent).sort()).toEqual([...podNames].sort());
      expect(new Set(bus.sent.map((e) => e.commandId)).size).toBe(bus.sent.length);
    });
  });
}
