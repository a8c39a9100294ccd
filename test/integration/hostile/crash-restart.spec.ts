import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { logger } from '../../../functions/commons/powertools.ts';
import type { EventStore } from '../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../shared/log/pod-archive.ts';
import { aJob, aPod, at, withSpec } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent, type InboundEnvelope } from '../../support/inbound-events.ts';
import { lambdaProcess } from '../../support/lambda-process.ts';
import { CrashableStore, eventsOfJob, RecordingPublisher, type CrashPoint } from '../../support/service-harness.ts';
import { describeOnDynamoDbLocal } from '../service/dynamodb-service-store.ts';

// Issue 14, "Tests and figures", on DynamoDB Local through the single-writer path: a burst of a
// Job's events (a pending refused update, then a failure that leaves two pods to terminate) is
// cut by a process dying at each step: between Kinesis batches, before and after a commit of the
// writer, and in the publisher before and after its checkpoints. A new process (no warm cache)
// over the same table gets what AWS redelivers (the whole unacknowledged batch, the pending
// outbox). Then the log holds every observation once, every decision once, and the commands
// published are exactly those of a run that was never interrupted.

logger.setLogLevel('SILENT');
process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';

type Store = EventStore & PodArchive;

/** The burst, in the three Kinesis batches the shard hands the writer. */
function burst() {
  const job = aJob({ completions: 3, parallelism: 3, backoffLimit: 0 }, { uid: randomUUID() });
  const refused = jobObservedEvent(withSpec(job, { completionMode: 'Indexed' }), at(1), { eventId: `${job.metadata.uid}/indexed` });
  const pods = ['p0', 'p1', 'p2'].map((name) => podObservedEvent(aPod({ name }), job, at(1)));
  const failed = podObservedEvent(aPod({ name: 'p0', phase: 'Failed' }), job, at(2));
  const batches: InboundEnvelope[][] = [[jobObservedEvent(job, at(0)), pods[0]!], [pods[1]!, pods[2]!], [refused, failed]];
  return { job, batches };
}

/** What a run left: observations and decisions in the log, and the distinct commands published. */
async function outcome(store: Store, bus: RecordingPublisher, job: ReturnType<typeof burst>['job']) {
  const log = (await store.read(jobStream(job))).entries;
  const observed = log.filter((e) => e.type === 'PodObserved' || e.type === 'JobObserved').map((e) => e.eventId);
  const decided = log.filter((e) => e.type !== 'PodObserved' && e.type !== 'JobObserved').map((e) => e.type);
  const published = eventsOfJob(bus.sent, job.metadata.uid).map((e) => `${e.detailType} ${String(e.detail['podName'] ?? (e.detail['condition'] as { type?: string } | undefined)?.type ?? '')}`);
  return { observed, decided, published: [...new Set(published)].sort(), eventIds: log.map((e) => e.eventId), commandIds: eventsOfJob(bus.sent, job.metadata.uid).map((e) => e.commandId) };
}

// (Publisher crashes around its page checkpoint need pages of 500 events: test/integration/service/big-decision.)
type Cut = { name: string; crash?: CrashPoint; inBatch?: number; inPublish?: boolean };
const CUTS: Cut[] = [
  { name: 'between two batches (the third never acknowledged)', inBatch: 2 },
  { name: 'before the writer\'s commit of the last batch', crash: 'commit', inBatch: 2 },
  { name: 'after the writer\'s commit of the last batch, before it acknowledged', crash: 'afterCommit', inBatch: 2 },
  { name: 'before the writer\'s commit of the first batch', crash: 'commit', inBatch: 0 },
  { name: 'in the publisher, before it marks the commands published', crash: 'markPublished', inPublish: true },
];

describeOnDynamoDbLocal((label, factory) => {
  describe(`crash and restart mid-burst through the writer (${label})`, () => {
    let reference: Awaited<ReturnType<typeof outcome>>;

    it('an uninterrupted run: the reference', async () => {
      const { store } = await factory();
      const { job, batches } = burst();
      const bus = new RecordingPublisher();
      const one = lambdaProcess(store, bus);
      for (const batch of batches) expect(await one.write(batch)).toBe(true);
      await one.publishAll();
      reference = await outcome(store, bus, job);
      expect(reference.decided).toEqual(['StartTimeSet', 'PodCreationsRequested', 'JobUpdateRefused', 'PodsTerminationRequested', 'JobConditionChanged']);
      expect(reference.decided.filter((t) => t === 'JobUpdateRefused')).toHaveLength(1);
      expect(reference.decided.filter((t) => t === 'PodsTerminationRequested')).toHaveLength(1);
      expect(reference.published).toEqual(expect.arrayContaining(['Pod Termination Requested p1', 'Pod Termination Requested p2']));
      expect(new Set(reference.commandIds).size).toBe(reference.commandIds.length);
    });

    it.each(CUTS)('a process that dies $name loses nothing and decides nothing twice', async (cut) => {
      const { store: table } = await factory();
      const { job, batches } = burst();
      const bus = new RecordingPublisher();

      // The first process writes the batches up to the cut (and dies there).
      const firstStore = new CrashableStore(table);
      const first = lambdaProcess(firstStore, bus);
      const acknowledged: boolean[] = [];
      const writerCrash = cut.inPublish ? undefined : cut.crash;
      for (const [i, batch] of batches.entries()) {
        if (cut.inBatch === i && writerCrash === undefined) break;
        if (cut.inBatch === i && writerCrash) firstStore.crashOnce(writerCrash);
        acknowledged.push(await first.write(batch));
        if (cut.inBatch === i) break;
      }
      if (cut.inPublish && cut.crash) {
        firstStore.crashOnce(cut.crash);
        await expect(first.publishAll()).rejects.toThrow(/simulated crash/);
      }
      if (cut.crash && !cut.inPublish) expect(acknowledged.at(-1)).toBe(false);

      // A new process gets every batch not acknowledged (whole, as Kinesis retries it) and runs the publisher.
      const second = lambdaProcess(new CrashableStore(table), bus);
      for (const [i, batch] of batches.entries()) {
        if (acknowledged[i] === true) continue;
        expect(await second.write(batch)).toBe(true);
      }
      await second.publishAll();
      // Kinesis delivers the last batch once more (at least once): it changes nothing.
      expect(await second.write(batches.at(-1)!)).toBe(true);
      await second.publishAll();

      const after = await outcome(table, bus, job);
      expect(new Set(after.eventIds).size).toBe(after.eventIds.length);
      expect(after.observed).toHaveLength(batches.flat().length);
      expect(after.decided).toEqual(reference.decided);
      expect(after.published).toEqual(reference.published);
      // Each decided command has one commandId; a publisher that died before its checkpoint sends
      // some again with the same commandId (at least once; the forwarder drops a repeated id).
      expect(new Set(after.commandIds).size).toBe(new Set(reference.commandIds).size);
    }, 60_000);
  });
});
