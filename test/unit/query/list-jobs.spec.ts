import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JobListSchema } from '../../../functions/query/schemas/job-schemas.ts';
import { buildFleet, plainJobName } from './support/fleet.ts';
import { encodeListCursor } from '../../../functions/query/list-cursor.ts';
import { queryClient, TEST_CURSOR_KEY, type Get } from './support/query-client.ts';
import { aService } from './support/service-fleet.ts';

// Given 27 Jobs (24 plain ones in c2, three stories in c1 and dev-eu-1), when the fleet is
// listed, then Jobs come newest first, filtered and paged (JobSets: list-jobsets.spec.ts).

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 24);
  get = queryClient(service);
});

type Item = { clusterId: string; namespace: string; name: string; uid: string; createdAt: string };
const names = (items: Item[]) => items.map((i) => `${i.clusterId}/${i.name}`);

/** Every page of a listing, following nextCursor. */
async function allPages(query: Record<string, string>): Promise<Item[][]> {
  const pages: Item[][] = [];
  let cursor: string | undefined;
  do {
    const response = await get('/v1/jobs', { ...query, ...(cursor ? { cursor } : {}) });
    expect(response.status).toBe(200);
    JobListSchema.parse(response.body);
    pages.push(response.body.items);
    cursor = response.body.nextCursor;
  } while (cursor !== undefined && pages.length < 20);
  return pages;
}

describe('GET /v1/jobs', () => {
  it('lists 20 Jobs by default, newest first', async () => {
    const { status, body } = await get('/v1/jobs');
    expect(status).toBe(200);
    expect(JobListSchema.parse(body)).toEqual(body);
    expect(body.items).toHaveLength(20);
    expect(body.items[0]).toMatchObject({ kind: 'Job', clusterId: 'c2', name: plainJobName(23), createdAt: '2026-02-01T00:23:00Z' });
    const created = body.items.map((i: Item) => i.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(body.nextCursor).toEqual(expect.any(String));
  });

  it('pages through every Job exactly once with limit and cursor', async () => {
    const pages = await allPages({ limit: '10' });
    expect(pages.map((p) => p.length)).toEqual([10, 10, 7]);
    const all = pages.flat();
    expect(new Set(all.map((i) => i.uid)).size).toBe(27);
    expect(names(all).slice(-3)).toEqual(['c1/foobar', 'dev-eu-1/train', 'c1/foobar']);
    expect(all.at(-1)?.uid).toBe('job-uid-old');
  });

  it('filters by cluster and namespace, and pages within the filter', async () => {
    const pages = await allPages({ cluster: 'c2', namespace: 'team-b', limit: '5' });
    const all = pages.flat();
    expect(all).toHaveLength(12);
    expect(all.every((i) => i.clusterId === 'c2' && i.namespace === 'team-b')).toBe(true);
    expect(all[0]?.name).toBe(plainJobName(23));
  });

  it('filters by namespace across clusters', async () => {
    const { body } = await get('/v1/jobs', { namespace: 'default', limit: '100' });
    expect(names(body.items)).toEqual(['c1/foobar', 'dev-eu-1/train', 'c1/foobar']);
  });

  it('filters by the latest condition type', async () => {
    const complete = await get('/v1/jobs', { condition: 'Complete' });
    expect(complete.body.items.map((i: Item) => i.uid)).toEqual(['job-uid']);
    expect(complete.body.items[0]).toMatchObject({
      latestCondition: { type: 'Complete', status: 'True', reason: 'SuccessPolicy' },
      finishedAt: '2026-01-01T00:05:35Z',
    });
    const failed = await get('/v1/jobs', { condition: 'Failed', cluster: 'dev-eu-1' });
    expect(names(failed.body.items)).toEqual(['dev-eu-1/train']);
    expect(failed.body.nextCursor).toBeUndefined();
  });

  it('returns an empty page for a cluster with no Jobs', async () => {
    const { status, body } = await get('/v1/jobs', { cluster: 'nowhere' });
    expect(status).toBe(200);
    expect(body).toEqual({ items: [] });
  });
});

describe('GET /v1/jobs with bad parameters', () => {
  it.each([
    ['limit', '0', 'query.limit'],
    ['limit', '101', 'query.limit'],
    ['limit', 'ten', 'query.limit'],
    ['limit', '1e1', 'query.limit'],
    ['cluster', 'Not_A_Label', 'query.cluster'],
    ['namespace', '-team', 'query.namespace'],
    ['condition', 'Complete!', 'query.condition'],
    ['cursor', 'garbage', 'query.cursor'],
    ['sort', 'name', 'query.sort'],
  ])('answers 400 naming %s=%s as %s', async (name, value, path) => {
    const { status, body } = await get('/v1/jobs', { [name]: value });
    expect(status).toBe(400);
    expect(body.message).toBe('invalid request parameters');
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(body.errors[0].message).toEqual(expect.any(String));
  });

  it('names every bad parameter at once', async () => {
    const { status, body } = await get('/v1/jobs', { limit: '0', cluster: 'C1' });
    expect(status).toBe(400);
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['query.cluster', 'query.limit']);
  });

  it('refuses a cursor returned for other filters', async () => {
    const first = await get('/v1/jobs', { cluster: 'c2', limit: '2' });
    const { status, body } = await get('/v1/jobs', { cluster: 'c1', limit: '2', cursor: first.body.nextCursor });
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ path: 'query.cursor', message: 'was returned for other filters; repeat the filters of the first page' }]);
  });

  it('refuses a signed cursor that the store cannot resume from', async () => {
    const signed = encodeListCursor(TEST_CURSOR_KEY, { kind: 'Job' }, 'not-a-store-cursor');
    const { status, body } = await get('/v1/jobs', { cursor: signed });
    expect(status).toBe(400);
    expect(body.errors[0].path).toBe('query.cursor');
  });
});
