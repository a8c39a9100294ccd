import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import { aJob, aPod, at } from '../../support/builders.ts';
import { jobStream, podObservedEvent } from '../../support/inbound-events.ts';
import { createServiceHarness, type ServiceHarness } from '../../support/service-harness.ts';

// Issue 14 §5: idempotency holds for every eventId the schema accepts, at the byte level: ids
// that differ only in ways a key encoding could fold together are different events, and the
// same id delivered again is stored once. On DynamoDB Local, through the writer.

const nfc = 'caf\u00e9'; // é as one code point
const nfd = 'cafe\u0301'; // e + combining acute
const euro = (n: number) => '€'.repeat(n); // 3 bytes each

/** Ids that a lossy encoding (normalisation, case folding, trimming, escaping) would merge. */
const DISTINCT_IDS: readonly string[] = [
  nfc, nfd,
  'Pod-A', 'pod-a', 'POD-A',
  'a#b', 'a%23b', 'a/b', 'a%2Fb', 'a%2fb', 'a b', 'a+b', 'a%20b',
  'x', ' x', 'x ', '\tx', 'x\n', 'x\u00a0', 'x\u200b',
  'id#1', 'id', 'id#', '#', '##', '/', '%', '%%', '%25',
  '😀', '\u{1F600}\u{1F601}', '\uFFFD',
  `${euro(170)}ab`, // 512 bytes: the limit
  `${euro(170)}ac`, // 512 bytes, differs in the last byte
  `${euro(170)}a`, // 511 bytes: a prefix of both
];

describe('eventId keys on DynamoDB Local', () => {
  let client: DynamoDBClient;
  let h: ServiceHarness;
  beforeAll(async () => {
    client = localClient();
    h = createServiceHarness({ store: new DynamoDbEventStore({ client, tableName: await freshTable(client) }), now: at(10) });
  });
  afterAll(() => client.destroy());

  it('has ids that really are distinct strings', () => {
    expect(new Set(DISTINCT_IDS).size).toBe(DISTINCT_IDS.length);
  });

  it('stores every distinct id once, and none again when all are delivered a second time', async () => {
    // given one Job and one pod observation per id
    const job = aJob({}, { uid: randomUUID() });
    const events = DISTINCT_IDS.map((eventId, i) => podObservedEvent(aPod({ name: `p${i}` }), job, at(1), { eventId }));

    // when each is delivered, then all of them again
    expect(await h.deliver(events)).toEqual([]);
    expect(await h.deliver(events)).toEqual([]);
    expect(h.rejected).toEqual([]);

    // then the log holds each id exactly once, byte for byte
    const stored = (await h.log(jobStream(job))).map((e) => e.eventId);
    expect([...stored].sort()).toEqual([...DISTINCT_IDS].sort());
  });

  it('dedupes an id sent in the same batch as itself', async () => {
    const job = aJob({}, { uid: randomUUID() });
    const event = podObservedEvent(aPod({ name: 'p' }), job, at(1), { eventId: nfd });
    expect(await h.deliver([event, { ...event, id: 'another' }, event])).toEqual([]);
    expect((await h.log(jobStream(job))).map((e) => e.eventId)).toEqual([nfd]);
  });

  it('refuses, before anything is keyed, an id over 512 bytes or with a lone surrogate', async () => {
    const job = aJob({}, { uid: randomUUID() });
    const over = podObservedEvent(aPod({ name: 'p' }), job, at(1), { eventId: `${euro(170)}abc` });
    const lone = podObservedEvent(aPod({ name: 'q' }), job, at(1), { eventId: 'id\uD800' });
    const loneOther = podObservedEvent(aPod({ name: 'r' }), job, at(1), { eventId: 'id\uD801' });
    const before = h.rejected.length;
    expect(await h.deliver([over, lone, loneOther])).toEqual([]);
    expect(h.rejected.slice(before).map((r) => r.reason)).toEqual([
      'detail.eventId: must be at most 512 bytes of UTF-8',
      expect.stringMatching(/^detail\.eventId: the value holds a lone UTF-16 surrogate/),
      expect.stringMatching(/^detail\.eventId: the value holds a lone UTF-16 surrogate/),
    ]);
    expect(await h.log(jobStream(job))).toEqual([]);
  });
});
