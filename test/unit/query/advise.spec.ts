import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { queryClient } from './support/query-client.ts';

// Given the query handler, when an advice call is malformed (or the store cannot scan), then it
// is a 400 naming the field; the passes themselves run on DynamoDB Local
// (test/integration/advise, test/integration/local/sample-trace.spec.ts).

const get = queryClient({ store: new InMemoryEventStore(), config: DEFAULT_FOLD_CONFIG });
const post = (path: string, body: unknown) => get(path, {}, 'POST', typeof body === 'string' ? body : JSON.stringify(body));
const patch = { spec: { backoffLimit: 0 } };
const proposals = [{ key: 'default/cronjob:etl/backoff-limit', family: 'default/cronjob:etl', patch }];

describe('POST /v1/advise/evidence and /v1/advise/check', () => {
  it.each([
    ['a label selector that does not parse', { selector: 'app in (a' }, 'body.selector'],
    ['an owner that is not KIND/NAME', { owner: 'nightly-etl' }, 'body.owner'],
    ['a family of no known kind', { family: 'team:ml' }, 'body.family'],
    ['a since that is no time', { since: 'yesterday' }, 'body.since'],
    ['a segment past the segments', { segment: 4, segments: 4 }, 'body.segment'],
    ['an unknown field', { clusters: ['a'] }, 'body'],
  ])('refuse %s with a 400 at its field', async (_, body, path) => {
    for (const route of ['/v1/advise/evidence', '/v1/advise/check']) {
      const { status, body: error } = await post(route, route.endsWith('check') ? { ...body, proposals } : body);
      expect(status, route).toBe(400);
      expect(error.errors.map((e: { path: string }) => e.path), route).toContain(path);
    }
  });

  it('refuse a check without proposals, and a patch that is not a spec patch', async () => {
    expect((await post('/v1/advise/check', {})).body.errors[0].path).toBe('body.proposals');
    const bad = await post('/v1/advise/check', { proposals: [{ ...proposals[0], patch: { metadata: {} } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toMatch(/^body\.proposals\.0\.patch/);
  });

  it('say when the store cannot scan its logs (the in-memory store)', async () => {
    const { status, body } = await post('/v1/advise/evidence', {});
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ path: 'body.segments', message: expect.stringContaining('this store cannot scan its logs') }]);
  });
});
