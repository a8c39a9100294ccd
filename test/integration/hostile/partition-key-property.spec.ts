import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { logger } from '../../../functions/commons/powertools.ts';
import { triageMessage } from '../../../functions/handlers/triage-handler.ts';
import { parseInboundRecord } from '../../../shared/contract/parse-inbound-record.ts';
import { partitionKeyProblem, ruleTargetPartitionKey } from '../../../shared/contract/partition-key.ts';
import { kinesisEvent } from '../../support/kinesis-records.ts';
import { triageWorld, type TriageWorld } from '../../support/triage-harness.ts';
import { VALID } from '../service/hostile-events.ts';
import { freshTable, localClient } from '../store/local-table.ts';

// Issue 14, "every inbound event is stored or refused with its reason, none dead-lettered", for
// the one field the ingest stream itself reads: `detail.partitionKey`. Generated keys go the way
// AWS takes them: a key Kinesis takes is put into the stream and written by the writer; a key it
// refuses makes EventBridge dead-letter the event, and the dead-letter triage refuses it (or puts
// it back). Either way, on DynamoDB Local: stored or refused with a reason, nothing parked.

logger.setLogLevel('SILENT');
process.env['POWERTOOLS_METRICS_DISABLED'] = 'true';

const hostileKey: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }), // lone surrogates, astral characters
  fc.string({ unit: 'grapheme', minLength: 250, maxLength: 270 }),
  fc.integer({ min: 250, max: 260 }).map((n) => 'k'.repeat(n)),
  fc.integer({ min: 85, max: 130 }).map((n) => '\u{1F600}'.repeat(n * 2)),
  fc.constantFrom('', ' ', '\uD800', 'a\uDC00', '€'.repeat(256), '€'.repeat(257), undefined, null, 42, true, [], { uid: 'x' }),
);

let serial = 0;
function podEventWithKey(key: unknown): Record<string, any> {
  const event = JSON.parse(JSON.stringify(VALID.podObserved)) as Record<string, any>;
  serial++;
  event['id'] = `eb-key-${serial}`;
  event['detail'].eventId = `key-property-${serial}`;
  event['detail'].object.metadata.uid = `key-pod-${serial}`;
  if (key === undefined) delete event['detail'].partitionKey;
  else event['detail'].partitionKey = key;
  return event;
}

/** The AWS path: the rule's Kinesis target, or (key refused) the ingest DLQ and the triage; then the writer. */
async function ingest(world: TriageWorld, event: Record<string, any>): Promise<void> {
  const body = JSON.stringify(event);
  const before = world.shard.records.length;
  if (partitionKeyProblem(ruleTargetPartitionKey(event)) === undefined) world.shard.put(ruleTargetPartitionKey(event), body);
  else expect(await triageMessage(world.deps, { body, receiveCount: 1, errorCode: 'KINESIS_VALIDATION_ERROR' })).toBe('done');
  const put = world.shard.records.slice(before);
  if (put.length > 0) expect(await world.deps.write(kinesisEvent(put.map((r) => Buffer.from(r.data).toString('utf8'))).Records)).toEqual([]);
}

describe('generated partition keys, the way AWS takes them (DynamoDB Local)', () => {
  let client: DynamoDBClient;
  let store: DynamoDbEventStore;
  beforeAll(async () => {
    client = localClient();
    store = new DynamoDbEventStore({ client, tableName: await freshTable(client) });
  });
  afterAll(() => client.destroy());

  it('stores or refuses each with a reason; nothing is dead-lettered or parked', async () => {
    await fc.assert(
      fc.asyncProperty(hostileKey, async (key) => {
        const world = triageWorld(store);
        const event = podEventWithKey(key);
        await ingest(world, event);
        expect(world.parked).toEqual([]);
        const parsed = parseInboundRecord(event);
        if (!parsed.ok) {
          expect(world.refused).toHaveLength(1);
          expect(world.refused[0]!.errors.length).toBeGreaterThan(0);
          expect(JSON.stringify(world.refused[0]!.errors)).toMatch(/partitionKey|surrogate/);
          return;
        }
        expect(world.refused).toEqual([]);
        const [target] = parsed.primary;
        const { entries } = await store.read(target!.stream);
        expect(entries.map((e) => e.eventId)).toContain(target!.entry.eventId);
      }),
      { numRuns: 60 },
    );
  });
});
