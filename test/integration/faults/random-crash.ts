import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../../shared/log/event-store.ts';
import type { PodArchive } from '../../../shared/log/pod-archive.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent, type InboundEnvelope } from '../../support/inbound-events.ts';
import { lambdaProcess } from '../../support/lambda-process.ts';
import { CrashableStore, eventsOfJob, RecordingPublisher, type CrashPoint } from '../../support/service-harness.ts';
import type { FaultCase } from './fault-outcomes.ts';

// A writer or publisher process that dies at a random point of a burst, on DynamoDB Local through
// the writer's handler (issue 24, "crash at random points of a burst"): the burst (a Job of
// `pods` pods, a FailJob rule, every pod Running, then pod 0 failing with exit code 42) comes in
// Kinesis batches of random sizes; the first process dies at a random batch, before or after a
// commit, and may die again in the publisher before or after a checkpoint. A new process (an
// empty cache) gets every batch not acknowledged, whole, as Kinesis retries it, plus one
// acknowledged batch again (at least once), and drains the outbox. Then the log holds every
// observation once, the decisions of an uninterrupted run, and every lingering pod is terminated
// by one command (published at least once, always under that command's id).

type Store = EventStore & PodArchive;
const WRITER_CRASHES: readonly CrashPoint[] = ['commit', 'afterCommit'];
const PUBLISHER_CRASHES: readonly CrashPoint[] = ['markPublished', 'saveOutboxProgress', 'afterOutboxProgress'];

interface Run {
  readonly batches: readonly (readonly InboundEnvelope[])[];
  readonly job: ReturnType<typeof aJob>;
  readonly observations: number;
  readonly lingering: number;
}

function randomBurst(pods: number, random: () => number): Run {
  const job = aJob({
    completions: pods, parallelism: pods, backoffLimit: 0,
    podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] },
  }, { uid: randomUUID() });
  const events = [jobObservedEvent(job, at(0))];
  for (let i = 0; i < pods; i++) events.push(podObservedEvent(aPod({ name: `p${i}` }), job, at(1)));
  events.push(podObservedEvent(aPod({ name: 'p0', phase: 'Failed', exitCode: 42 }), job, at(2)));
  const batches: InboundEnvelope[][] = [];
  for (let i = 0; i < events.length;) {
    const size = 1 + Math.floor(random() * 10);
    batches.push(events.slice(i, i + size));
    i += size;
  }
  return { batches, job, observations: events.length, lingering: pods - 1 };
}

/** What a run left in the log and on the bus. */
async function leftBy(store: Store, bus: RecordingPublisher, run: Run) {
  const log = (await store.read(jobStream(run.job))).entries;
  const observed = log.filter((e) => e.type === 'PodObserved' || e.type === 'JobObserved');
  const decided = log.filter((e) => e.type !== 'PodObserved' && e.type !== 'JobObserved').map((e) => e.type);
  const sent = eventsOfJob(bus.sent, run.job.metadata.uid);
  const terminations = sent.filter((e) => e.detailType === 'Pod Termination Requested');
  const byCommand = new Map<string, string>();
  for (const e of terminations) byCommand.set(e.commandId, String(e.detail['podUid']));
  return {
    eventIds: log.map((e) => e.eventId),
    observed: observed.length,
    decided,
    /** Pods terminated, one per command however often it was published. */
    terminated: [...byCommand.values()],
    commandIds: new Set(sent.map((e) => e.commandId)).size,
  };
}

/** The decisions of an uninterrupted run of a burst of `pods` pods (the reference). */
export async function referenceRun(store: Store, pods: number, random: () => number): Promise<Awaited<ReturnType<typeof leftBy>>> {
  const run = randomBurst(pods, random);
  const bus = new RecordingPublisher();
  const one = lambdaProcess(store, bus);
  for (const batch of run.batches) if (!(await one.write(batch))) throw new Error('the reference run failed a batch');
  await one.publishAll();
  return leftBy(store, bus, run);
}

export async function randomCrashRun(store: Store, index: number, pods: number, random: () => number, reference: Awaited<ReturnType<typeof leftBy>>): Promise<FaultCase> {
  const fault = 'crash at random points of a burst (writer, publisher)';
  const run = randomBurst(pods, random);
  const crashAt = Math.floor(random() * run.batches.length);
  const writerCrash = WRITER_CRASHES[Math.floor(random() * WRITER_CRASHES.length)]!;
  const publisherCrash = random() < 0.5 ? PUBLISHER_CRASHES[Math.floor(random() * PUBLISHER_CRASHES.length)] : undefined;
  const name = `run ${index}: ${run.batches.length} batches, the writer dies at ${writerCrash} of batch ${crashAt}${publisherCrash ? `, the publisher at ${publisherCrash}` : ''}`;
  try {
    const bus = new RecordingPublisher();
    const firstStore = new CrashableStore(store);
    const first = lambdaProcess(firstStore, bus);
    const acknowledged: boolean[] = [];
    for (const [i, batch] of run.batches.entries()) {
      if (i === crashAt) firstStore.crashOnce(writerCrash);
      acknowledged.push(await first.write(batch));
      if (i === crashAt) break;
    }
    if (publisherCrash) {
      firstStore.crashOnce(publisherCrash);
      await first.publishAll().catch(() => undefined);
    }
    const second = lambdaProcess(new CrashableStore(store), bus);
    for (const [i, batch] of run.batches.entries()) {
      if (acknowledged[i] === true) continue;
      if (!(await second.write(batch))) return { fault, name, outcome: 'wedged', detail: `batch ${i} not acknowledged after the restart` };
    }
    const again = run.batches[Math.floor(random() * run.batches.length)]!;
    if (!(await second.write(again))) return { fault, name, outcome: 'wedged', detail: 'a redelivered batch not acknowledged' };
    await second.publishAll();
    const after = await leftBy(store, bus, run);
    const detail = `${after.observed} observations for ${run.observations}, decisions ${after.decided.length} (${reference.decided.length} uninterrupted), `
      + `${after.terminated.length} pods terminated for ${run.lingering}, ${after.commandIds} commands (${reference.commandIds} uninterrupted)`;
    if (new Set(after.eventIds).size !== after.eventIds.length || new Set(after.terminated).size !== after.terminated.length) return { fault, name, outcome: 'duplicated', detail };
    if (after.observed < run.observations) return { fault, name, outcome: 'lost', detail };
    if (JSON.stringify(after.decided) !== JSON.stringify(reference.decided) || after.commandIds !== reference.commandIds) return { fault, name, outcome: 'wrong write', detail };
    if (after.terminated.length < run.lingering) return { fault, name, outcome: 'wedged', detail };
    return { fault, name, outcome: 'handled', detail };
  } catch (error) {
    return { fault, name, outcome: 'crash', detail: (error as Error).message.slice(0, 300) };
  }
}

/**
 * A finished Job's events re-sent whole after a restart, as a forwarder's spool does after a
 * crash (issue 24: 300 eventIds stored twice), in Kinesis batches of `size`, to a new process.
 */
export async function replayAfterRestartRun(store: Store, size: number, random: () => number): Promise<FaultCase> {
  const fault = 'replay of a finished Job after a restart';
  const run = randomBurst(30, random);
  const name = `${run.observations} events re-sent in batches of ${size}`;
  try {
    const bus = new RecordingPublisher();
    const first = lambdaProcess(store, bus);
    for (const batch of run.batches) await first.write(batch);
    await first.publishAll();
    const before = await leftBy(store, bus, run);
    const second = lambdaProcess(new CrashableStore(store), bus);
    const events = run.batches.flat();
    for (let i = 0; i < events.length; i += size) {
      if (!(await second.write(events.slice(i, i + size)))) return { fault, name, outcome: 'wedged', detail: `batch at ${i} not acknowledged` };
    }
    await second.publishAll();
    const after = await leftBy(store, bus, run);
    const detail = `${after.eventIds.length} log entries (${before.eventIds.length} before), ${after.commandIds} commands (${before.commandIds} before)`;
    if (new Set(after.eventIds).size !== after.eventIds.length || after.eventIds.length !== before.eventIds.length) return { fault, name, outcome: 'duplicated', detail };
    if (after.commandIds !== before.commandIds) return { fault, name, outcome: 'wrong write', detail };
    return { fault, name, outcome: 'handled', detail };
  } catch (error) {
    return { fault, name, outcome: 'crash', detail: (error as Error).message.slice(0, 300) };
  }
}
