import fc from 'fast-check';
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../../local/local-stack.ts';
import { TraceRecorder } from '../../../local/sample/trace-recorder.ts';
import { startTestStack } from '../local/local-stack-fixture.ts';

// The kube API over HTTP, as clients other than kubectl meet it: discovery documents, Status
// errors, and hostile input — selectors, resourceVersions, continue tokens, paths and query
// strings malformed, huge or forged are a 4xx Status, never a 5xx. Watches: sendInitialEvents
// honoured with its bookmark, a deadline kept, a version too old answered 410.

const dir = mkdtempSync(join(tmpdir(), 'jobfold-kube-api-'));
let stack: LocalStack;
let base: string;

interface Answer {
  readonly status: number;
  readonly type: string;
  readonly body: Record<string, unknown>;
  readonly text: string;
}

/**
 * One request on a connection of its own (no keep-alive pool: a pooled socket the server has
 * just closed would fail the next request on the client's side, whatever the server answers).
 */
function call(path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return rawCall(`${base}${path}`, init);
}

function rawCall(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // watch streams are lines
        }
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body, text });
      });
    });
    req.on('error', (error) => reject(new Error(`${init.method ?? 'GET'} ${url.slice(0, 300)}: ${error.message}`)));
    req.end(init.body);
  });
}

/** A Status of `code` with `reason`. */
function expectStatus(answer: Answer, code: number, reason: string): void {
  expect(answer.status, answer.text.slice(0, 300)).toBe(code);
  expect(answer.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason });
}

beforeAll(async () => {
  stack = await startTestStack();
  base = `${stack.url}/k8s/clusters/kc2`;
  const trace = new TraceRecorder('2026-01-01T00:00:00Z', 'c0e0');
  for (let i = 0; i < 6; i++) {
    const job = trace.job('kc2', i, i % 2 === 0 ? 'even' : 'odd', `job-${i}`, {});
    trace.exitPod(trace.runPod(job, i + 1, undefined), i + 2, i === 5 ? 1 : 0);
  }
  const file = join(dir, 'fleet.jsonl');
  writeFileSync(file, trace.jsonl());
  await stack.replay(file, { speed: 1000 });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('discovery', () => {
  it('answers /version, /api, /apis and the group versions as the API server does', async () => {
    const version = await call('/version');
    const api = await call('/api');
    const apis = await call('/apis');
    const batch = await call('/apis/batch/v1');

    expect(version.body).toMatchObject({ major: '1', minor: '35', gitVersion: expect.stringMatching(/^v1\.35\.0\+jobfold\./) });
    expect(api.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    expect(apis.body).toMatchObject({ kind: 'APIGroupList', groups: [{ name: 'batch' }, { name: 'jobset.x-k8s.io' }] });
    expect(batch.body).toMatchObject({
      kind: 'APIResourceList', groupVersion: 'batch/v1',
      resources: [{ name: 'jobs', singularName: 'job', namespaced: true, kind: 'Job', verbs: ['get', 'list', 'watch'] }, { name: 'jobs/status', verbs: ['get'] }],
    });
  });

  it('answers aggregated discovery (apidiscovery.k8s.io/v2) when Accept asks for it', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const core = await call('/api', { headers: { accept } });
    const groups = await call('/apis', { headers: { accept } });

    expect(core.type).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(core.body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', items: [{ metadata: { name: '' } }] });
    const names = (groups.body['items'] as { metadata: { name: string }; versions: { resources: { resource: string }[] }[] }[])
      .map((g) => `${g.metadata.name}:${g.versions[0]?.resources.map((r) => r.resource).join(',')}`);
    expect(names).toEqual(['batch:jobs', 'jobset.x-k8s.io:jobsets']);
  });

  it('answers what it does not serve with a 404 Status, never an HTML page', async () => {
    expectStatus(await call('/apis/apps/v1/deployments'), 404, 'NotFound');
    expectStatus(await call('/api/v1/secrets'), 404, 'NotFound');
    expectStatus(await call('/apis/batch/v1/namespaces/even/jobs/nope'), 404, 'NotFound');
    expect((await call('/apis/batch/v1/namespaces/even/jobs/nope')).body['message']).toBe('jobs.batch "nope" not found');
    expectStatus(await call('/nothing/here'), 404, 'NotFound');
    expectStatus(await call('/apis/batch/v1/jobs', { headers: { accept: 'application/vnd.kubernetes.protobuf' } }), 406, 'NotAcceptable');
  });
});

describe('writes', () => {
  it('answers every write with a 405 Status that says jobfold is read-only and where to act', async () => {
    for (const [method, path] of [
      ['POST', '/apis/batch/v1/namespaces/even/jobs'], ['PUT', '/apis/batch/v1/namespaces/even/jobs/job-0'],
      ['PATCH', '/apis/batch/v1/namespaces/even/jobs/job-0'], ['DELETE', '/apis/batch/v1/namespaces/even/jobs/job-0'],
      ['DELETE', '/apis/batch/v1/namespaces/even/jobs'], ['DELETE', '/api/v1/namespaces/even/pods/x'],
    ] as const) {
      const answer = await call(path, method === 'DELETE' ? { method } : { method, body: '{}' });
      expectStatus(answer, 405, 'MethodNotAllowed');
      expect(answer.body['message']).toMatch(/^jobfold is read-only: .* use the cluster's own API server/);
    }
  });
});

describe('lists', () => {
  it('pages with limit and continue, every Job once, under one resourceVersion', async () => {
    const names: string[] = [];
    const versions = new Set<unknown>();
    let token: string | undefined;
    do {
      const page = await call(`/apis/batch/v1/jobs?limit=4${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      const metadata = page.body['metadata'] as { continue?: string; resourceVersion: string };
      names.push(...(page.body['items'] as { metadata: { name: string } }[]).map((j) => j.metadata.name));
      versions.add(metadata.resourceVersion);
      token = metadata.continue;
    } while (token !== undefined);

    expect(names.sort()).toEqual(['job-0', 'job-1', 'job-2', 'job-3', 'job-4', 'job-5']);
    expect(versions.size).toBe(1);
  });

  it('selects by status.successful and metadata.name, and by namespace', async () => {
    const failed = await call('/apis/batch/v1/jobs?fieldSelector=status.successful%3D0');
    const one = await call('/apis/batch/v1/namespaces/odd/jobs?fieldSelector=metadata.name%3Djob-3');

    expect((failed.body['items'] as { metadata: { name: string } }[]).map((j) => j.metadata.name)).toEqual(['job-5']);
    expect((one.body['items'] as { metadata: { name: string } }[]).map((j) => j.metadata.name)).toEqual(['job-3']);
  });
});

describe('hostile input', () => {
  it('refuses forged, altered, transplanted and huge continue tokens with a 400', async () => {
    const first = await call('/apis/batch/v1/jobs?limit=2');
    const token = (first.body['metadata'] as { continue: string }).continue;
    const altered = `${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}A`;
    for (const bad of [altered, 'not-a-token', `${token}.x`, 'A'.repeat(10_000), token.split('.')[0] ?? '']) {
      expectStatus(await call(`/apis/batch/v1/jobs?limit=2&continue=${encodeURIComponent(bad)}`), 400, 'BadRequest');
    }
    // Issued for all namespaces: refused for one namespace, or with a selector.
    expectStatus(await call(`/apis/batch/v1/namespaces/even/jobs?limit=2&continue=${encodeURIComponent(token)}`), 400, 'BadRequest');
    expectStatus(await call(`/apis/batch/v1/jobs?limit=2&labelSelector=a%3Db&continue=${encodeURIComponent(token)}`), 400, 'BadRequest');
    expectStatus(await call(`/api/v1/pods?limit=2&continue=${encodeURIComponent(token)}`), 400, 'BadRequest');
  });

  it('refuses malformed resourceVersions with a 400 and versions it cannot serve from with a 410', async () => {
    expectStatus(await call('/apis/batch/v1/jobs?resourceVersion=abc'), 400, 'BadRequest');
    expectStatus(await call('/apis/batch/v1/jobs?resourceVersion=99999999999999999999999'), 400, 'BadRequest');
    expectStatus(await call('/apis/batch/v1/jobs?watch=1&resourceVersion=1000'), 410, 'Expired');
    expectStatus(await call(`/apis/batch/v1/jobs?watch=1&resourceVersion=${(Date.now() + 3_600_000) * 1000}`), 410, 'Expired');
    expectStatus(await call('/apis/batch/v1/jobs?resourceVersion=5&resourceVersionMatch=Exact'), 410, 'Expired');
    expectStatus(await call('/apis/batch/v1/jobs?resourceVersionMatch=Sometime&resourceVersion=5'), 400, 'BadRequest');
  });

  it('refuses malformed paths, escapes and parameters with a 4xx Status', async () => {
    expectStatus(await call(`/apis/batch/v1/namespaces/${'x'.repeat(3000)}/jobs`), 400, 'BadRequest');
    expectStatus(await call('/apis/batch/v1/namespaces/%E0%A4%A/jobs'), 400, 'BadRequest');
    expectStatus(await call('/apis/batch/v1/jobs?labelSelector=%E0%A4%A'), 400, 'BadRequest');
    expectStatus(await call('/apis/batch/v1/jobs?limit=-1'), 400, 'BadRequest');
    expectStatus(await call('/apis/batch/v1/jobs?limit=1&limit=2'), 400, 'BadRequest');
    expectStatus(await call(`/apis/batch/v1/jobs?labelSelector=${'a'.repeat(10_000)}`), 400, 'BadRequest');
    expectStatus(await call('/apis/batch/v1/jobs?fieldSelector=spec.template%3Dx'), 400, 'BadRequest');
    expectStatus(await call('/apis/batch/v1/jobs?includeObject=Everything', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }), 400, 'BadRequest');
    expectStatus(await call('/k8s-no', {}), 404, 'NotFound');
    expectStatus(await rawCall(`${stack.url}/k8s/clusters/NOT_A_CLUSTER/api`), 400, 'BadRequest');
  });

  it('answers any text in any parameter, on any resource, with a Status below 500 or a 200', { timeout: 120_000 }, async () => {
    const params = ['labelSelector', 'fieldSelector', 'resourceVersion', 'resourceVersionMatch', 'continue', 'limit', 'timeoutSeconds', 'includeObject'];
    const paths = ['/apis/batch/v1/jobs', '/api/v1/namespaces/even/pods', '/api/v1/events', '/apis/jobset.x-k8s.io/v1alpha2/jobsets', '/api/v1/namespaces'];
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...paths), fc.constantFrom(...params), fc.string({ maxLength: 300, unit: 'binary' }),
      async (path, param, value) => {
        const answer = await call(`${path}?${param}=${encodeURIComponent(value)}&timeoutSeconds=1`.replace(`&timeoutSeconds=1`, param === 'timeoutSeconds' ? '' : '&timeoutSeconds=1'));
        expect(answer.status, `${path}?${param}=${JSON.stringify(value)}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        if (answer.status >= 400) expect(answer.body['kind']).toBe('Status');
      },
    ), { numRuns: 60 });
  });
});

describe('watches', () => {
  it('honours sendInitialEvents: every object ADDED, then the initial-events-end bookmark; and ends at timeoutSeconds', async () => {
    const answer = await call('/apis/batch/v1/namespaces/even/jobs?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=2');
    const events = answer.text.trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { metadata: { name?: string; annotations?: Record<string, string>; resourceVersion: string } } });

    expect(answer.status).toBe(200);
    expect(events.slice(0, 3).map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['ADDED job-0', 'ADDED job-2', 'ADDED job-4']);
    expect(events[3]).toMatchObject({ type: 'BOOKMARK', object: { kind: 'Job', apiVersion: 'batch/v1', metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } } });
    expect(events.at(-1)?.type).toBe('BOOKMARK');
  });

  it('refuses sendInitialEvents without resourceVersionMatch=NotOlderThan or bookmarks, rather than ignoring it', async () => {
    expectStatus(await call('/apis/batch/v1/jobs?watch=1&sendInitialEvents=true&allowWatchBookmarks=true'), 422, 'Invalid');
    expectStatus(await call('/apis/batch/v1/jobs?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan'), 422, 'Invalid');
  });

  it('resumes from a list\'s resourceVersion with only what changed after it', async () => {
    const list = await call('/apis/batch/v1/namespaces/odd/jobs');
    const version = (list.body['metadata'] as { resourceVersion: string }).resourceVersion;
    const quiet = await call(`/apis/batch/v1/namespaces/odd/jobs?watch=1&resourceVersion=${version}&timeoutSeconds=1`);

    expect(quiet.status).toBe(200);
    // Changes recorded within the visibility lag before the version may come again (at least
    // once): as MODIFIED, of this namespace's Jobs, none of them new.
    const events = quiet.text.trim() === '' ? [] : quiet.text.trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { metadata: { namespace: string } } });
    for (const event of events) expect(event).toMatchObject({ type: 'MODIFIED', object: { metadata: { namespace: 'odd' } } });
  });
});
