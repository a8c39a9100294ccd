import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import type { JobSummary } from '../../../shared/app/event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { writeFleet } from '../../../bench/fleet-list.ts';
import { queryClient, type Get } from '../../unit/query/support/query-client.ts';
import { freshTable, localClient } from '../store/local-table.ts';

// Given 10,000 Jobs over 20 clusters (five namespaces each, running, succeeded, failed and
// suspended, some created in the same second) on DynamoDB Local, when the fleet list is paged
// through under each filter, then every matching Job appears exactly once, newest first
// (issue 10: the fleet list stays complete at 10,000 Jobs).

const SHAPE = { jobs: Number(process.env['FLEET_JOBS'] ?? 10_000), clusters: 20 };
let get: Get;
let fleet: JobSummary[];

beforeAll(async () => {
  const client = localClient();
  const tableName = await freshTable(client);
  fleet = await writeFleet(client, tableName, SHAPE);
  get = queryClient({ store: new DynamoDbEventStore({ client, tableName }), config: DEFAULT_FOLD_CONFIG });
}, 600_000);

/** Newest createdAt first, ties by uid descending: the order of the port. */
const newestFirst = (items: JobSummary[]) =>
  [...items].sort((a, b) => (a.createdAt === b.createdAt ? b.uid.localeCompare(a.uid) : b.createdAt.localeCompare(a.createdAt)));

async function pageAll(query: Record<string, string>, limit = 100): Promise<string[]> {
  const uids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page <= SHAPE.jobs / limit + 1; page++) {
    const { status, body } = await get('/v1/jobs', { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.items.length).toBeLessThanOrEqual(limit);
    uids.push(...body.items.map((item: JobSummary) => item.uid));
    cursor = body.nextCursor;
    if (cursor === undefined) break;
  }
  expect(cursor, 'the list ended').toBeUndefined();
  return uids;
}

function expectExactlyOnce(listed: string[], expected: JobSummary[]): void {
  expect(new Set(listed).size, 'no Job listed twice').toBe(listed.length);
  expect(listed).toEqual(newestFirst(expected).map((s) => s.uid));
}

describe('the fleet list at 10,000 Jobs over 20 clusters', () => {
  it('lists every Job exactly once, newest first, in pages of 100', async () => {
    const started = performance.now();
    const listed = await pageAll({});
    console.log(`fleet list: ${SHAPE.jobs} Jobs paged through in ${Math.round(performance.now() - started)} ms`);
    expectExactlyOnce(listed, fleet);
  }, 300_000);

  it('lists each of the 20 clusters completely', async () => {
    for (let c = 0; c < SHAPE.clusters; c++) {
      const cluster = `cluster-${String(c).padStart(2, '0')}`;
      expectExactlyOnce(await pageAll({ cluster }), fleet.filter((s) => s.clusterId === cluster));
    }
  }, 300_000);

  it.each([
    [{ namespace: 'team-3' }],
    [{ cluster: 'cluster-04', namespace: 'team-1' }],
    [{ condition: 'Complete' }],
    [{ condition: 'Suspended' }],
    [{ cluster: 'cluster-08', condition: 'Failed' }],
    [{ cluster: 'cluster-07', namespace: 'team-0', condition: 'SuccessCriteriaMet' }],
  ])('lists every Job matching %j exactly once', async (query: Record<string, string>) => {
    const expected = fleet.filter((s) => (query['cluster'] === undefined || s.clusterId === query['cluster'])
      && (query['namespace'] === undefined || s.namespace === query['namespace'])
      && (query['condition'] === undefined || s.latestCondition?.type === query['condition']));
    expect(expected.length).toBeGreaterThan(0);
    expectExactlyOnce(await pageAll(query, 97), expected);
  }, 300_000);
});
