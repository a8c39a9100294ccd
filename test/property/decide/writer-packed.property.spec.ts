import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import { scenarioGates } from '../../../cli/scenario/play-job-scenario.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { CLUSTER_SOURCE_PREFIX } from '../../../shared/contract/inbound.ts';
import type { Observation } from '../../../shared/job/events.ts';
import type { FoldConfig } from '../../../shared/job/state.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { createWriterHandler } from '../../../functions/handlers/writer-handler.ts';
import { timerRecord } from '../../../functions/handlers/writer/timer-record.ts';
import { logger } from '../../../functions/commons/powertools.ts';
import { historyArb, jobArb } from '../job/arbitraries.ts';
import { corpus, scenarioObservations } from './corpus-observations.ts';
import { jobObserved, T0 } from '../../support/builders.ts';
import { kinesisEvent } from '../../support/kinesis-records.ts';
import { packRuns } from '../../support/packed-events.ts';
import { commandKeys, NoMarkersStore, outboxEvents, statusOf } from '../../unit/writer/write-support.ts';
import { batchSizesArb, redeliverArb } from './deliveries.ts';

// Packing changes no decision: every Job scenario of the conformance corpus, and generated
// histories, sent as the bus would deliver them — in Kinesis batches of random numbers of runs
// (observations sharing an observedAt, what the writer decides after, as writer-corpus's
// property cuts them), some delivered twice, each batch's pod events in `Pod Observations` packs
// of random sizes (a pack may span runs) — leave through the writer handler the same log, status
// and commands as the same events sent one by one in one batch.

logger.setLogLevel('SILENT');
process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';
const context = { functionName: 'writer', awsRequestId: 'r', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

/** The inbound event (or timer record) a forwarder (or the Scheduler) would send for an observation of `stream`. */
function inboundOf(o: Observation, stream: StreamId, jobName: string): unknown {
  const source = `${CLUSTER_SOURCE_PREFIX}${o.clusterId}`;
  const owner = [{ apiVersion: 'batch/v1', kind: 'Job', name: jobName, uid: stream.uid, controller: true }];
  const base = { eventId: o.eventId, observedAt: o.observedAt, partitionKey: stream.uid };
  switch (o.type) {
    case 'PodObserved': {
      const pod = { ...o.pod, metadata: { ...o.pod.metadata, ownerReferences: owner } };
      return { source, 'detail-type': 'Pod Observed', detail: { ...base, object: pod, ...(o.sequence ? { sequence: o.sequence } : {}) } };
    }
    case 'PodDeleted':
      return { source, 'detail-type': 'Pod Deleted', detail: { ...base, object: { kind: 'Pod', metadata: { uid: o.uid, name: o.name ?? o.uid, namespace: stream.namespace, ownerReferences: owner } } } };
    case 'JobObserved':
      return { source, 'detail-type': 'Job Observed', detail: { ...base, object: o.job, ...(o.sequence ? { sequence: o.sequence } : {}) } };
    case 'JobDeleted':
      return { source, 'detail-type': 'Job Deleted', detail: { ...base, object: { kind: 'Job', metadata: { uid: stream.uid, name: jobName, namespace: stream.namespace } } } };
    case 'Tick':
      return timerRecord(stream, o.observedAt);
  }
}

/** The events cut into batches of the given numbers of runs (the last repeats), each batch's pod events packed. */
function packedBatches(events: readonly unknown[], runsPerBatch: readonly number[], packSizes: readonly number[]): unknown[][] {
  const runs: unknown[][] = [];
  for (const event of events) {
    const at = observedAtOf(event);
    const last = runs.at(-1);
    if (last && observedAtOf(last[0]) === at) last.push(event);
    else runs.push([event]);
  }
  const batches: unknown[][] = [];
  for (let i = 0, b = 0; i < runs.length; b++) {
    const size = Math.max(1, runsPerBatch[b] ?? runsPerBatch.at(-1) ?? 1);
    batches.push(packRuns(runs.slice(i, i + size).flat(), packSizes));
    i += size;
  }
  return batches;
}

const observedAtOf = (event: unknown) => {
  const { detail } = event as { detail: { observedAt?: string; at?: string } };
  return detail.observedAt ?? detail.at;
};

/** Feeds the batches of records, some twice; returns what the Job ends with. */
async function feed(config: FoldConfig, stream: StreamId, batches: readonly (readonly unknown[])[], redeliver: readonly boolean[] = []) {
  const store = new NoMarkersStore();
  const rejected: unknown[] = [];
  const handler = createWriterHandler({
    store, clock: () => '2026-06-01T00:00:00Z', config,
    rejections: { reject: async (text) => void rejected.push(text) },
    timers: { schedule: async () => undefined },
  });
  for (const [b, records] of batches.entries()) {
    const batch = kinesisEvent(records);
    expect(await handler(batch, context)).toEqual({ batchItemFailures: [] });
    if (redeliver[b]) await handler(batch, context);
  }
  const log = (await store.read(stream)).entries.map(({ seq, type, eventId }) => `${seq} ${type} ${eventId}`);
  return { log, status: await statusOf(store, stream, config), commands: commandKeys(await outboxEvents(store, stream)), rejected: rejected.length };
}

const packSizesArb = fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 });

describe('the writer over the conformance corpus fed in packs', () => {
  it.each(corpus().map((scenario) => ({ id: scenario.id, scenario })))('$id', async ({ scenario }) => {
    const config = { gates: scenarioGates(scenario), validateSpecs: false };
    const observations = scenarioObservations(scenario);
    const { metadata } = scenario.job;
    const stream: StreamId = { kind: 'Job', clusterId: observations[0]!.clusterId, namespace: metadata.namespace ?? 'default', uid: metadata.uid ?? 'job-uid' };
    const events = observations.map((o) => inboundOf(o, stream, metadata.name ?? 'job'));
    const singly = await feed(config, stream, [events]);
    expect(singly.rejected).toBe(0);
    expect(singly.log.filter((e) => / Pod(Observed|Deleted) /.test(e)).length).toBe(events.filter((e) => String((e as { 'detail-type': string })['detail-type']).startsWith('Pod')).length);
    await fc.assert(
      fc.asyncProperty(packSizesArb, batchSizesArb, redeliverArb, async (packSizes, batchSizes, redeliver) => {
        expect(await feed(config, stream, packedBatches(events, batchSizes, packSizes), redeliver)).toEqual(singly);
      }),
      { numRuns: 3 },
    );
  });
});

describe('the writer over generated histories fed in packs', () => {
  it('logs, decides and commands as when the same events come one by one', async () => {
    await fc.assert(
      fc.asyncProperty(
        jobArb.chain((job) => fc.tuple(fc.constant(job), historyArb(job))),
        packSizesArb, batchSizesArb, redeliverArb,
        async ([job, history], packSizes, batchSizes, redeliver) => {
          const observations = [jobObserved(job, T0), ...history.flatMap((b) => b.events)] as Observation[];
          const stream: StreamId = { kind: 'Job', clusterId: observations[0]!.clusterId, namespace: job.metadata.namespace ?? 'default', uid: job.metadata.uid ?? 'job' };
          // distinct eventIds, as a forwarder's uid/resourceVersion are (the generator's name a phase and a time)
          const events = observations.map((o, i) => inboundOf({ ...o, eventId: `${o.eventId}#${i}` } as Observation, stream, job.metadata.name ?? 'job'));
          const singly = await feed(DEFAULT_FOLD_CONFIG, stream, [events]);
          expect(await feed(DEFAULT_FOLD_CONFIG, stream, packedBatches(events, batchSizes, packSizes), redeliver)).toEqual(singly);
        },
      ),
      { numRuns: 40 },
    );
  });
});
