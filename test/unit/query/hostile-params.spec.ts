import { beforeAll, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { encodeListCursor } from '../../../functions/query/list-cursor.ts';
import { buildFleet } from './support/fleet.ts';
import { jobPath, jobSetPath, queryClient, TEST_CURSOR_KEY, type ClientResponse, type Get } from './support/query-client.ts';
import { aService } from './support/service-fleet.ts';

// Given the query API, when a client sends a malformed, oversized or forged parameter to any
// route, then the answer is a 400 naming that parameter, never a 500 (issue 14).

let get: Get;
beforeAll(async () => {
  const service = aService(new InMemoryEventStore());
  await buildFleet(service, 6);
  get = queryClient(service);
});

const JOB = jobPath('c1', 'default', 'foobar');
const JOBSET = jobSetPath('c1', 'default', 'restart-job-example');
/** Every route, with a parameter it takes (or `uid`, or none). */
const ROUTES: ReadonlyArray<readonly [string, string | undefined]> = [
  ['/v1/openapi.json', undefined],
  ['/v1/jobs', 'cluster'],
  ['/v1/jobsets', 'namespace'],
  ['/v1/fleet', 'reason'],
  [JOB, 'uid'],
  [`${JOB}/history`, 'uid'],
  [`${JOB}/explain`, 'uid'],
  [`${JOB}/status`, 'at'],
  [`${JOB}/indexes`, 'at'],
  [`${JOB}/timeline`, 'uid'],
  [`${JOB}/commands`, 'after'],
  [JOBSET, 'uid'],
  [`${JOBSET}/history`, 'uid'],
  [`${JOBSET}/explain`, 'uid'],
  [`${JOBSET}/commands`, 'limit'],
];
const LONE_HIGH = '\uD800';
const LONE_LOW = 'x\uDC00y';
const HUNDRED_KB = 'a'.repeat(100_000);

function expect400(response: ClientResponse, path: string): void {
  expect(response.status).toBe(400);
  expect(response.body.message).toBe('invalid request parameters');
  expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
}

describe.each(ROUTES)('GET %s', (route, param) => {
  it('refuses a malformed percent escape in the query string', async () => {
    const name = param ?? 'x';
    expect400(await get(route, { [name]: '\uFFFD%A' }, 'GET', undefined, `${name}=%E0%A4%A`), `query.${name}`);
  });

  it('refuses a malformed escape in a parameter name', async () => {
    expect400(await get(route, { '\uFFFD': '1' }, 'GET', undefined, '%E0%A4%A=1'), 'query.%E0%A4%A');
  });

  it.each([['high', LONE_HIGH], ['low', LONE_LOW]])('refuses a lone %s surrogate in a value', async (_, value) => {
    const name = param ?? 'x';
    const response = await get(route, { [name]: value });
    expect400(response, `query.${name}`);
    expect(JSON.stringify(response.body)).not.toMatch(/\\ud[89a-f]/i);
  });

  it('refuses a lone surrogate in a parameter name', async () => {
    const response = await get(route, { [`a${LONE_HIGH}`]: '1' });
    expect400(response, 'query.a\uFFFD');
  });

  it('refuses a 100 KB value, and a 100 KB parameter name without echoing it', async () => {
    const name = param ?? 'x';
    expect400(await get(route, { [name]: HUNDRED_KB }), `query.${name}`);
    const long = await get(route, { [HUNDRED_KB]: '1' });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body).length).toBeLessThan(1000);
  });
});

describe('path parameters', () => {
  it.each([
    ['/v1/clusters/c1/namespaces/default/jobs/%E0%A4%A', 'path.name'],
    ['/v1/clusters/%ED%A0%80/namespaces/default/jobs/foobar', 'path.cluster'],
    [`/v1/clusters/c1/namespaces/${'a'.repeat(100_000)}/jobs/foobar/status`, 'path.namespace'],
    [`/v1/clusters/c1/namespaces/default/jobs/x${LONE_HIGH}/explain`, 'path.name'],
  ])('refuses %s naming %s', async (path, param) => {
    expect400(await get(path), param);
  });
});

describe('parameters out of range or unknown', () => {
  it.each([
    ['/v1/jobs', { limit: '0' }, 'query.limit'],
    ['/v1/jobs', { limit: '101' }, 'query.limit'],
    ['/v1/jobs', { limit: '-1' }, 'query.limit'],
    ['/v1/jobs', { limit: '9999999999999999999999' }, 'query.limit'],
    ['/v1/jobs', { condition: 'Not-A-Type' }, 'query.condition'],
    ['/v1/fleet', { state: 'Exploded' }, 'query.state'],
    ['/v1/fleet', { kind: 'Pod' }, 'query.kind'],
    ['/v1/fleet', { limit: '501' }, 'query.limit'],
    ['/v1/fleet', { offset: '-5' }, 'query.offset'],
    [`${JOB}/history`, { limit: '501' }, 'query.limit'],
    [`${JOB}/history`, { after: '1.5' }, 'query.after'],
    [`${JOB}/status`, { at: '' }, 'query.at'],
    [`${JOB}/status`, { at: 'yesterday' }, 'query.at'],
    [`${JOB}/status`, { at: '2026-13-01T00:00:00Z' }, 'query.at'],
    [`${JOB}/status`, { at: '99999999' }, 'query.at'],
    [`${JOB}/status`, { at: '1234567890123456' }, 'query.at'],
    [`${JOB}/indexes`, { at: '-1' }, 'query.at'],
    [`${JOB}/explain`, { at: '3' }, 'query.at'],
  ])('%s %j → 400 at %s', async (path, query, param) => {
    expect400(await get(path, query), param);
  });
});

describe('list cursors are opaque and authenticated', () => {
  const firstPage = () => get('/v1/jobs', { limit: '2' });

  it('continues with the cursor the API returned', async () => {
    const first = await firstPage();
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await get('/v1/jobs', { limit: '2', cursor: first.body.nextCursor });
    expect(second.status).toBe(200);
    expect(second.body.items).toHaveLength(2);
  });

  it('refuses a cursor whose store key was altered (the MAC no longer matches)', async () => {
    const cursor: string = (await firstPage()).body.nextCursor;
    const [body, mac] = cursor.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    payload.c = Buffer.from(JSON.stringify(['a', 'b', 'c', 'd', 'e'])).toString('base64url');
    const altered = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    expect400(await get('/v1/jobs', { limit: '2', cursor: altered }), 'query.cursor');
  });

  it('refuses a cursor signed with another key', async () => {
    const other = encodeListCursor(Buffer.from('another-key-another-key-another-key!'), { kind: 'Job' }, 'x');
    expect400(await get('/v1/jobs', { cursor: other }), 'query.cursor');
  });

  it.each([
    ['truncated', (c: string) => c.slice(0, -5)],
    ['without its MAC', (c: string) => c.split('.')[0] ?? ''],
    ['with an extra part', (c: string) => `${c}.AAAA`],
    ['with a flipped bit', (c: string) => c.slice(0, 10) + (c[10] === 'A' ? 'B' : 'A') + c.slice(11)],
  ])('refuses a cursor %s', async (_, spoil) => {
    const cursor: string = (await firstPage()).body.nextCursor;
    expect400(await get('/v1/jobs', { limit: '2', cursor: spoil(cursor) }), 'query.cursor');
  });

  it.each([
    ['garbage', 'garbage'],
    ['a dot', '.'],
    ['non-base64url', '!!!.???'],
    ['the legacy unsigned JSON', Buffer.from(JSON.stringify({ f: '["Job",null,null,null]', c: 'x' })).toString('base64url')],
    ['4 KB of base64url', `${'A'.repeat(2048)}.${'B'.repeat(2047)}`],
  ])('refuses %s', async (_, cursor) => {
    expect400(await get('/v1/jobs', { cursor }), 'query.cursor');
  });

  it.each([
    ['another cluster', { cluster: 'c2' }],
    ['another condition', { condition: 'Failed' }],
    ['a namespace added', { namespace: 'default' }],
  ])('refuses a cursor replayed with %s', async (_, filters) => {
    const cursor: string = (await firstPage()).body.nextCursor;
    const response = await get('/v1/jobs', { limit: '2', ...filters, cursor });
    expect400(response, 'query.cursor');
    expect(response.body.errors[0].message).toBe('was returned for other filters; repeat the filters of the first page');
  });

  it('refuses a Job list cursor on the JobSet list', async () => {
    const cursor: string = (await firstPage()).body.nextCursor;
    expect400(await get('/v1/jobsets', { cursor }), 'query.cursor');
  });

  it('refuses a signed cursor the store cannot resume from, as a 400', async () => {
    const signed = encodeListCursor(TEST_CURSOR_KEY, { kind: 'Job' }, Buffer.from('["gf","","","",""]').toString('base64url'));
    expect400(await get('/v1/jobs', { cursor: signed }), 'query.cursor');
  });
});
