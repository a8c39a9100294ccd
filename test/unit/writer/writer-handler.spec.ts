import { describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import { StoreLimitError, type StreamId } from '../../../shared/log/event-store.ts';
import type { InboundError } from '../../../shared/contract/parse-inbound.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { createWriterHandler } from '../../../functions/handlers/writer-handler.ts';
import { timerRecord } from '../../../functions/handlers/writer/timer-record.ts';
import { logger } from '../../../functions/commons/powertools.ts';
import { kinesisEvent } from '../../support/kinesis-records.ts';
import { CrashableStore } from '../../support/service-harness.ts';
import { commandKeys, NoMarkersStore, outboxEvents, sampleEvents, statusOf } from './write-support.ts';

// The writer handler as Lambda's Kinesis event source calls it: base64 JSON records, cluster
// events as EventBridge delivers them and timer records, grouped by log.

logger.setLogLevel('SILENT');
process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';

const context = { functionName: 'writer', awsRequestId: 'r', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
function handlerOver(store: NoMarkersStore | CrashableStore) {
  const rejected: { text: unknown; errors: readonly InboundError[] }[] = [];
  const timers: { stream: StreamId; at: string }[] = [];
  const handler = createWriterHandler({
    store, clock: () => '2026-06-01T00:00:00Z', config: DEFAULT_FOLD_CONFIG,
    rejections: { reject: async (text, errors) => void rejected.push({ text, errors }) },
    timers: { schedule: async (stream, at) => void timers.push({ stream, at }) },
  });
  return { handler, rejected, timers };
}

const events = sampleEvents('samples/named-failure.jsonl');
const job: StreamId = { kind: 'Job', clusterId: 'dev-eu-1', namespace: 'default', uid: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };

describe('the writer handler', () => {
  it('writes a Job delivered in Kinesis batches as the use case does, and drops a redelivered batch', async () => {
    const store = new NoMarkersStore();
    const { handler } = handlerOver(store);
    expect(await handler(kinesisEvent(events.slice(0, 4)), context)).toEqual({ batchItemFailures: [] });
    await handler(kinesisEvent(events.slice(4)), context);
    await handler(kinesisEvent(events.slice(4)), context);
    expect((await statusOf(store, job)).failed).toBe(5);
    expect(commandKeys(await outboxEvents(store, job)).filter((c) => c.startsWith('Pod Termination'))).toHaveLength(4);
    expect((await store.read(job)).entries).toHaveLength(16);
  });

  it('refuses records that are not JSON or not valid events, with reasons, and writes the rest', async () => {
    const store = new NoMarkersStore();
    const { handler, rejected } = handlerOver(store);
    const bad = { ...(events[1] as object), detail: { eventId: 'x' } };
    const response = await handler(kinesisEvent([events[0], 'not json', bad, { source: 'jobfold.timer', 'detail-type': 'Timer Fired', detail: { at: 'soon' } }]), context);
    expect(response.batchItemFailures).toEqual([]);
    expect(rejected.map((r) => r.text)).toEqual(['not json', JSON.stringify(bad), expect.stringContaining('jobfold.timer')]);
    expect(rejected.every((r) => r.errors.length > 0)).toBe(true);
    expect((await store.read(job)).entries.map((e) => e.type)).toContain('JobObserved');
  });

  it('turns a timer record into a Tick at its due time, once however often it fires', async () => {
    const store = new NoMarkersStore();
    const { handler } = handlerOver(store);
    await handler(kinesisEvent([events[0]]), context);
    const fired = timerRecord(job, '2026-01-01T00:10:00Z');
    await handler(kinesisEvent([fired, fired]), context);
    await handler(kinesisEvent([fired]), context);
    const ticks = (await store.read(job)).entries.filter((e) => e.type === 'Tick');
    expect(ticks.map((t) => t.observedAt)).toEqual(['2026-01-01T00:10:00Z']);
  });

  it('reports the lowest sequence number of a log whose write fails, and only that log', async () => {
    const store = new CrashableStore(new NoMarkersStore());
    const { handler } = handlerOver(store);
    const other = JSON.parse(JSON.stringify(events[0]).replaceAll('7c9e6679-7425-40de-944b-e07fc1f90ae7', 'other-job-uid'));
    let commits = 0;
    store.beforeCommit = async () => {
      if (++commits === 1) throw new Error('throttled');
    };
    const batch = kinesisEvent([events[0], other, events[1]]);
    const response = await handler(batch, context);
    const failed = response.batchItemFailures.map((f) => f.itemIdentifier);
    expect(failed).toHaveLength(1);
    expect([batch.Records[0]!.kinesis.sequenceNumber, batch.Records[1]!.kinesis.sequenceNumber]).toContain(failed[0]);
    // and the retry from there writes what was left, once
    await handler(batch, context);
    expect((await store.read(job)).entries.filter((e) => e.type === 'JobObserved')).toHaveLength(1);
  });

  it('schedules the earliest wake-up the decisions ask for', async () => {
    // Given a Job with a 2-minute deadline, whose first reconcile asks for its pods: the deadline
    // comes before those pods' expectations expire (5 minutes).
    const store = new NoMarkersStore();
    const { handler, timers } = handlerOver(store);
    const withDeadline = JSON.parse(JSON.stringify(events[0]).replace('"backoffLimit":6', '"backoffLimit":6,"activeDeadlineSeconds":120'));
    await handler(kinesisEvent([withDeadline]), context);
    expect(timers).toEqual([{ stream: job, at: expect.stringMatching(/^2026-01-01T00:02:00/) }]);
  });

  it('schedules a wake-up for when the pods it asks for are overdue', async () => {
    // Given a Job without a deadline whose first reconcile asks for its pods: woken once that
    // expectation expires, it asks again (a command lost on the way is retried).
    const store = new NoMarkersStore();
    const { handler, timers } = handlerOver(store);
    await handler(kinesisEvent([events[0]]), context);
    expect(timers).toEqual([{ stream: job, at: '2026-01-01T00:05:00.001Z' }]);
  });

  it('writes twice as many Jobs as it writes at once, each once, and fails only the one that fails', async () => {
    // given 16 Jobs in one batch for a handler writing 8 logs at once, one of them failing
    const store = new CrashableStore(new NoMarkersStore());
    const rejected: unknown[] = [];
    const handler = createWriterHandler({
      store, clock: () => '2026-06-01T00:00:00Z', config: DEFAULT_FOLD_CONFIG, concurrency: 8,
      rejections: { reject: async (text) => void rejected.push(text) },
      timers: { schedule: async () => undefined },
    });
    const uids = Array.from({ length: 16 }, (_, i) => `job-${i}`);
    const jobs = uids.map((uid) => JSON.parse(JSON.stringify(events[0]).replaceAll('7c9e6679-7425-40de-944b-e07fc1f90ae7', uid)));
    let failedOnce = false;
    store.beforeCommit = async () => {
      if (!failedOnce) {
        failedOnce = true;
        throw new Error('throttled');
      }
    };
    const batch = kinesisEvent(jobs);
    const response = await handler(batch, context);
    // then exactly one log failed, and the retry of the batch writes it, the others not again
    expect(response.batchItemFailures).toHaveLength(1);
    expect((await handler(batch, context)).batchItemFailures).toEqual([]);
    for (const uid of uids) {
      const entries = (await store.read({ ...job, uid })).entries;
      expect(entries.filter((e) => e.type === 'JobObserved'), uid).toHaveLength(1);
    }
    expect(rejected).toEqual([]);
  });

  it("appends JobSet events and a child Job's deletion to the JobSet's log", async () => {
    // given the jobset-exit-code-2 sample: a child Job's pod exits with code 2
    const store = new NoMarkersStore();
    const { handler } = handlerOver(store);
    const jobSetEvents = sampleEvents('samples/jobset-exit-code-2.jsonl');
    // when it is written in two batches
    await handler(kinesisEvent(jobSetEvents.slice(0, 10)), context);
    await handler(kinesisEvent(jobSetEvents.slice(10)), context);
    // then the JobSet's log holds its observation, the child statuses and the deletions
    const jobSet: StreamId = { kind: 'JobSet', clusterId: 'dev-eu-1', namespace: 'default', uid: '4f1d2c3b-9a8e-4d7c-b6a5-0e1f2a3b4c5d' };
    const types = (await store.read(jobSet)).entries.map((e) => e.type);
    expect(types).toContain('JobSetObserved');
    expect(types.filter((t) => t === 'JobDeleted')).toHaveLength(3);
    expect(types.filter((t) => t === 'JobObserved').length).toBeGreaterThan(0);
  });

  it('parks a Job whose write fails the same way every time, and keeps its records with the reason', async () => {
    // given a store that refuses the Job's commits as too large
    const store = new CrashableStore(new NoMarkersStore());
    const { handler, rejected } = handlerOver(store);
    store.beforeCommit = async () => {
      store.beforeCommit = undefined;
      throw new StoreLimitError('commit (bytes)', 3_000_000, 4_000_000);
    };
    // when a batch of the Job arrives
    const response = await handler(kinesisEvent(events.slice(0, 3)), context);
    // then the batch does not fail forever: the Job is parked (under the name the batch observed) and its records kept with the error
    expect(response.batchItemFailures).toEqual([]);
    expect(rejected).toHaveLength(3);
    expect(rejected[0]?.errors[0]?.message).toMatch(/stalled.*StoreLimitError/);
    const summary = await store.findJob({ kind: 'Job', clusterId: job.clusterId, namespace: job.namespace, name: 'train', uid: job.uid });
    expect(summary?.stalled?.error).toMatch(/StoreLimitError/);
  });

  it('shows a parked Job healthy again on its next batch, even one of duplicates only', async () => {
    // given a Job written once, then parked by a batch that fails deterministically
    const store = new CrashableStore(new NoMarkersStore());
    const { handler } = handlerOver(store);
    await handler(kinesisEvent(events.slice(0, 3)), context);
    store.beforeCommit = async () => {
      store.beforeCommit = undefined;
      throw new StoreLimitError('commit (bytes)', 3_000_000, 4_000_000);
    };
    await handler(kinesisEvent(events.slice(3, 5)), context);
    const find = () => store.findJob({ kind: 'Job', clusterId: job.clusterId, namespace: job.namespace, name: 'train', uid: job.uid });
    expect((await find())?.stalled).toBeDefined();
    // when the first batch is delivered again: nothing new to log
    await handler(kinesisEvent(events.slice(0, 3)), context);
    // then the Job's summary no longer shows the stall
    expect((await find())?.stalled).toBeUndefined();
  });
});
