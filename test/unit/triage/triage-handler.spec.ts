import { describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { logger } from '../../../functions/commons/powertools.ts';
import { createTriageHandler, triageMessage } from '../../../functions/handlers/triage-handler.ts';
import { NoMarkersStore, sampleEvents, statusOf } from '../writer/write-support.ts';
import { onFailureBody, sqsRecord, triageWorld, withOutage, SHARD } from '../../support/triage-harness.ts';

// The dead-letter triage (issue 14: a dead letter carries the error that put it there; work is
// retried or parked where an operator sees it), with an in-memory shard and store.

logger.setLogLevel('SILENT');
const context = { functionName: 'triage', awsRequestId: 'r', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
const events = sampleEvents('samples/named-failure.jsonl');
const job: StreamId = { kind: 'Job', clusterId: 'dev-eu-1', namespace: 'default', uid: '7c9e6679-7425-40de-944b-e07fc1f90ae7' };

/** The sample's events put on the shard, and the on-failure record Lambda would write for all of them. */
function failedBatch(world: ReturnType<typeof triageWorld>) {
  const sequenceNumbers = events.map((e) => world.shard.put(job.uid, JSON.stringify(e)));
  return onFailureBody(sequenceNumbers[0]!, sequenceNumbers.at(-1)!, sequenceNumbers.length);
}

describe('given a batch the writer failed after its retries (the writer-failures queue)', () => {
  it('when the store outage has passed, then the triage writes the batch and parks nothing', async () => {
    const store = new NoMarkersStore();
    const world = triageWorld(store);
    const handler = createTriageHandler(world.deps);
    const response = await handler({ Records: [sqsRecord(failedBatch(world), 1)] }, context);
    expect(response).toEqual({ batchItemFailures: [] });
    expect((await statusOf(store, job)).failed).toBe(5);
    expect(world.parked).toEqual([]);
  });

  it('when the store is still down, then it is retried by SQS before the last receive, and nothing is parked', async () => {
    const { store, down } = withOutage(new NoMarkersStore());
    const world = triageWorld(store);
    down(true);
    const body = failedBatch(world);
    for (const receive of [1, 2, 3, 4]) {
      expect(await createTriageHandler(world.deps)({ Records: [sqsRecord(body, receive)] }, context)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    }
    expect(world.parked).toEqual([]);
  });

  it('when the store heals between receives, then the next receive writes the batch', async () => {
    const { store, down } = withOutage(new NoMarkersStore());
    const world = triageWorld(store);
    const body = failedBatch(world);
    down(true);
    expect(await triageMessage(world.deps, { body, receiveCount: 1 })).toEqual({ retry: expect.stringContaining('ServiceUnavailable: Service Unavailable') });
    down(false);
    expect(await triageMessage(world.deps, { body, receiveCount: 2 })).toBe('done');
    expect((await statusOf(store, job)).failed).toBe(5);
    expect(world.parked).toEqual([]);
  });

  it('when the store is still down on the last receive, then each record is parked with the error, the Job, shard and sequence', async () => {
    const { store, down } = withOutage(new NoMarkersStore());
    const world = triageWorld(store);
    const body = failedBatch(world);
    down(true);
    expect(await triageMessage(world.deps, { body, receiveCount: 5 })).toBe('done');
    expect(world.parked).toHaveLength(events.length);
    expect(world.parked[0]).toMatchObject({
      code: 'WriteFailed', error: { name: 'ServiceUnavailable', message: 'Service Unavailable' },
      job: expect.stringContaining(job.uid), shardId: SHARD, sequenceNumber: world.shard.records[0]!.sequenceNumber,
      receiveCount: 5, original: JSON.stringify(events[0]),
    });
    expect(world.parked.map((p) => p.sequenceNumber)).toEqual(world.shard.records.map((r) => r.sequenceNumber));
  });

  it('when the stream no longer holds the range, then the on-failure record itself is parked at once, saying so', async () => {
    const world = triageWorld(new NoMarkersStore());
    const body = failedBatch(world);
    world.shard.trim(events.length);
    expect(await triageMessage(world.deps, { body, receiveCount: 1 })).toBe('done');
    expect(world.parked).toEqual([expect.objectContaining({
      code: 'RangeExpired', original: body, shardId: SHARD,
      reason: expect.stringMatching(/no longer holds the start of shardId-000000000000 \d+…\d+ \(its retention passed\)/),
      error: { name: 'RangeExpired', message: expect.stringMatching(/^0 of the range's records were still readable/) },
    })]);
  });

  it('when the stream holds only the end of the range, then that is written and the loss parked once', async () => {
    const store = new NoMarkersStore();
    const world = triageWorld(store);
    const body = failedBatch(world);
    world.shard.trim(2);
    expect(await triageMessage(world.deps, { body, receiveCount: 1 })).toBe('done');
    expect(world.parked.map((p) => p.code)).toEqual(['RangeExpired']);
    expect((await store.read(job)).entries.length).toBeGreaterThan(0);
  });

  it('when the range cannot be read on any receive, then the on-failure record is parked with the read error on the last', async () => {
    const world = triageWorld(new NoMarkersStore());
    const broken = { ...world.deps, reader: { read: async () => { throw Object.assign(new Error('Rate exceeded for shard'), { name: 'ProvisionedThroughputExceededException' }); } } };
    const body = failedBatch(world);
    expect(await triageMessage(broken, { body, receiveCount: 1 })).toEqual({ retry: expect.stringContaining('Rate exceeded for shard') });
    expect(await triageMessage(broken, { body, receiveCount: 5 })).toBe('done');
    expect(world.parked).toEqual([expect.objectContaining({ code: 'ReadFailed', error: { name: 'ProvisionedThroughputExceededException', message: 'Rate exceeded for shard' }, original: body })]);
  });

  it('when the on-failure record is not as Lambda writes it, then it is parked as unrecognised', async () => {
    const world = triageWorld(new NoMarkersStore());
    const body = JSON.stringify({ KinesisBatchInfo: { shardId: SHARD, startSequenceNumber: 'x' } });
    expect(await triageMessage(world.deps, { body, receiveCount: 1 })).toBe('done');
    expect(world.parked).toEqual([expect.objectContaining({ code: 'Unrecognised', original: body })]);
  });
});

describe('given an event EventBridge could not put into the stream (the ingest DLQ)', () => {
  const attributes = { ERROR_CODE: 'KINESIS_VALIDATION_ERROR', ERROR_MESSAGE: 'Member must have length less than or equal to 256' };
  const withKey = (key: string) => JSON.stringify({ ...(events[0] as object), detail: { ...(events[0] as { detail: object }).detail, partitionKey: key } });

  it('when its partitionKey is over 256 characters, then it is refused with the reason and EventBridge\'s error', async () => {
    const world = triageWorld(new NoMarkersStore());
    const response = await createTriageHandler(world.deps)({ Records: [sqsRecord(withKey('k'.repeat(257)), 1, attributes)] }, context);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(world.refused).toHaveLength(1);
    expect(world.refused[0]!.errors).toEqual([
      expect.objectContaining({ path: 'detail.partitionKey' }),
      { path: '', message: 'the ingest stream did not take it: KINESIS_VALIDATION_ERROR: Member must have length less than or equal to 256' },
    ]);
    expect(world.shard.records).toEqual([]);
  });

  it('when it is valid, then it is put back into the stream under its Job\'s key, and the writer logs it', async () => {
    const store = new NoMarkersStore();
    const world = triageWorld(store);
    expect(await triageMessage(world.deps, { body: withKey(job.uid), receiveCount: 1, errorCode: 'ThrottlingException' })).toBe('done');
    expect(world.shard.records.map((r) => r.partitionKey)).toEqual([job.uid]);
    expect(world.refused).toEqual([]);
  });

  it('when putting it back fails, then it is retried, and parked with the error on the last receive', async () => {
    const world = triageWorld(new NoMarkersStore());
    const deps = { ...world.deps, stream: { put: async () => { throw Object.assign(new Error('Stream is being deleted'), { name: 'ResourceInUseException' }); } } };
    expect(await triageMessage(deps, { body: withKey(job.uid), receiveCount: 1 })).toEqual({ retry: 'ResourceInUseException: Stream is being deleted' });
    expect(await triageMessage(deps, { body: withKey(job.uid), receiveCount: 5, errorCode: 'ThrottlingException' })).toBe('done');
    expect(world.parked).toEqual([expect.objectContaining({
      code: 'RedriveFailed', error: { name: 'ResourceInUseException', message: 'Stream is being deleted' },
      reason: expect.stringContaining('(ThrottlingException)'), original: withKey(job.uid),
    })]);
  });

  it('when it is a rejection the bus could not file, then it is parked with EventBridge\'s error', async () => {
    const world = triageWorld(new NoMarkersStore());
    const body = JSON.stringify({ source: 'jobfold.ingest', 'detail-type': 'Inbound Event Rejected', detail: { reason: 'x' } });
    expect(await triageMessage(world.deps, { body, receiveCount: 1, errorCode: 'SQS_ERROR', errorMessage: 'throttled' })).toBe('done');
    expect(world.parked).toEqual([expect.objectContaining({ code: 'RejectionUndelivered', error: { name: 'SQS_ERROR', message: 'SQS_ERROR: throttled' } })]);
  });

  it('when parking itself fails, then the message stays in its queue (a batch item failure)', async () => {
    const world = triageWorld(new NoMarkersStore());
    const deps = { ...world.deps, parked: { park: async () => { throw new Error('SQS down'); } } };
    const body = JSON.stringify({ source: 'jobfold.ingest', 'detail-type': 'Inbound Event Rejected', detail: {} });
    expect(await createTriageHandler(deps)({ Records: [sqsRecord(body, 9)] }, context)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
  });
});

describe('given a message the triage failed before its last attempt, and a requeue', () => {
  const requeuer = (fail = false) => {
    const sent: { body: string; error: string; attempts: number; source: string }[] = [];
    return { sent, requeue: { requeue: async (m: { body: string; receiveCount: number }, error: string, source: string) => {
      if (fail) throw new Error('SQS down');
      sent.push({ body: m.body, error, attempts: m.receiveCount, source });
    } } };
  };

  it('when the store is still down, then the message is sent back with the error and the attempts, and deleted', async () => {
    const { store, down } = withOutage(new NoMarkersStore());
    const world = triageWorld(store);
    const body = failedBatch(world);
    down(true);
    const r = requeuer();
    const response = await createTriageHandler({ ...world.deps, requeue: r.requeue })({ Records: [sqsRecord(body, 1)] }, context);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(r.sent).toEqual([{ body, error: expect.stringContaining('ServiceUnavailable: Service Unavailable'), attempts: 1, source: 'arn:aws:sqs:eu-west-1:1:q' }]);
  });

  it('when a requeued message comes back, then its earlier attempts count: the 5th attempt parks', async () => {
    const { store, down } = withOutage(new NoMarkersStore());
    const world = triageWorld(store);
    const body = failedBatch(world);
    down(true);
    const r = requeuer();
    await createTriageHandler({ ...world.deps, requeue: r.requeue })({ Records: [sqsRecord(body, 1, { TRIAGE_ATTEMPTS: '4', TRIAGE_ERROR: 'x' })] }, context);
    expect(r.sent).toEqual([]);
    expect(world.parked.map((p) => p.receiveCount)).toEqual(events.map(() => 5));
  });

  it('when the requeue fails, then SQS retries the message in place', async () => {
    const { store, down } = withOutage(new NoMarkersStore());
    const world = triageWorld(store);
    down(true);
    const response = await createTriageHandler({ ...world.deps, requeue: requeuer(true).requeue })({ Records: [sqsRecord(failedBatch(world), 1)] }, context);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
  });
});
