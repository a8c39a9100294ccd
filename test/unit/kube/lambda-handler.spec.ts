import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChangeFeed } from '../../../shared/log/change-feed.ts';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { DEFAULT_FOLD_CONFIG } from '../../../shared/job/state.ts';
import type { KubeDeps } from '../../../functions/kube/fleet-reads.ts';
import { BufferedSink, createKubeHandler, LINGER_MS } from '../../../functions/kube/lambda-handler.ts';
import { LogCache } from '../../../functions/kube/log-cache.ts';
import { lambdaContext } from '../../../local/runtime/lambda-context.ts';
import { aService, observeJob } from '../query/support/service-fleet.ts';
import type { WatchEvent } from '../../../shared/k8s/watch-event.ts';

// The kube API as the Lambda behind API Gateway serves it (functions/kube/lambda-handler.ts):
// given Jobs in a store, when API Gateway's payload 2.0 events come, then reads are answered as
// locally, a watch is buffered and answered within the deployment's limit with what changed,
// and a failure is a 500 Status (never an unformatted error). The buffered sink's rules — answer
// LINGER_MS after the first change, never more bytes than Lambda returns — with a test clock.

const store = new InMemoryEventStore();
const deps: KubeDeps = {
  store, config: DEFAULT_FOLD_CONFIG, cursorKey: new Uint8Array(32).fill(7), now: Date.now, jobfoldVersion: '0.1.0', logCache: new LogCache(),
};
const SHORT = { maxWatchMs: 1_500, maxResponseBytes: 5_500_000, maxInitialEvents: 5_000, watchWindowMs: 15 * 60_000 };

beforeAll(async () => {
  await observeJob(aService(store), { clusterId: 'c1', namespace: 'batch', name: 'train', uid: 'uid-train', creationTimestamp: '2026-01-01T00:00:00Z' });
});

function apiEvent(method: string, path: string, query = '', headers: Record<string, string> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0', routeKey: 'ANY /k8s/{proxy+}', rawPath: path, rawQueryString: query, headers,
    requestContext: { http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'kubectl' }, domainName: 'api.example', requestId: 'r1' },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

async function invoke(handler: ReturnType<typeof createKubeHandler>, event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  return (await handler(event, lambdaContext('jobfold-kube', 30_000))) as APIGatewayProxyStructuredResultV2;
}

describe('the kube Lambda', () => {
  it('answers a get and a list with the Job, headers as API Gateway passes them (any case)', async () => {
    const handler = createKubeHandler(deps, SHORT);
    const one = await invoke(handler, apiEvent('GET', '/k8s/clusters/c1/apis/batch/v1/namespaces/batch/jobs/train', '', { Accept: 'application/json' }));
    const table = await invoke(handler, apiEvent('GET', '/k8s/clusters/c1/apis/batch/v1/jobs', 'limit=10', { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }));

    expect(one.statusCode).toBe(200);
    expect(JSON.parse(String(one.body))).toMatchObject({ kind: 'Job', metadata: { name: 'train', uid: 'uid-train' } });
    expect(table.statusCode).toBe(200);
    expect(JSON.parse(String(table.body))).toMatchObject({ kind: 'Table', rows: [{ cells: ['train', 'Running', '0/1', expect.any(String), expect.any(String), 'main', 'busybox', 'batch.kubernetes.io/controller-uid=uid-train'] }] });
  });

  it('refuses a write with the read-only 405 Status', async () => {
    const answer = await invoke(createKubeHandler(deps, SHORT), apiEvent('DELETE', '/k8s/clusters/c1/apis/batch/v1/namespaces/batch/jobs/train'));

    expect(answer.statusCode).toBe(405);
    expect(JSON.parse(String(answer.body))).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
  });

  it('reads a review\'s protobuf body, which API Gateway hands on base64-encoded (kubectl auth can-i)', async () => {
    // `kubectl auth can-i list jobs -n batch`, as kubectl 1.35 sends it (test/unit/kube/access-review.spec.ts)
    const protobuf = 'azhzAAoyChdhdXRob3JpemF0aW9uLms4cy5pby92MRIXU2VsZlN1YmplY3RBY2Nlc3NSZXZpZXcSQAoQCgASABoAIgAqADIAOABCABIiCiAKBWJhdGNoEgRsaXN0GgViYXRjaCIAKgRqb2JzMgA6ABoICAASABoAIAAaACIA';
    const event = { ...apiEvent('POST', '/k8s/clusters/c1/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', '', { 'Content-Type': 'application/vnd.kubernetes.protobuf' }), body: protobuf, isBase64Encoded: true };

    const answer = await invoke(createKubeHandler(deps, SHORT), event);

    expect(answer.statusCode).toBe(201);
    expect(JSON.parse(String(answer.body))).toMatchObject({ kind: 'SelfSubjectAccessReview', status: { allowed: true } });
  });

  it('answers a quiet watch at its deadline, with a last bookmark to resume from', async () => {
    const list = await invoke(createKubeHandler(deps, SHORT), apiEvent('GET', '/k8s/clusters/c1/apis/batch/v1/jobs'));
    const version = (JSON.parse(String(list.body)) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

    const answer = await invoke(createKubeHandler(deps, SHORT), apiEvent('GET', '/k8s/clusters/c1/apis/batch/v1/jobs', `watch=1&allowWatchBookmarks=true&resourceVersion=${version}`));

    expect(answer.statusCode).toBe(200);
    const events = String(answer.body).trim().split('\n').map((line) => JSON.parse(line) as WatchEvent);
    expect(events.at(-1)?.type).toBe('BOOKMARK');
    expect(events.filter((e) => e.type !== 'BOOKMARK')).toEqual([]);
  });

  it('answers a watch with the Job created while it waited', async () => {
    const list = await invoke(createKubeHandler(deps, SHORT), apiEvent('GET', '/k8s/clusters/c1/apis/batch/v1/jobs'));
    const version = (JSON.parse(String(list.body)) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const handler = createKubeHandler(deps, { ...SHORT, maxWatchMs: 20_000 });

    const watching = invoke(handler, apiEvent('GET', '/k8s/clusters/c1/apis/batch/v1/namespaces/batch/jobs', `watch=1&resourceVersion=${version}`));
    await observeJob(aService(store), { clusterId: 'c1', namespace: 'batch', name: 'late', uid: 'uid-late', creationTimestamp: new Date().toISOString() });
    const answer = await watching;

    const events = String(answer.body).trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { metadata: { name: string } } });
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toContain('ADDED late');
  });

  it('answers a store failure with a 500 Status naming the request', async () => {
    const broken: KubeDeps = { ...deps, store: new Proxy(store, { get: (target, key) => (key === 'findJob' ? () => Promise.reject(new Error('ProvisionedThroughputExceeded')) : Reflect.get(target, key)) }) as InMemoryEventStore & ChangeFeed };
    const answer = await invoke(createKubeHandler(broken, SHORT), apiEvent('GET', '/k8s/clusters/c1/apis/batch/v1/namespaces/batch/jobs/train'));

    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(String(answer.body))).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500, message: expect.stringMatching(/\(request [0-9a-f-]{36}\)$/) });
  });
});

describe('the buffered watch sink', () => {
  const change = (name: string): WatchEvent => ({ type: 'MODIFIED', object: { metadata: { name } } });
  const bookmark: WatchEvent = { type: 'BOOKMARK', object: { metadata: { resourceVersion: '1' } } };

  it('answers LINGER_MS after the first change; bookmarks and initial events do not start the wait', () => {
    let now = 0;
    const sink = new BufferedSink(1_000_000, () => now);
    sink.write(bookmark);
    sink.write(change('initial'), true);
    now += 60_000;
    expect(sink.closed).toBe(false);
    sink.write(change('a'));
    now += LINGER_MS - 1;
    sink.write(change('b'));
    expect(sink.closed).toBe(false);
    now += 1;
    expect(sink.closed).toBe(true);
    expect(sink.body().trim().split('\n').map((l) => (JSON.parse(l) as { object: { metadata: { name?: string } } }).object.metadata.name)).toEqual([undefined, 'initial', 'a', 'b']);
  });

  it('takes no more bytes than Lambda returns, counting UTF-8 bytes, not characters', () => {
    const wide = change('é'.repeat(400)); // 800 bytes of name, 400 characters
    const line = `${JSON.stringify(wide)}\n`;
    const sink = new BufferedSink(Buffer.byteLength(line) * 2, () => 0);

    expect(sink.write(wide)).toBe(true);
    expect(sink.write(wide)).toBe(true);
    expect(sink.write(wide)).toBe(false);
    expect(Buffer.byteLength(sink.body())).toBe(Buffer.byteLength(line) * 2);
  });
});
