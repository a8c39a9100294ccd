import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ScanCommand, type DynamoDBClient, type ScanCommandInput, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import { adminCommand } from '../../../cli/admin-command.ts';
import { backfillFleetIndex } from '../../../functions/adapters/dynamodb-fleet-backfill.ts';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { summaryItem } from '../../../functions/adapters/dynamodb-projection.ts';
import { readJson } from '../../../functions/adapters/item-codec.ts';
import { MeteredTable, type Item } from '../../../functions/adapters/metered-table.ts';
import { ATTR, INDEX } from '../../../functions/adapters/table-layout.ts';
import type { StreamId } from '../../../shared/log/event-store.ts';
import { fleetSummary } from '../../../bench/fleet-list.ts';
import { freshTable, localClient } from '../store/local-table.ts';
import { ddbEndpoint } from '../../support/ddb-endpoint.ts';

// Given a table whose summaries were written by older versions — some before the summary
// indexes existed (no index keys: absent from every index), some before the fleet index carried
// the condition's status, reason and attention flags — when `jobfold admin backfill-fleet-index`
// runs, then every summary is in the indexes with what a commit writes today, the fleet's rows
// are complete from the index alone, a second run changes nothing, and a summary a commit
// rewrites during the run is left as the commit wrote it.

const SHAPE = { jobs: 60, clusters: 3 };
const PRE_INDEX = [ATTR.fleetKey, ATTR.clusterKey, ATTR.namespaceKey, ATTR.nameKey, ATTR.createdKey, ATTR.conditionType, ATTR.kind, ATTR.namespace];
const PRE_COUNTS = [ATTR.conditionStatus, ATTR.conditionReason, ATTR.attention];

let client: DynamoDBClient;
let tableName: string;
let store: DynamoDbEventStore;
const summaries = Array.from({ length: SHAPE.jobs }, (_, i) => fleetSummary(i, SHAPE));
const streamOf = (s: (typeof summaries)[number]): StreamId => ({ kind: s.kind, clusterId: s.clusterId, namespace: s.namespace, uid: s.uid });
const itemOf = (s: (typeof summaries)[number]): Item => {
  const { kind: _k, clusterId: _c, namespace: _n, uid: _u, ...update } = s;
  return summaryItem(streamOf(s), update);
};
const without = (item: Item, names: readonly string[]): Item => Object.fromEntries(Object.entries(item).filter(([name]) => !names.includes(name)));

beforeAll(async () => {
  client = localClient();
  tableName = await freshTable(client);
  const table = new MeteredTable(client, tableName, { returnConsumedCapacity: 'NONE' });
  // A third as before the indexes, a third as before the fleet counts, a third as today.
  await table.batchPut(summaries.map((s, i) => (i % 3 === 0 ? without(itemOf(s), PRE_INDEX) : i % 3 === 1 ? without(itemOf(s), PRE_COUNTS) : itemOf(s))));
  store = new DynamoDbEventStore({ client, tableName });
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
});
afterAll(() => {
  vi.unstubAllEnvs();
  client.destroy();
});

/** An item with its summary decoded (the SDK reads binary back as Uint8Array, not Buffer). */
const comparable = (item: Item) => ({ ...item, [ATTR.data]: readJson(item, ATTR.data) });

async function fleetIndexItems(): Promise<Item[]> {
  return (await client.send(new ScanCommand({ TableName: tableName, IndexName: INDEX.fleet }))).Items ?? [];
}

describe('jobfold admin backfill-fleet-index on DynamoDB Local', () => {
  it('starts from a table the fleet index misses a third of, with another third incomplete', async () => {
    const items = await fleetIndexItems();
    expect(items).toHaveLength(40);
    expect(items.filter((item) => item[ATTR.attention] === undefined)).toHaveLength(20);
  });

  it('puts every summary in the indexes with what a commit writes today, then changes nothing', async () => {
    const lines: string[] = [];
    const args = ['backfill-fleet-index', '--table', tableName, '--dynamodb-endpoint', ddbEndpoint(), '--region', 'us-east-1'];
    expect(await adminCommand(args, (line) => lines.push(line), (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toBe(`${tableName}: 60 summaries; 40 updated, 20 already complete, 0 rewritten by a commit meanwhile (complete)`);
    expect(lines[1]).toContain('projects every attribute');
    const items = await fleetIndexItems();
    expect(items).toHaveLength(60);
    expect(items.every((item) => item[ATTR.attention] !== undefined)).toBe(true);
    const stored = (await client.send(new ScanCommand({ TableName: tableName }))).Items ?? [];
    expect(new Map(stored.map((item) => [item[ATTR.pk]?.S, comparable(item)]))).toEqual(new Map(summaries.map((s) => [itemOf(s)[ATTR.pk]?.S, comparable(itemOf(s))])));
    const rows = await store.fleetRows();
    expect(rows.map((r) => r.uid).sort()).toEqual(summaries.map((s) => s.uid).sort());
    const page = await store.listJobs({ limit: 100 });
    expect(page.items).toHaveLength(60);
    lines.length = 0;
    await adminCommand(args, (line) => lines.push(line));
    expect(lines[0]).toBe(`${tableName}: 60 summaries; 0 updated, 60 already complete, 0 rewritten by a commit meanwhile (complete)`);
  });

  it('leaves a summary a commit rewrote during the run as the commit wrote it', async () => {
    const name = await freshTable(client);
    const first = summaries[1]!;
    const rewritten = { ...first, updatedAt: '2026-03-01T00:00:00Z' };
    // A table whose scan is followed, before the backfill's update, by a commit of the summary.
    class CommitDuringScan extends MeteredTable {
      override async scan(input: Omit<ScanCommandInput, 'TableName' | 'ReturnConsumedCapacity'>): Promise<ScanCommandOutput> {
        const output = await super.scan(input);
        if ((output.Items ?? []).length > 0) await this.put({ Item: itemOf(rewritten) });
        return output;
      }
    }
    const table = new CommitDuringScan(client, name, { returnConsumedCapacity: 'NONE' });
    await table.batchPut([without(itemOf(first), PRE_COUNTS)]);
    const report = await backfillFleetIndex(table);
    expect(report).toEqual({ summaries: 1, updated: 0, alreadyComplete: 0, changedMeanwhile: 1 });
    const stored = (await client.send(new ScanCommand({ TableName: name }))).Items ?? [];
    expect(stored.map(comparable)).toEqual([comparable(itemOf(rewritten))]);
  });

  it('refuses an unknown action with exit code 2 and the usage', async () => {
    const errors: string[] = [];
    expect(await adminCommand(['rebuild-everything'], () => {}, (line) => errors.push(line))).toBe(2);
    expect(errors[0]).toContain('unknown action rebuild-everything');
  });
});
