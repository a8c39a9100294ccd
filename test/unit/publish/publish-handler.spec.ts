import type { Context, DynamoDBStreamEvent, ScheduledEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { commandItems } from '../../../functions/adapters/dynamodb-outbox.ts';
import { ATTR } from '../../../functions/adapters/table-layout.ts';
import { createPublishHandler } from '../../../functions/handlers/publish-handler.ts';
import type { NewCommand, StreamId } from '../../../shared/log/event-store.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { CONTROL_SOURCE } from '../../../shared/contract/inbound.ts';
import type { OutboundEvent } from '../../../shared/contract/outbound.ts';
import { OUTBOX_PAGE_TYPE, type OutboxPageDetail } from '../../../shared/outbox/outbox-page.ts';
import { at, CLUSTER } from '../../support/builders.ts';
import { RecordingPublisher } from '../../support/service-harness.ts';

// One publish path, two wake-ups: a commit's stream records name the outbox items it inserted,
// and the publisher publishes those (read again by key, not found through the pending index);
// the minute's sweep publishes whatever is still pending. Either way an item goes through
// publishItems and is marked published once, so a stream batch delivered again sends nothing.

const context = { functionName: 'publish', awsRequestId: 'r', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;
const stream = (uid: string): StreamId => ({ kind: 'Job', clusterId: CLUSTER, namespace: 'default', uid });

const anEvent = (commandId: string): OutboundEvent => ({
  commandId, clusterId: CLUSTER, source: CONTROL_SOURCE, detailType: 'Job Status Update Requested', detail: { commandId },
});

function anOutboxItem(uid: string, createdAt: string): NewCommand {
  const detail: OutboxPageDetail = {
    job: { clusterId: CLUSTER, namespace: 'default', name: uid, uid },
    managedBy: undefined,
    inline: [anEvent(`${uid}-a`), anEvent(`${uid}-b`)],
  };
  return { commandId: `${uid}/out/1`, clusterId: CLUSTER, detailType: OUTBOX_PAGE_TYPE, detail, createdAt };
}

/** The records DynamoDB Streams delivers for the items' inserts, as the adapter writes the items. */
function insertRecords(...uids: string[]): DynamoDBStreamEvent {
  return {
    Records: uids.map((uid) => {
      const { item } = commandItems(stream(uid), anOutboxItem(uid, at(1)));
      return {
        eventName: 'INSERT' as const,
        dynamodb: { Keys: { [ATTR.pk]: item[ATTR.pk], [ATTR.sk]: item[ATTR.sk] } as never, NewImage: item as never },
      };
    }),
  };
}

const aMinute = { source: 'aws.events', 'detail-type': 'Scheduled Event' } as unknown as ScheduledEvent;

describe('the publisher', () => {
  let store: InMemoryEventStore;
  let bus: RecordingPublisher;
  let publish: ReturnType<typeof createPublishHandler>;

  beforeEach(async () => {
    store = new InMemoryEventStore();
    bus = new RecordingPublisher();
    publish = createPublishHandler({ store, publisher: bus, clock: () => at(9) });
    for (const [uid, seconds] of [['older', 0], ['named', 1]] as const) {
      await store.commit(stream(uid), { expectedHead: 0, recordedAt: at(seconds), entries: [], outbox: [anOutboxItem(uid, at(seconds))] });
    }
  });

  it('given two pending items, when the stream records of one arrive, then it publishes that one only', async () => {
    await publish(insertRecords('named'), context);

    expect(bus.sent.map((e) => e.commandId)).toEqual(['named-a', 'named-b']);
    expect((await store.pendingOutbox(10)).map((item) => item.commandId)).toEqual(['older/out/1']);
  });

  it('given the same stream records delivered again, then nothing is sent twice', async () => {
    await publish(insertRecords('named'), context);
    await publish(insertRecords('named'), context);

    expect(bus.sent.map((e) => e.commandId)).toEqual(['named-a', 'named-b']);
  });

  it('given records of an item the sweep published first, then nothing is sent twice', async () => {
    await publish(aMinute, context);
    await publish(insertRecords('older', 'named'), context);

    expect(bus.sent.map((e) => e.commandId)).toEqual(['older-a', 'older-b', 'named-a', 'named-b']);
  });

  it('given the minute\'s sweep, then every pending item is published, oldest first', async () => {
    const outcome = await publish(aMinute, context);

    expect(outcome).toEqual({ published: 4, items: 2, failedItems: [] });
    expect(await store.pendingOutbox(10)).toEqual([]);
  });

  it('given a bus that refuses an event, when woken by the stream, then it throws (Lambda delivers the batch again) and the item stays pending', async () => {
    const refusing = createPublishHandler({
      store, clock: () => at(9),
      publisher: { publish: async (events) => ({ failed: events.map((e) => ({ commandId: e.commandId, error: 'ThrottlingException' })) }) },
    });

    await expect(refusing(insertRecords('named'), context)).rejects.toThrow('1 outbox items not published');
    expect((await store.pendingOutbox(10)).map((item) => item.commandId)).toEqual(['older/out/1', 'named/out/1']);
  });
});
