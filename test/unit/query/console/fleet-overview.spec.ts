import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../../shared/log/in-memory-event-store.ts';
import { FleetOverviewSchema } from '../../../../functions/query/console/console-schemas.ts';
import { buildFleet } from '../support/fleet.ts';
import { queryClient, type Get } from '../support/query-client.ts';
import { aService } from '../support/service-fleet.ts';

// Given the query tests' fleet (a Complete story Job, an older running one of the same name, a
// Failed named-failure Job, 24 plain Jobs in c2), when the console asks for the fleet, then it
// gets every object once, its state and reason, and exact counts by reason.

const PLAIN = 24;
let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, PLAIN);
  get = queryClient(service);
});

describe('GET /v1/fleet', () => {
  it('counts every object by kind, state and reason', async () => {
    const { status, body } = await get('/v1/fleet');
    expect(status).toBe(200);
    expect(FleetOverviewSchema.parse(body)).toEqual(body);
    expect(body.total).toBe(PLAIN + 3);
    expect(body.counts).toContainEqual({ kind: 'Job', state: 'Succeeded', reason: 'SuccessPolicy', count: 1 });
    expect(body.counts).toContainEqual({ kind: 'Job', state: 'Failed', reason: 'PodFailurePolicy_ExitCode2', count: 1 });
    const counted = body.counts.reduce((sum: number, c: { count: number }) => sum + c.count, 0);
    expect(counted).toBe(body.total);
    expect(body.clusters).toEqual(['c1', 'c2', 'dev-eu-1']);
    expect(body.namespaces).toEqual(['default', 'team-a', 'team-b']);
  });

  it('filters by state and by reason; the counts stay those of the whole scope', async () => {
    const failed = (await get('/v1/fleet', { state: 'Failed' })).body;
    expect(failed.items.map((i: { name: string }) => i.name)).toEqual(['train']);
    expect(failed.items[0]).toMatchObject({ state: 'Failed', reason: 'PodFailurePolicy_ExitCode2', clusterId: 'dev-eu-1' });
    expect(failed.counts).toEqual((await get('/v1/fleet')).body.counts);
    const byReason = (await get('/v1/fleet', { reason: 'SuccessPolicy' })).body;
    expect(byReason.items.map((i: { uid: string }) => i.uid)).toEqual(['job-uid']);
  });

  it('filters by cluster and namespace, and lists the namespaces of that cluster', async () => {
    const { body } = await get('/v1/fleet', { cluster: 'c2', namespace: 'team-a' });
    expect(body.total).toBe(PLAIN / 2);
    expect(body.items.every((i: { clusterId: string; namespace: string }) => i.clusterId === 'c2' && i.namespace === 'team-a')).toBe(true);
    expect(body.namespaces).toEqual(['team-a', 'team-b']);
  });

  it('pages by offset: every object exactly once, newest first, nextOffset absent on the last page', async () => {
    const seen: string[] = [];
    let offset = 0;
    let pages = 0;
    for (;;) {
      const { body } = await get('/v1/fleet', { limit: '5', offset: String(offset) });
      seen.push(...body.items.map((i: { uid: string }) => i.uid));
      pages++;
      if (body.nextOffset === undefined) break;
      offset = body.nextOffset;
    }
    expect(pages).toBe(Math.ceil((PLAIN + 3) / 5));
    expect(new Set(seen).size).toBe(PLAIN + 3);
    expect(seen).toEqual((await get('/v1/fleet', { limit: '500' })).body.items.map((i: { uid: string }) => i.uid));
  });

  it('refuses an unknown state and a bad limit, naming the parameters', async () => {
    const { status, body } = await get('/v1/fleet', { state: 'Done', limit: '0' });
    expect(status).toBe(400);
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['query.limit', 'query.state']);
  });
});
