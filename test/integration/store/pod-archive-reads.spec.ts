import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { jsonAttributes, str } from '../../../functions/adapters/item-codec.ts';
import type { ArchivedPod } from '../../../shared/job/snapshot.ts';
import { MeteredTable, type CapacityUse } from '../../../functions/adapters/metered-table.ts';
import { ATTR, ITEM_TYPE, keys } from '../../../functions/adapters/table-layout.ts';
import { aStream, anArchivedPod } from './contract/builders.ts';
import { freshTable, localClient } from './local-table.ts';

// Given a big Job's packed pod archive on DynamoDB Local, when a cold load (a query's fold from
// a snapshot, the writer's reload) asks for the pods its tail names — most of them first seen
// after the snapshot, so in no archive — then it reads the archive in one paged query rather
// than one per bucket, and looks for the older one-item format only when the Job has such items
// (issue 10: `status?at=` on a 100,000-index Job made 64 bucket queries and a BatchGet per 100
// new pods).

let client: DynamoDBClient;
let tableName: string;
let store: DynamoDbEventStore;
const uses: CapacityUse[] = [];

beforeAll(async () => {
  client = localClient();
  tableName = await freshTable(client);
  store = new DynamoDbEventStore({ client, tableName, onConsumedCapacity: (use) => uses.push(use) });
});
afterAll(() => client.destroy());

/** The requests `load` makes, by operation. */
async function requestsOf<T>(load: () => Promise<T>): Promise<{ result: T; requests: Record<string, number> }> {
  uses.length = 0;
  const result = await load();
  const requests: Record<string, number> = {};
  for (const use of uses) requests[use.operation] = (requests[use.operation] ?? 0) + 1;
  return { result, requests };
}

describe('loading archived pods of a big Job on DynamoDB Local', () => {
  it('reads every bucket in one paged query, the latest save of each pod winning', async () => {
    const stream = aStream();
    const pods = Array.from({ length: 2000 }, (_, i) => anArchivedPod(i));
    await store.saveArchivedPods(stream, pods);
    await store.saveArchivedPods(stream, [anArchivedPod(7, { gone: true })]);
    const asked = [...pods.map((p) => p.uid), ...Array.from({ length: 300 }, (_, i) => `new-pod-${i}`)];

    const { result, requests } = await requestsOf(() => store.loadArchivedPods(stream, asked));

    expect(result.sort((a, b) => a.index - b.index)).toEqual(pods.map((p) => (p.index === 7 ? anArchivedPod(7, { gone: true }) : p)));
    // The archive query (one page: the packed items are small) and the check for older items.
    expect(requests).toEqual({ Query: 2 });
  });

  it('queries only the buckets of a few uids', async () => {
    const stream = aStream();
    await store.saveArchivedPods(stream, Array.from({ length: 300 }, (_, i) => anArchivedPod(i)));

    const { result, requests } = await requestsOf(() => store.loadArchivedPods(stream, ['pod-uid-3', 'pod-uid-200']));

    expect(result.map((p) => p.uid).sort()).toEqual(['pod-uid-200', 'pod-uid-3']);
    expect(requests).toEqual({ Query: 2 });
  });

  it('reads packed items written before the stored form (257ac7f\'s objects), and a later save of one of their pods in the form wins', async () => {
    const stream = aStream();
    // test/fixtures/archived-pods-257ac7f: the items 257ac7f's adapter wrote for pods.json, put here under this test's stream.
    const fixture = new URL('../../fixtures/archived-pods-257ac7f/', import.meta.url);
    const stored = JSON.parse(readFileSync(new URL('pods.json', fixture), 'utf8')) as ArchivedPod[];
    const items = (JSON.parse(readFileSync(new URL('items.json', fixture), 'utf8')) as Record<string, { S?: string; N?: string; B?: { $b64: string } }>[])
      .map((item) => Object.fromEntries(Object.entries(item).map(([name, value]) => [name, value.B ? { B: Buffer.from(value.B.$b64, 'base64') } : value])));
    const table = new MeteredTable(client, tableName, { returnConsumedCapacity: 'NONE' });
    await table.batchPut(items.map((item) => ({ ...item, [ATTR.pk]: str(keys.stream(stream)) })));

    expect(sortByIndex(await store.loadAllArchivedPods(stream))).toStrictEqual(sortByIndex(stored));
    expect(sortByIndex(await store.loadArchivedPods(stream, [stored[1]!.uid, stored[3]!.uid]))).toStrictEqual(sortByIndex([stored[1]!, stored[3]!]));

    const later = { ...stored[1]!, lastSeq: 20_000, archivedAt: 25_000 };
    await store.saveArchivedPods(stream, [later]);
    expect(sortByIndex(await store.loadAllArchivedPods(stream))).toStrictEqual(sortByIndex(stored.map((pod, i) => (i === 1 ? later : pod))));
  });

  it('still finds pods archived in the older one-item format, beside packed ones', async () => {
    const stream = aStream();
    await store.saveArchivedPods(stream, Array.from({ length: 100 }, (_, i) => anArchivedPod(i)));
    const table = new MeteredTable(client, tableName, { returnConsumedCapacity: 'NONE' });
    const legacy = [anArchivedPod(500), anArchivedPod(501)];
    await table.batchPut(legacy.map((pod) => ({
      [ATTR.pk]: str(keys.stream(stream)), [ATTR.sk]: str(keys.pod(pod.uid)), [ATTR.type]: str(ITEM_TYPE.pod), ...jsonAttributes(ATTR.data, pod),
    })));

    const asked = [...Array.from({ length: 100 }, (_, i) => `pod-uid-${i}`), 'pod-uid-500', 'pod-uid-501', 'new-pod'];
    const { result, requests } = await requestsOf(() => store.loadArchivedPods(stream, asked));

    expect(result.sort((a, b) => a.index - b.index)).toEqual([...Array.from({ length: 100 }, (_, i) => anArchivedPod(i)), ...legacy]);
    expect(requests).toEqual({ Query: 2, BatchGetItem: 1 });
  });
});

const sortByIndex = (pods: readonly ArchivedPod[]): ArchivedPod[] => [...pods].sort((a, b) => a.index - b.index);
