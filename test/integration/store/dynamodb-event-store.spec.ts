import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CreateTableCommand, DescribeTableCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { POD_BUCKETS, PODS_PER_ITEM, podsInItem } from '../../../functions/adapters/dynamodb-pod-archive.ts';
import { MeteredTable, type CapacityUse } from '../../../functions/adapters/metered-table.ts';
import { putSummary } from '../../../functions/adapters/dynamodb-projection.ts';
import { ATTR, INDEX, ITEM_TYPE, keys, TABLE_DEFINITION } from '../../../functions/adapters/table-layout.ts';
import { createTables } from '../../../local/dynamodb-local.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { aCommand, aStream, aSummary, anEntry, at, noise, podEventBody, T0 } from './contract/builders.ts';
import { freshTable, localClient } from './local-table.ts';
import { logEntries } from '../../support/log-entries.ts';

// What only the DynamoDB store has: write units per operation, log page items, and markers an
// older version left (one per eventId, written by hand here) that nothing reads any more.

let client: DynamoDBClient;
beforeAll(() => { client = localClient(); });
afterAll(() => client.destroy());

let tableName: string;
let store: DynamoDbEventStore;
let uses: CapacityUse[];
beforeEach(async () => {
  tableName = await freshTable(client);
  uses = [];
  store = new DynamoDbEventStore({ client, tableName, returnConsumedCapacity: 'INDEXES', onConsumedCapacity: (use) => uses.push(use) });
});

const writeUnits = (): number => uses.reduce((sum, use) => sum + use.writeUnits, 0);
const podEvent = (i: number) => ({ eventId: `pod-${i}`, type: 'PodFailed', observedAt: T0, body: podEventBody(i) });

async function claimByHand(stream: StreamId, eventId: string, seq: number): Promise<void> {
  await client.send(new PutItemCommand({ TableName: tableName, Item: {
    [ATTR.pk]: { S: keys.stream(stream) },
    [ATTR.sk]: { S: keys.marker(eventId) },
    [ATTR.type]: { S: ITEM_TYPE.marker },
    [ATTR.seq]: { N: String(seq) },
    [ATTR.writer]: { S: 'crashed' },
  } }));
}

describe('DynamoDB store write units', () => {
  // DynamoDB Local's table figures for transactions do not follow DynamoDB's billing (2 units
  // per KB per item), so these tests check which indexes a commit writes, not the total.
  it('writes the change index with every log item and the outbox index with a command in the transaction, and the summary indexes in the summary put after it, only those whose entry changes', async () => {
    const stream = aStream();
    const commit = (expectedHead: number, conditionType: string, outbox = [aCommand(`c${expectedHead}`)]) =>
      store.commit(stream, {
        expectedHead, recordedAt: at(expectedHead), entries: [anEntry(`d${expectedHead}`)], outbox,
        summary: aSummary({ updatedAt: at(expectedHead), latestCondition: { type: conditionType, status: 'True' } }),
      });
    const indexesWritten = (operation: string): string[] =>
      [...new Set(uses.filter((u) => u.operation === operation).flatMap((u) => u.consumed.flatMap((c) => Object.keys(c.GlobalSecondaryIndexes ?? {}))))].sort();

    await commit(0, 'FailureTarget');
    expect(uses.map((u) => u.operation).filter((o) => o !== 'Query')).toEqual(['TransactWriteItems', 'PutItem']);
    expect(indexesWritten('TransactWriteItems')).toEqual(['log-changes', 'outbox-pending']);
    expect(indexesWritten('PutItem')).toEqual(['summary-cluster', 'summary-fleet', 'summary-name', 'summary-namespace']);

    uses = [];
    await commit(1, 'FailureTarget', []);
    expect(uses.map((u) => u.operation).filter((o) => o !== 'Query')).toEqual(['PutItem', 'PutItem']);
    expect(indexesWritten('PutItem')).toEqual(['log-changes']);

    uses = [];
    await commit(2, 'Failed', []);
    expect(indexesWritten('PutItem')).toEqual(['log-changes', 'summary-cluster', 'summary-fleet', 'summary-namespace']);
  });

  it('never puts a summary over one of a later log position (writers overtaking each other between commit and summary)', async () => {
    const stream = aStream();
    await store.commit(stream, { expectedHead: 0, recordedAt: T0, entries: [anEntry('d1'), anEntry('d2')], outbox: [], summary: aSummary({ latestCondition: { type: 'Failed', status: 'True' } }) });

    // The summary of head 1, put late by a writer whose commit the one above followed.
    await putSummary(new MeteredTable(client, tableName), stream, aSummary({ latestCondition: { type: 'FailureTarget', status: 'True' } }), 1);
    expect((await store.getSummaries([stream]))[0]?.latestCondition?.type).toBe('Failed');

    // At the same position or later it is put.
    await putSummary(new MeteredTable(client, tableName), stream, aSummary({ latestCondition: { type: 'Complete', status: 'True' } }), 2);
    expect((await store.getSummaries([stream]))[0]?.latestCondition?.type).toBe('Complete');
  });
});

describe('DynamoDB store with markers an older version left', () => {
  it('commits an eventId a marker claims at the head, and leaves the marker alone', async () => {
    const stream = aStream();
    await claimByHand(stream, 'd1', 1);
    await store.commit(stream, { expectedHead: 0, recordedAt: T0, entries: [anEntry('p1'), anEntry('p2')], outbox: [] });

    const result = await store.commit(stream, { expectedHead: 2, recordedAt: at(1), entries: [anEntry('d1')], outbox: [] });

    expect(result.appended.map((e) => [e.seq, e.eventId])).toEqual([[3, 'd1']]);
    expect((await store.read(stream)).entries.map((e) => [e.seq, e.eventId])).toEqual([[1, 'p1'], [2, 'p2'], [3, 'd1']]);
  });
});

async function pageItemsOf(stream: StreamId): Promise<number[][]> {
  const output = await client.send(new QueryCommand({
    TableName: tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :e)',
    ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
    ExpressionAttributeValues: { ':pk': { S: keys.stream(stream) }, ':e': { S: keys.entryPrefix } },
  }));
  return (output.Items ?? []).filter((item) => item[ATTR.type]?.S === ITEM_TYPE.page)
    .map((item) => [Number(item[ATTR.seq]?.N), Number(item[ATTR.lastSeq]?.N)]);
}

describe('DynamoDB store log pages', () => {
  const pods = (from: number, count: number) => Array.from({ length: count }, (_, i) => podEvent(from + i));

  it('commits 500 ~1.4 KB pod observations as one page, one conditional PutItem, under 0.1 write units each', async () => {
    const stream = aStream();
    await store.commit(stream, { expectedHead: 0, recordedAt: T0, entries: [podEvent(0)], outbox: [] });
    uses = [];

    await store.commit(stream, { expectedHead: 1, recordedAt: at(1), entries: pods(1, 500), outbox: [] });

    expect(uses.filter((u) => u.operation === 'PutItem')).toHaveLength(1);
    expect(uses.filter((u) => u.operation === 'TransactWriteItems')).toHaveLength(0);
    expect(writeUnits() / 500).toBeLessThan(0.1); // one item per event (older versions): 2 per event
    expect(await pageItemsOf(stream)).toEqual([[1, 1], [2, 501]]);
  });

  it('bills a page in a transaction with a command twice what the page alone costs (the summary put after it adds 5: 1 and its four index entries)', async () => {
    await store.commit(aStream(), { expectedHead: 0, recordedAt: T0, entries: pods(0, 500), outbox: [] });
    // The PutItem's units include the page's change-index write (1), which the transaction's
    // model of billing (item sizes) leaves out, as it does every index write.
    const alone = store.capacity.billedWriteUnits - 1;

    await store.commit(aStream(), { expectedHead: 0, recordedAt: T0, entries: pods(0, 500), outbox: [aCommand('c1')], summary: aSummary() });

    // capacity.billedWriteUnits models DynamoDB's 2 units per KB per transaction item.
    const transaction = store.capacity.billedWriteUnits - alone;
    expect(transaction).toBeGreaterThanOrEqual(2 * alone + 4);
    expect(transaction).toBeLessThanOrEqual(2 * alone + 8);
  });

  it('writes pages with commands in one transaction, and the summary after it', async () => {
    const stream = aStream();
    await store.commit(stream, { expectedHead: 0, recordedAt: T0, entries: pods(0, 3), outbox: [aCommand('c1')], summary: aSummary() });
    expect(uses.map((u) => u.operation).filter((o) => o !== 'Query')).toEqual(['TransactWriteItems', 'PutItem']);
    expect(await pageItemsOf(stream)).toEqual([[1, 3]]);
  });

  it('splits entries that compress past one item into several pages of one transaction', async () => {
    const stream = aStream();
    // 1 MB of bodies that barely compress (~750 KB, over twice a page's 350 KB): at least three pages.
    const entries = [0, 1, 2, 3].map((i) => anEntry(`big-${i}`, { text: noise(250_000, i + 1) }));

    await store.commit(stream, { expectedHead: 0, recordedAt: T0, entries, outbox: [] });

    expect(uses.filter((u) => u.operation === 'TransactWriteItems')).toHaveLength(1);
    const pages = await pageItemsOf(stream);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.flatMap(([first, last]) => Array.from({ length: (last ?? 0) - (first ?? 0) + 1 }, (_, i) => (first ?? 0) + i))).toEqual([1, 2, 3, 4]);
  });
});

describe('DynamoDB store pod archive', () => {
  const archived = (i: number, gone = false) => ({
    uid: `pod-uid-${i}`, name: `a-rather-long-job-name-worker-${i}-${'x'.repeat(40)}`, namespace: 'batch-team',
    phase: 'Succeeded', index: i, counted: 'succeeded' as const, gone, seq: i, lastEventId: `pod-uid-${i}/${1000 + i}`,
  });
  const archiveItems = async (stream: StreamId) => {
    const output = await client.send(new QueryCommand({ TableName: tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :p)',
      ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
      ExpressionAttributeValues: { ':pk': { S: keys.stream(stream) }, ':p': { S: 'pods#' } } }));
    return output.Items ?? [];
  };

  it('packs a big save into one compressed item per bucket share: a few hundredths of a write unit per pod', async () => {
    const stream = aStream();
    // 2 x PODS_PER_ITEM x POD_BUCKETS pods: every bucket's share needs more than one item.
    const pods = Array.from({ length: 2 * PODS_PER_ITEM * POD_BUCKETS + 7 }, (_, i) => archived(i));
    await store.saveArchivedPods(stream, pods);

    const items = await archiveItems(stream);
    expect(items.reduce((sum, item) => sum + podsInItem(item), 0)).toBe(pods.length);
    expect(items.every((item) => podsInItem(item) <= PODS_PER_ITEM)).toBe(true);
    expect(items.length).toBeGreaterThan(2 * POD_BUCKETS);
    expect(writeUnits() / pods.length).toBeLessThan(0.05);
    const asked = [0, 1, 999, 40_000, pods.length - 1].map((i) => `pod-uid-${i}`);
    const found = await store.loadArchivedPods(stream, [...asked, 'never-archived']);
    expect(found.map((p) => p.uid).sort()).toEqual(asked.sort());
    expect(found.find((p) => p.uid === 'pod-uid-999')).toEqual(archived(999));
  }, 60_000);

  it('reads pods archived one item each (the format before) and lets a later save win', async () => {
    const stream = aStream();
    await client.send(new PutItemCommand({ TableName: tableName, Item: {
      [ATTR.pk]: { S: keys.stream(stream) }, [ATTR.sk]: { S: keys.pod('pod-uid-1') },
      [ATTR.type]: { S: ITEM_TYPE.pod }, [ATTR.data]: { S: JSON.stringify(archived(1)) },
    } }));
    await store.saveArchivedPods(stream, [archived(2)]);
    await store.saveArchivedPods(stream, [archived(2, true)]);

    const found = await store.loadArchivedPods(stream, ['pod-uid-1', 'pod-uid-2']);

    expect(found.sort((a, b) => a.index - b.index)).toEqual([archived(1), archived(2, true)]);
    // The whole archive (a Job with a success policy, on a cold load) holds both formats.
    expect((await store.loadAllArchivedPods(stream)).sort((a, b) => a.index - b.index)).toEqual([archived(1), archived(2, true)]);
  });
});

describe('DynamoDB Local table kept from an older version', () => {
  it('gets the change index it lacks, and its logs enter the feed when they next grow', async () => {
    const name = `older-${Date.now()}`;
    const older = TABLE_DEFINITION.GlobalSecondaryIndexes.filter((index) => index.IndexName !== INDEX.changes);
    const keyNames = new Set(older.flatMap((index) => index.KeySchema.map((k) => k.AttributeName)).concat(ATTR.pk, ATTR.sk));
    await client.send(new CreateTableCommand({
      ...TABLE_DEFINITION, TableName: name, GlobalSecondaryIndexes: older,
      AttributeDefinitions: TABLE_DEFINITION.AttributeDefinitions.filter((a) => keyNames.has(a.AttributeName)),
    }));

    await createTables(client, name);

    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toContain(INDEX.changes);
    const upgraded = new DynamoDbEventStore({ client, tableName: name });
    const stream = aStream({ clusterId: 'kept' });
    await logEntries(upgraded, stream, [anEntry('after-upgrade')], T0);
    const page = await upgraded.logChanges({ kind: 'Job', clusterId: 'kept', sinceMs: 0, limit: 10 });
    expect(page.changes).toEqual([{ stream, firstSeq: 1, lastSeq: 1, recordedAt: new Date(T0).toISOString() }]);
  });
});
