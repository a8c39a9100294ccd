import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serveKube } from '../../../functions/kube/kube-api.ts';
import type { KubeDeps } from '../../../functions/kube/fleet-reads.ts';
import { AWS_LIMITS } from '../../../functions/kube/lambda-handler.ts';

// `kubectl auth can-i` against the kube API: given the SelfSubjectAccessReview and
// SelfSubjectRulesReview bodies kubectl 1.35 POSTs (Kubernetes protobuf, captured from it) or
// their JSON, when the API answers, then it is a 201 review saying what jobfold serves (reads
// yes; writes, pod logs and exec no, with where to go instead), and a body it cannot read is a
// 4xx Status naming what was wrong. No store is read: the answer depends on the request alone.

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** Captured from kubectl 1.35.2 against npm start's kube API: `auth can-i list jobs -n batch`. */
const CAN_I_LIST_JOBS = 'azhzAAoyChdhdXRob3JpemF0aW9uLms4cy5pby92MRIXU2VsZlN1YmplY3RBY2Nlc3NSZXZpZXcSQAoQCgASABoAIgAqADIAOABCABIiCiAKBWJhdGNoEgRsaXN0GgViYXRjaCIAKgRqb2JzMgA6ABoICAASABoAIAAaACIA';
/** `auth can-i delete jobs -n batch`. */
const CAN_I_DELETE_JOBS = 'azhzAAoyChdhdXRob3JpemF0aW9uLms4cy5pby92MRIXU2VsZlN1YmplY3RBY2Nlc3NSZXZpZXcSQgoQCgASABoAIgAqADIAOABCABIkCiIKBWJhdGNoEgZkZWxldGUaBWJhdGNoIgAqBGpvYnMyADoAGggIABIAGgAgABoAIgA=';
/** `auth can-i list jobs.batch -n batch` with no discovery to resolve it: the resource as typed. */
const CAN_I_LIST_UNRESOLVED = 'azhzAAoyChdhdXRob3JpemF0aW9uLms4cy5pby92MRIXU2VsZlN1YmplY3RBY2Nlc3NSZXZpZXcSQQoQCgASABoAIgAqADIAOABCABIjCiEKBWJhdGNoEgRsaXN0GgAiACoKam9icy5iYXRjaDIAOgAaCAgAEgAaACAAGgAiAA==';
/** `auth can-i get pods/log --subresource=log -n batch`. */
const CAN_I_GET_LOG = 'azhzAAoyChdhdXRob3JpemF0aW9uLms4cy5pby92MRIXU2VsZlN1YmplY3RBY2Nlc3NSZXZpZXcSQAoQCgASABoAIgAqADIAOABCABIiCiAKBWJhdGNoEgNnZXQaACIAKgRwb2RzMgNsb2c6A2xvZxoICAASABoAIAAaACIA';
/** `auth can-i get /version`. */
const CAN_I_GET_VERSION = 'azhzAAoyChdhdXRob3JpemF0aW9uLms4cy5pby92MRIXU2VsZlN1YmplY3RBY2Nlc3NSZXZpZXcSLwoQCgASABoAIgAqADIAOABCABIREg8KCC92ZXJzaW9uEgNnZXQaCAgAEgAaACAAGgAiAA==';
/** `auth can-i --list -n batch`. */
const CAN_I_LIST = 'azhzAAoxChdhdXRob3JpemF0aW9uLms4cy5pby92MRIWU2VsZlN1YmplY3RSdWxlc1JldmlldxIhChAKABIAGgAiACoAMgA4AEIAEgcKBWJhdGNoGgQYACIAGgAiAA==';

const REVIEW_KINDS = ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] as const;
const deps = { now: () => Date.parse('2026-11-29T00:00:00Z') } as unknown as KubeDeps;
const REVIEWS = '/k8s/clusters/prod-eu-1/apis/authorization.k8s.io/v1/';

async function post(resource: string, body: Uint8Array | string, contentType: string, method = 'POST') {
  const response = await serveKube({ method, path: `${REVIEWS}${resource}`, rawQuery: '', headers: { 'content-type': contentType }, body: typeof body === 'string' ? Buffer.from(body) : body }, deps, AWS_LIMITS);
  if (!('body' in response)) throw new Error('a review is never a watch');
  return { status: response.status, body: JSON.parse(response.body) as Record<string, any> };
}
const access = (resourceAttributes: Record<string, string>) => JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } });

describe('a SelfSubjectAccessReview, as kubectl auth can-i sends it (protobuf)', () => {
  it('allows a read of a resource jobfold serves, echoing what was asked', async () => {
    const answer = await post('selfsubjectaccessreviews', Buffer.from(CAN_I_LIST_JOBS, 'base64'), PROTOBUF);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'batch', verb: 'list', group: 'batch', resource: 'jobs' } },
      status: { allowed: true, reason: 'jobfold serves jobs.batch for get, list, watch, read-only' },
    });
  });

  it('refuses a write, saying where to make it', async () => {
    const answer = await post('selfsubjectaccessreviews', Buffer.from(CAN_I_DELETE_JOBS, 'base64'), PROTOBUF);
    expect(answer.body['status']).toMatchObject({ allowed: false, denied: true, reason: expect.stringMatching(/^jobfold is read-only: .*to delete them, use the cluster's own API server/) });
  });

  it('takes a resource kubectl could not resolve as it was typed, and serves no such resource', async () => {
    const answer = await post('selfsubjectaccessreviews', Buffer.from(CAN_I_LIST_UNRESOLVED, 'base64'), PROTOBUF);
    expect(answer.body['spec']).toEqual({ resourceAttributes: { namespace: 'batch', verb: 'list', resource: 'jobs.batch' } });
    expect(answer.body['status']).toMatchObject({ allowed: false, reason: expect.stringMatching(/^jobfold serves no jobs\.batch/) });
  });

  it('refuses a pod\'s logs, saying which context has them', async () => {
    const answer = await post('selfsubjectaccessreviews', Buffer.from(CAN_I_GET_LOG, 'base64'), PROTOBUF);
    expect(answer.body['status']).toEqual({ allowed: false, denied: true, reason: "jobfold keeps no container logs: for pods/log, use the cluster's own API server (your kubectl context for prod-eu-1, not jobfold-prod-eu-1)" });
  });

  it('allows get of the version, a path outside the resources', async () => {
    const answer = await post('selfsubjectaccessreviews', Buffer.from(CAN_I_GET_VERSION, 'base64'), PROTOBUF);
    expect(answer.body['spec']).toEqual({ nonResourceAttributes: { path: '/version', verb: 'get' } });
    expect(answer.body['status']).toMatchObject({ allowed: true });
  });

  it('lists the rules of a SelfSubjectRulesReview: each resource with its read verbs', async () => {
    const answer = await post('selfsubjectrulesreviews', Buffer.from(CAN_I_LIST, 'base64'), PROTOBUF);
    expect(answer.status).toBe(201);
    expect(answer.body['spec']).toEqual({ namespace: 'batch' });
    expect(answer.body['status'].incomplete).toBe(false);
    expect(answer.body['status'].resourceRules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: ['batch'], resources: ['jobs', 'jobs/status'] });
    expect(answer.body['status'].resourceRules.flatMap((r: { verbs: string[] }) => r.verbs)).not.toContain('delete');
  });
});

describe('a SelfSubjectAccessReview in JSON', () => {
  it.each([
    [{ verb: 'watch', group: 'batch', resource: 'jobs' }, true, /^jobfold serves jobs\.batch for get, list, watch, read-only$/],
    [{ verb: 'get', group: 'jobset.x-k8s.io', version: 'v1alpha2', resource: 'jobsets', subresource: 'status' }, true, /^jobfold serves jobsets/],
    [{ verb: 'delete', group: 'batch', resource: 'jobs', name: 'train' }, false, /^jobfold is read-only: it serves jobs\.batch for get, list, watch; to delete them, use the cluster's own API server \(your kubectl context for prod-eu-1, not jobfold-prod-eu-1\)$/],
    [{ verb: 'watch', resource: 'namespaces' }, true, /^jobfold serves namespaces for get, list, watch, read-only$/],
    [{ verb: 'create', resource: 'namespaces' }, false, /^jobfold is read-only: it serves namespaces for get, list, watch; to create them/],
    [{ verb: 'create', resource: 'pods', subresource: 'exec', name: 'p' }, false, /^jobfold reaches into no container/],
    [{ verb: 'list', group: 'apps', resource: 'deployments' }, false, /^jobfold serves no deployments\.apps/],
    [{ verb: '*', group: '*', resource: '*' }, false, /^jobfold is read-only and serves only pods, events, namespaces, jobs, jobsets/],
    [{ verb: 'list', group: 'batch', version: 'v2', resource: 'jobs' }, false, /^jobfold serves no jobs\.batch \(batch\/v2\)/],
  ])('answers %j: allowed %s', async (attributes, allowed, reason) => {
    const answer = await post('selfsubjectaccessreviews', access(attributes), 'application/json');
    expect(answer.status).toBe(201);
    expect(answer.body['status']).toMatchObject({ allowed, reason: expect.stringMatching(reason) });
  });
});

describe('a review the API cannot read', () => {
  const protobuf = Buffer.from(CAN_I_LIST_JOBS, 'base64');
  it.each([
    ['protobuf cut short', protobuf.subarray(0, 60), PROTOBUF, 400, /cannot be handled as a SelfSubjectAccessReview: field \d+ is \d+ bytes long, past the end of its message/],
    ['protobuf without its magic', protobuf.subarray(4), PROTOBUF, 400, /does not start with the Kubernetes protobuf magic/],
    ['a varint that never ends', Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.alloc(20, 0xff)]), PROTOBUF, 400, /varint/],
    ['a protobuf verb that is not UTF-8', Buffer.from(CAN_I_LIST_JOBS, 'base64').map((byte, i, all) => (all.subarray(i, i + 4).toString('latin1') === 'list' ? 0xff : byte)), PROTOBUF, 400, /field 2 is not UTF-8/],
    ['JSON that is not JSON', '{"spec":', 'application/json', 400, /the body is not JSON/],
    ['a verb that is a number', '{"spec":{"resourceAttributes":{"verb":7}}}', 'application/json', 400, /spec\.resourceAttributes\.verb: .*expected string/],
    ['both kinds of attributes', '{"spec":{"resourceAttributes":{"verb":"get"},"nonResourceAttributes":{"path":"/"}}}', 'application/json', 422, /spec\.nonResourceAttributes: Invalid value: "object": cannot be specified in combination with resourceAttributes/],
    ['neither kind of attributes', '{"spec":{}}', 'application/json', 422, /spec\.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified/],
    ['another kind', '{"kind":"SubjectAccessReview","spec":{}}', 'application/json', 400, /kind: /],
    ['YAML', 'spec: {}', 'application/yaml', 415, /accepted media types include: application\/json, application\/vnd\.kubernetes\.protobuf/],
    ['a body of 100 KB', JSON.stringify({ spec: { resourceAttributes: { verb: 'x'.repeat(100_000) } } }), 'application/json', 413, /a SelfSubjectAccessReview is at most 65536/],
  ])('refuses %s', async (_name, body, type, code, message) => {
    const answer = await post('selfsubjectaccessreviews', body, type);
    expect(answer.status).toBe(code);
    expect(answer.body).toMatchObject({ kind: 'Status', code, message: expect.stringMatching(message) });
  });

  it('answers a GET of the reviews 405: a review is created, never read', async () => {
    const answer = await post('selfsubjectaccessreviews', '', 'application/json', 'GET');
    expect(answer.status).toBe(405);
    expect(answer.body['message']).toMatch(/a review is created \(POST\), never read/);
  });
});

describe('any body at all', () => {
  it('is answered 201 or a 4xx Status, never a 5xx nor a throw: protobuf mutated, cut, random; JSON of any shape', async () => {
    const captured = [CAN_I_LIST_JOBS, CAN_I_DELETE_JOBS, CAN_I_GET_LOG, CAN_I_GET_VERSION, CAN_I_LIST].map((b) => Buffer.from(b, 'base64'));
    const mutated = fc.tuple(fc.constantFrom(...captured), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), fc.nat())
      .map(([body, edits, cut]) => {
        const copy = Buffer.from(body);
        for (const [at, byte] of edits) copy[at % copy.length] = byte;
        return copy.subarray(0, Math.max(4, copy.length - (cut % 8)));
      });
    const bodies = fc.oneof(
      mutated.map((body) => ({ body, type: PROTOBUF })),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ body: Buffer.concat([Buffer.from('k8s\0', 'latin1'), bytes]), type: PROTOBUF })),
      fc.json().map((text) => ({ body: Buffer.from(text), type: 'application/json' })),
      fc.jsonValue().map((spec) => ({ body: Buffer.from(JSON.stringify({ spec })), type: 'application/json' })),
    );
    await fc.assert(fc.asyncProperty(bodies, fc.constantFrom(...REVIEW_KINDS), async ({ body, type }, resource) => {
      const answer = await post(resource, body, type);
      expect(answer.status === 201 || (answer.status >= 400 && answer.status < 500), JSON.stringify(answer.body).slice(0, 300)).toBe(true);
      if (answer.status !== 201) expect(answer.body).toMatchObject({ kind: 'Status', message: expect.any(String) });
    }), { numRuns: 500 });
  });
});
