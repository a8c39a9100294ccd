import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbEventStore } from '../../../functions/adapters/dynamodb-event-store.ts';
import { ATTR, keys } from '../../../functions/adapters/table-layout.ts';
import { fleetReason, fleetState } from '../../../functions/query/console/fleet-state.ts';
import type { JobSummary } from '../../../shared/log/event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { writeFleet } from '../../../bench/fleet-list.ts';
import { queryClient, type Get } from '../../unit/query/support/query-client.ts';
import { freshTable, localClient } from '../store/local-table.ts';

// Given 10,000 Jobs over 20 clusters (five namespaces each, running, succeeded, failed and
// suspended, some created in the same second) on DynamoDB Local, when the fleet list is paged
// through under each filter, then every matching Job appears exactly once, newest first; and
// when the console asks for the fleet with its counts (/v1/fleet), then it answers with exact
// counts by state and reason, also for rows written before the fleet index carried the
// condition's status and reason (issue 10: the fleet list stays fast and complete).

const SHAPE = { jobs: Number(process.env['FLEET_JOBS'] ?? 10_000), clusters: 20 };
let get: Get;
let fleet: JobSummary[];

beforeAll(async () => {
  const client = localClient();
  const tableName = await freshTable(client);
  fleet = await writeFleet(client, tableName, SHAPE);
  // Summaries stored before the fleet index projected the condition's status, reason and attention flags.
  for (const s of fleet.filter((_, i) => i % 997 === 4 || i % 997 === 8)) {
    const pk = keys.stream({ kind: s.kind, clusterId: s.clusterId, namespace: s.namespace, uid: s.uid });
    await client.send(new UpdateItemCommand({
      TableName: tableName,
      Key: { [ATTR.pk]: { S: pk }, [ATTR.sk]: { S: keys.summary } },
      UpdateExpression: `REMOVE ${ATTR.conditionStatus}, ${ATTR.conditionReason}, ${ATTR.attention}`,
    }));
  }
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

describe('the console fleet (/v1/fleet) at 10,000 Jobs over 20 clusters', () => {
  const countsOf = (summaries: JobSummary[]) => {
    const counts = new Map<string, number>();
    for (const s of summaries) {
      const key = `${s.kind}/${fleetState(s)}/${fleetReason(s)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return Object.fromEntries([...counts].sort());
  };
  const answeredCounts = (body: { counts: { kind: string; state: string; reason: string; count: number }[] }) =>
    Object.fromEntries(body.counts.map((c) => [`${c.kind}/${c.state}/${c.reason}`, c.count]).sort());

  it('counts every Job by state and reason and lists the newest page, in one request', async () => {
    const started = performance.now();
    const { status, body } = await get('/v1/fleet', { limit: '500' });
    console.log(`/v1/fleet: ${SHAPE.jobs} Jobs counted in ${Math.round(performance.now() - started)} ms`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.total).toBe(SHAPE.jobs);
    expect(answeredCounts(body)).toEqual(countsOf(fleet));
    expect(body.attention).toEqual({
      stalled: fleet.filter((s) => s.stalled).length,
      refusedUpdate: fleet.filter((s) => s.refusedUpdate).length,
    });
    expect(body.attention.stalled).toBeGreaterThan(0);
    expect(body.clusters).toHaveLength(SHAPE.clusters);
    expect(body.namespaces).toEqual(['team-0', 'team-1', 'team-2', 'team-3', 'team-4']);
    expect(body.items.map((item: JobSummary) => item.uid)).toEqual(newestFirst(fleet).slice(0, 500).map((s) => s.uid));
    expect(body.nextOffset).toBe(500);
  }, 60_000);

  it('pages one namespace\'s failed Jobs of one reason exactly once, with that namespace\'s counts', async () => {
    const scope = fleet.filter((s) => s.namespace === 'team-2');
    const expected = scope.filter((s) => fleetState(s) === 'Failed' && fleetReason(s) === 'BackoffLimitExceeded');
    expect(expected.length).toBeGreaterThan(0);
    const listed: string[] = [];
    for (let offset: number | undefined = 0, page = 0; offset !== undefined && page < 10; page++) {
      const query = { namespace: 'team-2', state: 'Failed', reason: 'BackoffLimitExceeded', limit: '34', offset: String(offset) };
      const { status, body } = await get('/v1/fleet', query);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.total).toBe(expected.length);
      expect(answeredCounts(body)).toEqual(countsOf(scope));
      listed.push(...body.items.map((item: JobSummary) => item.uid));
      offset = body.nextOffset;
    }
    expectExactlyOnce(listed, expected);
  }, 60_000);
});
