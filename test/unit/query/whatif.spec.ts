import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { JOBFOLD_DEFAULT_GATES } from '../../../shared/k8s/feature-gates.ts';
import { whatIfJob } from '../../../shared/whatif/what-if.ts';
import { playJobScenario } from '../../../cli/scenario/play-job-scenario.ts';
import { FleetWhatIfPageSchema, WhatIfReportSchema } from '../../../functions/query/schemas/whatif-schemas.ts';
import { buildFleet, STORY_2 } from './support/fleet.ts';
import { jobPath, queryClient, type Get } from './support/query-client.ts';
import { aService, loadScenario } from './support/service-fleet.ts';

// Given the query fleet played through the service, when a patch is posted, then the stored
// log is refolded under it (as the pure what-if does for the same history), and the fleet
// what-if walks every Job page by page.

let get: Get;
const post = (path: string, body: unknown) => get(path, {}, 'POST', JSON.stringify(body));

beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 5);
  get = queryClient(service);
});

describe('POST …/jobs/{name}/whatif', () => {
  it('refolds story 2 without its success policy as the pure what-if does', async () => {
    const patch = { spec: { successPolicy: null } };
    const { status, body } = await post(jobPath('c1', 'default', 'foobar', '/whatif'), { patch });
    expect(status).toBe(200);
    expect(WhatIfReportSchema.parse(body)).toEqual(body);
    const pure = playJobScenario(loadScenario(STORY_2), { gates: JOBFOLD_DEFAULT_GATES, validateSpecs: true });
    const expected = whatIfJob({ log: pure.log, config: pure.state.config, patch });
    expect(body.recorded).toMatchObject({ outcome: expected.recorded.outcome, reason: expected.recorded.reason });
    expect(body.whatIf).toEqual(expected.whatIf);
    expect(body.divergence.recorded).toEqual(expected.divergence?.recorded);
  });

  it('answers a patch that changes nothing with no divergence', async () => {
    const { body } = await post(jobPath('dev-eu-1', 'default', 'train', '/whatif'), { patch: { spec: { parallelism: 5 } } });
    expect(body).toMatchObject({ divergesAtEvent: null, podSecondsSaved: 0, whatIf: { outcome: 'Failed', exact: true } });
  });

  it('answers an invalid patched spec with 400 and upstream\'s message at body.patch.<field>', async () => {
    const { status, body } = await post(jobPath('c1', 'default', 'foobar', '/whatif'), { patch: { spec: { backoffLimit: -1 } } });
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ path: 'body.patch.spec.backoffLimit', message: 'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0' }]);
  });

  it('answers a missing or malformed body with 400, an unknown Job with 404', async () => {
    expect((await get(jobPath('c1', 'default', 'foobar', '/whatif'), {}, 'POST')).status).toBe(400);
    expect((await post(jobPath('c1', 'default', 'foobar', '/whatif'), { patch: 1 })).body.errors[0].path).toBe('body.patch');
    expect((await post(jobPath('c9', 'default', 'foobar', '/whatif'), { patch: {} })).status).toBe(404);
  });

  it('is POST only: GET is a 405 that allows POST', async () => {
    const { status, headers } = await get(jobPath('c1', 'default', 'foobar', '/whatif'));
    expect(status).toBe(405);
    expect(headers['allow']).toBe('POST');
  });
});

describe('POST /v1/whatif (fleet)', () => {
  it('walks every Job page by page and sums what the patch changes', async () => {
    const patch = { spec: { successPolicy: null, podFailurePolicy: null } };
    let cursor: string | undefined;
    const pages: unknown[] = [];
    const changed: string[] = [];
    let jobs = 0;
    do {
      const { status, body } = await post('/v1/whatif', { patch, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(status).toBe(200);
      expect(FleetWhatIfPageSchema.parse(body)).toEqual(body);
      pages.push(body);
      jobs += body.tally.jobs;
      changed.push(...body.tally.changed.map((c: { name: string; uid: string }) => `${c.name}/${c.uid}`));
      cursor = body.nextCursor;
    } while (cursor);
    expect(jobs).toBe(8); // foobar twice, train, five plain Jobs
    expect(pages.length).toBe(4);
    expect(changed.sort()).toEqual(['foobar/job-uid', 'train/7c9e6679-7425-40de-944b-e07fc1f90ae7']);
  });

  it('filters by cluster and stops at --since', async () => {
    const { body } = await post('/v1/whatif', { patch: {}, cluster: 'c2', since: '2026-02-01T00:02:00Z' });
    expect(body.tally.jobs).toBe(3); // batch-02, -03, -04
    expect(body.nextCursor).toBeUndefined();
  });
});

describe('POST /v1/whatif (fleet) on a slow store', () => {
  afterEach(() => vi.restoreAllMocks());

  // Given 43 Jobs and a store that takes a second per call, when one page of 50 is asked for,
  // then the call stops after the first 32 logs (its 3 s budget spent) with a cursor right after
  // the last Job it read, and following it counts every Job once, as the walk without a budget.
  it('answers the Jobs read within its time budget and continues right after them', async () => {
    const inner = new InMemoryEventStore();
    await buildFleet(aService(inner), 40);
    const patch = { spec: { successPolicy: null, podFailurePolicy: null } };
    const walk = async (client: Get) => {
      const pages: { jobs: number; changed: string[] }[] = [];
      let cursor: string | undefined;
      do {
        const { status, body } = await client('/v1/whatif', {}, 'POST', JSON.stringify({ patch, limit: 50, ...(cursor ? { cursor } : {}) }));
        expect(status).toBe(200);
        pages.push({ jobs: body.tally.jobs, changed: body.tally.changed.map((c: { uid: string }) => c.uid) });
        cursor = body.nextCursor;
      } while (cursor);
      return pages;
    };
    const unhurried = await walk(queryClient(aService(inner)));
    let clock = Date.parse('2026-03-01T00:00:00Z');
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    const slow = new Proxy(inner, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          clock += 1000;
          return value.apply(target, args);
        };
      },
    });
    const hurried = await walk(queryClient(aService(slow)));
    expect(unhurried.map((p) => p.jobs)).toEqual([43]);
    expect(hurried.map((p) => p.jobs)).toEqual([32, 11]);
    expect(hurried.flatMap((p) => p.changed).sort()).toEqual(unhurried[0]!.changed.sort());
    expect(unhurried[0]!.changed).toHaveLength(2);
  });
});
