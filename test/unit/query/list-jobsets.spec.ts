import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JobListSchema } from '../../../functions/query/schemas/job-schemas.ts';
import { buildJobSetFleet, JOBSET_NAME, plainJobSetName } from './support/jobset-fleet.ts';
import { queryClient, type Get } from './support/query-client.ts';
import { aService } from './support/service-fleet.ts';

// Given 24 JobSets (22 plain ones in c3, the exit-code-2 sample failed in c1 and the exit-code-3
// sample restarted in c2, with their child Jobs), when the JobSet fleet is listed, then JobSets
// come newest first, filtered and paged as Jobs do, and neither list shows the other kind.

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildJobSetFleet(service, 22);
  get = queryClient(service);
});

type Item = { kind: string; clusterId: string; namespace: string; name: string; uid: string; createdAt: string };
const names = (items: Item[]) => items.map((i) => `${i.clusterId}/${i.name}`);

/** Every page of a listing, following nextCursor. */
async function allPages(path: string, query: Record<string, string>): Promise<Item[][]> {
  const pages: Item[][] = [];
  let cursor: string | undefined;
  do {
    const response = await get(path, { ...query, ...(cursor ? { cursor } : {}) });
    expect(response.status).toBe(200);
    expect(JobListSchema.parse(response.body)).toEqual(response.body);
    pages.push(response.body.items);
    cursor = response.body.nextCursor;
  } while (cursor !== undefined && pages.length < 20);
  return pages;
}

describe('GET /v1/jobsets', () => {
  it('lists 20 JobSets by default, newest first', async () => {
    const { status, body } = await get('/v1/jobsets');
    expect(status).toBe(200);
    expect(body.items).toHaveLength(20);
    expect(body.items[0]).toMatchObject({ kind: 'JobSet', clusterId: 'c3', name: plainJobSetName(21), createdAt: '2026-02-01T00:21:00Z' });
    const created = body.items.map((i: Item) => i.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(body.nextCursor).toEqual(expect.any(String));
  });

  it('pages through every JobSet exactly once, and only JobSets', async () => {
    const all = (await allPages('/v1/jobsets', { limit: '10' })).flat();
    expect(all).toHaveLength(24);
    expect(new Set(all.map((i) => `${i.clusterId}/${i.uid}`)).size).toBe(24);
    expect(all.every((i) => i.kind === 'JobSet')).toBe(true);
    expect(names(all).slice(-2)).toEqual([`c2/${JOBSET_NAME}`, `c1/${JOBSET_NAME}`]);
  });

  it('filters by cluster and namespace, and pages within the filter', async () => {
    const all = (await allPages('/v1/jobsets', { cluster: 'c3', namespace: 'team-b', limit: '4' })).flat();
    expect(all).toHaveLength(11);
    expect(all.every((i) => i.clusterId === 'c3' && i.namespace === 'team-b')).toBe(true);
    expect(all[0]?.name).toBe(plainJobSetName(21));
  });

  it('filters by the latest condition type the JobSet reconciler wrote', async () => {
    const failed = await get('/v1/jobsets', { condition: 'Failed' });
    expect(failed.body.items).toHaveLength(1);
    expect(failed.body.items[0]).toMatchObject({
      clusterId: 'c1',
      name: JOBSET_NAME,
      latestCondition: { type: 'Failed', status: 'True', reason: 'FailJobSetFailurePolicyAction' },
      finishedAt: '2026-01-01T00:02:00Z',
    });
    const restarting = await get('/v1/jobsets', { condition: 'RestartingJobSet' });
    expect(names(restarting.body.items)).toEqual([`c2/${JOBSET_NAME}`]);
    expect(restarting.body.items[0].finishedAt).toBeUndefined();
  });

  it('returns an empty page for a cluster with no JobSets', async () => {
    expect(await get('/v1/jobsets', { cluster: 'nowhere' })).toMatchObject({ status: 200, body: { items: [] } });
  });
});

describe('GET /v1/jobs beside JobSets', () => {
  it('lists the child Jobs of every restart attempt, and no JobSet', async () => {
    const failed = await get('/v1/jobs', { cluster: 'c1', limit: '100' });
    expect(failed.body.items.map((i: Item) => i.name).sort()).toEqual([0, 1, 2, 3].map((i) => `${JOBSET_NAME}-simulations-${i}`));
    const restarted = await get('/v1/jobs', { cluster: 'c2', limit: '100' });
    expect(restarted.body.items).toHaveLength(8);
    expect([...failed.body.items, ...restarted.body.items].every((i: Item) => i.kind === 'Job')).toBe(true);
  });
});

describe('GET /v1/jobsets with bad parameters', () => {
  it.each([
    ['limit', '0', 'query.limit'],
    ['limit', '101', 'query.limit'],
    ['cluster', 'Not_A_Label', 'query.cluster'],
    ['condition', 'Failed!', 'query.condition'],
    ['cursor', 'garbage', 'query.cursor'],
    ['kind', 'Job', 'query.kind'],
  ])('answers 400 naming %s=%s as %s', async (name, value, path) => {
    const { status, body } = await get('/v1/jobsets', { [name]: value });
    expect(status).toBe(400);
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it('refuses a cursor of the Job list, and the Job list refuses one of the JobSet list', async () => {
    const message = 'was returned for other filters; repeat the filters of the first page';
    const jobs = await get('/v1/jobs', { limit: '1' });
    const jobSets = await get('/v1/jobsets', { limit: '1' });
    expect((await get('/v1/jobsets', { limit: '1', cursor: jobs.body.nextCursor })).body.errors).toEqual([{ path: 'query.cursor', message }]);
    expect((await get('/v1/jobs', { limit: '1', cursor: jobSets.body.nextCursor })).body.errors).toEqual([{ path: 'query.cursor', message }]);
  });
});
