import { beforeAll, describe, expect, it } from 'vitest';
import { FleetOverviewSchema } from '../../../../functions/query/console/console-schemas.ts';
import { aJob, aPod, at, withSpec } from '../../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent } from '../../../support/inbound-events.ts';
import { OneJobOverLimit } from '../../../support/over-limit-store.ts';
import { queryClient, type Get } from '../support/query-client.ts';
import { aService, deliverAt } from '../support/service-fleet.ts';

// Given a Job parked as stalled (its commits exceed a store limit on every write), a Job
// whose latest update was refused, and a healthy Job, when the console asks for the fleet, then
// each row carries its `stalled` / `refusedUpdate` with the error, `attention` counts them, and
// `attention=` filters on them.

const wedged = aJob({}, { name: 'wedged', uid: 'wedged-uid' });
const resized = aJob({ parallelism: 1, completions: 1 }, { name: 'resized', uid: 'resized-uid' });
const healthy = aJob({}, { name: 'healthy', uid: 'healthy-uid' });

let get: Get;
beforeAll(async () => {
  const store = new OneJobOverLimit();
  const service = aService(store);
  store.breakJob(jobStream(wedged));
  // The wedged Job's batch is parked: its records are refused with the stall.
  const parked: string[] = [];
  await deliverAt(service, at(0), [
    ...[wedged, resized, healthy].map((job) => jobObservedEvent(job, at(0))),
    podObservedEvent(aPod({ name: 'resized-a', uid: 'resized-pod' }), resized, at(0)),
  ], parked);
  expect(parked).toEqual([expect.stringContaining(OneJobOverLimit.ERROR)]);
  const indexed = withSpec(resized, { completionMode: 'Indexed' });
  await deliverAt(service, at(1), [jobObservedEvent(indexed, at(1), { eventId: 'resized/indexed' })]);
  get = queryClient(service);
});

describe('GET /v1/fleet and Jobs that need attention', () => {
  it('carries the stall and the refused update in their rows, and counts them', async () => {
    const { status, body } = await get('/v1/fleet');
    expect(status).toBe(200);
    expect(FleetOverviewSchema.parse(body)).toEqual(body);
    expect(body.attention).toEqual({ stalled: 1, refusedUpdate: 1 });
    const row = (name: string) => body.items.find((i: { name: string }) => i.name === name);
    expect(row('wedged').stalled).toEqual({ error: OneJobOverLimit.ERROR, since: at(0) });
    expect(row('resized').refusedUpdate).toEqual({ eventId: 'resized/indexed', errors: [expect.stringMatching(/^spec\.completionMode: .*field is immutable/)] });
    expect(row('healthy').stalled).toBeUndefined();
    expect(row('healthy').refusedUpdate).toBeUndefined();
  });

  it('filters on each, and keeps the counts of the whole scope', async () => {
    const stalled = (await get('/v1/fleet', { attention: 'stalled' })).body;
    expect(stalled.items.map((i: { name: string }) => i.name)).toEqual(['wedged']);
    expect(stalled.total).toBe(1);
    expect(stalled.attention).toEqual({ stalled: 1, refusedUpdate: 1 });
    const refused = (await get('/v1/fleet', { attention: 'refusedUpdate' })).body;
    expect(refused.items.map((i: { name: string }) => i.name)).toEqual(['resized']);
  });

  it('refuses an unknown attention, naming the parameter', async () => {
    const { status, body } = await get('/v1/fleet', { attention: 'broken' });
    expect(status).toBe(400);
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual(['query.attention']);
  });
});
