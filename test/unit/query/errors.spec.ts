import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import { logger } from '../../../functions/commons/powertools.ts';
import { ErrorSchema } from '../../../functions/query/schemas/common-schemas.ts';
import { buildFleet } from './support/fleet.ts';
import { jobPath, queryClient, type Get } from './support/query-client.ts';
import { aService } from './support/service-fleet.ts';
import { logEntries } from '../../support/log-entries.ts';

// Given the query handler, when a request is wrong in some way, then the answer says how with
// the right status and an Error body, and a failure inside never shows its internals.

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 0);
  get = queryClient(service);
});

describe('methods and routes', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'])('answers 405 with Allow: GET to %s', async (method) => {
    const { status, headers, body } = await get(jobPath('c1', 'default', 'foobar'), {}, method);
    expect(status).toBe(405);
    expect(headers['allow']).toBe('GET');
    expect(ErrorSchema.parse(body)).toEqual(body);
    expect(body.message).toBe(`method ${method} is not allowed on /v1/clusters/c1/namespaces/default/jobs/foobar; allowed: GET`);
  });

  it('answers 405 on the list too', async () => {
    expect((await get('/v1/jobs', {}, 'POST')).status).toBe(405);
  });

  it.each(['/', '/v1', '/v2/jobs', '/v1/clusters/c1/namespaces/default/jobs/foobar/pods'])('answers 404 for the unknown route %s', async (path) => {
    const { status, body } = await get(path);
    expect(status).toBe(404);
    expect(body).toEqual({ message: `no route for GET ${path}` });
  });

  it('serves a path with a trailing slash', async () => {
    expect((await get('/v1/jobs/')).status).toBe(200);
  });

  it('answers JSON that is never cached', async () => {
    const { headers } = await get('/v1/jobs');
    expect(headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  });
});

describe('bad path parameters', () => {
  it('names each bad path and query parameter in one answer', async () => {
    const { status, body } = await get('/v1/clusters/C_1/namespaces/default/jobs/Foo', { uid: '', extra: 'x' });
    expect(status).toBe(400);
    expect(ErrorSchema.parse(body)).toEqual(body);
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual(['path.cluster', 'path.name', 'query.uid', 'query.extra']);
    expect(body.errors.find((e: { path: string }) => e.path === 'query.extra').message).toBe('unknown query parameter');
  });

  it('refuses a uid with a NUL or another control character, naming the parameter (issue 24)', async () => {
    for (const uid of ['\u0000', 'abc\u0000', '\u001b[31m', '\u007f']) {
      const { status, body } = await get(jobPath('c1', 'default', 'foo'), { uid });
      expect(status).toBe(400);
      expect(body.errors).toEqual([{ path: 'query.uid', message: 'must not contain control characters' }]);
    }
  });

  it('decodes escaped path segments before checking them', async () => {
    const { status, body } = await get('/v1/clusters/c1/namespaces/default/jobs/foo%20bar');
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ path: 'path.name', message: 'must be a lowercase RFC 1123 subdomain' }]);
  });

  it('answers 404 naming the Job, namespace and cluster', async () => {
    const { status, body } = await get(jobPath('c1', 'team-x', 'foo'));
    expect(status).toBe(404);
    expect(body).toEqual({ message: 'job team-x/foo not found in cluster c1' });
  });
});

describe('a failure inside', () => {
  afterEach(() => vi.mocked(logger.error).mockClear());

  it('answers 500 with the request id only, and logs the error', async () => {
    const store = new InMemoryEventStore();
    store.findJob = async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.7:8000 (table secret-table)');
    };
    const broken = queryClient({ store, config: DEFAULT_FOLD_CONFIG });
    const { status, body } = await broken(jobPath('c1', 'default', 'foobar'));
    expect(status).toBe(500);
    expect(body).toEqual({ message: 'internal error', requestId: 'request-1' });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|secret|at /);
    expect(vi.mocked(logger.error)).toHaveBeenCalledWith('query failed', expect.objectContaining({ error: expect.any(Error) }));
  });

  it('answers 500 for a corrupt log entry', async () => {
    const store = new InMemoryEventStore();
    const service = aService(store);
    await buildFleet(service, 0);
    const stream = { kind: 'Job' as const, clusterId: 'c1', namespace: 'default', uid: 'job-uid' };
    await logEntries(store, stream, [{ eventId: 'bad', type: 'PodObserved', observedAt: '2026-01-02T00:00:00Z', body: { pod: 42 } }], '2026-01-02T00:00:00Z');
    const { status, body } = await queryClient(service)(jobPath('c1', 'default', 'foobar'));
    expect(status).toBe(500);
    expect(body.message).toBe('internal error');
  });
});
