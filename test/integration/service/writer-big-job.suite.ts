import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import { logger } from '../../../functions/commons/powertools.ts';
import { createWriterHandler } from '../../../functions/handlers/writer-handler.ts';
import { sweepPending } from '../../../shared/publish/publish.ts';
import { loadState } from '../../../shared/decide/load-log.ts';
import { jobDecider } from '../../../shared/job/index.ts';
import { verifyEntryChain } from '../../../shared/audit/verify-chain.ts';
import { verifyDecisions } from '../../../shared/audit/verify-decisions.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { jobStatus } from '../../../shared/job/status.ts';
import { anIndexedJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podDeletedEvent, podObservedEvent } from '../../support/inbound-events.ts';
import { kinesisEvent } from '../../support/kinesis-records.ts';
import type { ServiceStoreFactory } from './service-store.ts';
import { RecordingPublisher } from '../../support/service-harness.ts';

// A big Job through the writer handler, as Kinesis delivers it: an Indexed Job of many running
// pods with a leader-only success policy. When the leader succeeds, every other pod is
// terminated by exactly one command (one paged decision, several commit steps), and the Job is
// Complete once the cluster reports the deletions. A batch delivered twice changes nothing.

export interface WriterBigJobOptions {
  readonly pods: number;
  /** Records per Kinesis batch (the event source mapping's batch size). */
  readonly batchSize: number;
  readonly timeout?: number;
}

const context = { functionName: 'writer', awsRequestId: 'big', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;

export function describeWriterBigJob(label: string, factory: ServiceStoreFactory, options: WriterBigJobOptions): void {
  describe(`the writer handler on a Job of ${options.pods} pods (${label})`, () => {
    it('terminates every lingering pod by exactly one command and completes after the deletions', { timeout: options.timeout }, async () => {
      logger.setLogLevel(process.env['WRITER_DEBUG'] ? 'ERROR' : 'SILENT');
      // given a running Job of many pods, written in Kinesis batches
      const { store } = await factory();
      const uid = randomUUID();
      const job = anIndexedJob(options.pods, { successPolicy: { rules: [{ succeededIndexes: '0' }] } }, { uid });
      const stream = jobStream(job);
      const pods = Array.from({ length: options.pods }, (_, i) => aPod({ index: i, uid: `${uid}-${i}` }));
      const handler = createWriterHandler({
        store, clock: () => at(10), config: DEFAULT_FOLD_CONFIG,
        rejections: { reject: async (_e, errors) => { throw new Error(`rejected: ${JSON.stringify(errors)}`); } },
        timers: { schedule: async () => undefined },
      });
      const deliver = async (events: readonly unknown[]) => {
        for (let i = 0; i < events.length; i += options.batchSize) {
          const response = await handler(kinesisEvent(events.slice(i, i + options.batchSize)), context);
          expect(response.batchItemFailures).toEqual([]);
        }
      };
      const running = pods.map((pod, i) => podObservedEvent(pod, job, at(1 + i / options.pods)));
      await deliver([jobObservedEvent(job, at(0)), ...running]);

      // when the leader succeeds (and its batch is delivered twice)
      const leader = podObservedEvent(aPod({ index: 0, uid: `${uid}-0`, phase: 'Succeeded' }), job, at(3));
      await deliver([leader]);
      const head = (await store.read(stream, { afterSeq: Number.MAX_SAFE_INTEGER - 1 })).head;
      await deliver([leader]);
      expect((await store.read(stream, { afterSeq: Number.MAX_SAFE_INTEGER - 1 })).head).toBe(head);

      // then the outbox holds exactly one termination per lingering pod
      const bus = new RecordingPublisher();
      await sweepPending({ store, publisher: bus, clock: () => at(4) });
      const terminated = bus.sent.filter((e) => e.detailType === 'Pod Termination Requested').map((e) => String(e.detail['podUid']));
      expect(terminated.sort()).toEqual(pods.slice(1).map((p) => p.metadata.uid).sort());

      // and when the cluster reports the deletions, the Job is Complete
      await deliver(pods.slice(1).map((pod) => podDeletedEvent(pod, job, at(5))));
      const status = jobStatus((await loadState(jobDecider(DEFAULT_FOLD_CONFIG), store, stream)).state);
      expect(status.conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
      expect(status.terminating ?? 0).toBe(0);
      expect(status.active).toBe(0);

      // and the log passes the audit: the chain holds, each decision's recorded chain head and refold
      const entries = (await store.read(stream)).entries;
      expect(verifyEntryChain(entries)).toEqual([]);
      expect(verifyDecisions(entries)).toEqual([]);
    });
  });
}
