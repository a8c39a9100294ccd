import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { logger } from '../../../functions/commons/powertools.ts';
import { createTriageHandler } from '../../../functions/handlers/triage-handler.ts';
import { streamKey } from '../../../shared/log/stream-key.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent } from '../../support/inbound-events.ts';
import { onFailureBody, SHARD, sqsRecord, triageWorld, withOutage } from '../../support/triage-harness.ts';
import { describeOnDynamoDbLocal } from '../service/dynamodb-service-store.ts';

// Issue 14 on DynamoDB Local: what the ingest path gives up on is retried or parked with its
// error, and a hostile partition key is refused, not dead-lettered. A Job's batch that the writer
// failed after its retries (the store was down) reaches the dead-letter triage as Lambda's
// description (shard, sequence range); the triage reads the records back and writes them with the
// writer's code, on each SQS receive, until the store is healed or the last receive parks them.

logger.setLogLevel('SILENT');
process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';
const context = { functionName: 'triage', awsRequestId: 't', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

function aBatch() {
  const job = aJob({ completions: 2, parallelism: 2 }, { uid: randomUUID() });
  const events = [jobObservedEvent(job, at(0)), podObservedEvent(aPod({ name: 'a', phase: 'Running' }), job, at(1)), podObservedEvent(aPod({ name: 'b', phase: 'Succeeded' }), job, at(2))];
  return { job, events, stream: jobStream(job) };
}

describeOnDynamoDbLocal((label, factory) => {
  describe(`the dead-letter triage (${label})`, () => {
    it('given a batch failed during a store outage, when the store heals after 2 receives, then the 3rd writes it all', async () => {
      const { store } = await factory();
      const outage = withOutage(store);
      const world = triageWorld(outage.store);
      const { events, stream } = aBatch();
      const sequenceNumbers = events.map((e) => world.shard.put(stream.uid, JSON.stringify(e)));
      const body = onFailureBody(sequenceNumbers[0]!, sequenceNumbers.at(-1)!, events.length);
      const handler = createTriageHandler(world.deps);

      outage.down(true);
      for (const receive of [1, 2]) {
        expect(await handler({ Records: [sqsRecord(body, receive)] }, context)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
      }
      expect((await store.read(stream)).entries).toEqual([]);
      outage.down(false);
      expect(await handler({ Records: [sqsRecord(body, 3)] }, context)).toEqual({ batchItemFailures: [] });

      const logged = (await store.read(stream)).entries.filter((e) => e.type === 'JobObserved' || e.type === 'PodObserved');
      expect(logged.map((e) => e.eventId)).toEqual(events.map((e) => (e.detail as { eventId: string }).eventId));
      expect(world.parked).toEqual([]);
    });

    it('given the store never heals, when the last receive comes, then each record is parked with the error, its Job, shard and sequence', async () => {
      const { store } = await factory();
      const outage = withOutage(store);
      const world = triageWorld(outage.store);
      const { events, stream } = aBatch();
      const sequenceNumbers = events.map((e) => world.shard.put(stream.uid, JSON.stringify(e)));
      const body = onFailureBody(sequenceNumbers[0]!, sequenceNumbers.at(-1)!, events.length);
      outage.down(true);
      expect(await createTriageHandler(world.deps)({ Records: [sqsRecord(body, 5)] }, context)).toEqual({ batchItemFailures: [] });

      expect(world.parked.map((p) => ({ code: p.code, job: p.job, shardId: p.shardId, sequenceNumber: p.sequenceNumber, error: p.error, original: p.original })))
        .toEqual(events.map((e, i) => ({
          code: 'WriteFailed', job: streamKey(stream), shardId: SHARD, sequenceNumber: sequenceNumbers[i],
          error: { name: 'ServiceUnavailable', message: 'Service Unavailable' }, original: JSON.stringify(e),
        })));
      outage.down(false);
      expect((await store.read(stream)).entries).toEqual([]);
    });

    it('given an event with a 257-character partitionKey in the ingest DLQ, then it is refused with the reason and nothing is stored', async () => {
      const { store } = await factory();
      const world = triageWorld(store);
      const { events, stream } = aBatch();
      const hostile = { ...events[0]!, detail: { ...(events[0]!.detail as object), partitionKey: 'k'.repeat(257) } };
      const record = sqsRecord(JSON.stringify(hostile), 1, { ERROR_CODE: 'KINESIS_VALIDATION_ERROR', ERROR_MESSAGE: 'partitionKey: Member must have length less than or equal to 256' });
      expect(await createTriageHandler(world.deps)({ Records: [record] }, context)).toEqual({ batchItemFailures: [] });

      expect(world.refused).toEqual([{ event: JSON.stringify(hostile), errors: [
        expect.objectContaining({ path: 'detail.partitionKey', message: expect.stringMatching(/256/) }),
        { path: '', message: 'the ingest stream did not take it: KINESIS_VALIDATION_ERROR: partitionKey: Member must have length less than or equal to 256' },
      ] }]);
      expect(world.shard.records).toEqual([]);
      expect(world.parked).toEqual([]);
      expect((await store.read(stream)).entries).toEqual([]);
    });
  });
});
