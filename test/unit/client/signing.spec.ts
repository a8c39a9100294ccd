import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiError, isLocal, regionOf, resolveEndpoint } from '../../../cli/client/api-client.ts';
import { whatIfFleetPage, whatIfRemote } from '../../../cli/whatif/whatif-remote.ts';

// Given a deployed endpoint (any host but the local stack's), the client signs with the SDK's
// SigV4 signer and the credentials of the standard chain (here: the environment).

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' };
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

/** A server on 127.0.0.2 (loopback, but not the local stack's address) that records headers. */
async function recordingServer(): Promise<{ url: URL; seen: IncomingHttpHeaders[]; close: () => void }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.setHeader('content-type', 'application/json').end(request.url === '/prod/v1/jobs?limit=5' ? '{"items":[]}' : '{"message":"no"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  return { url: new URL(`http://127.0.0.2:${(server.address() as AddressInfo).port}/prod`), seen, close: () => server.close() };
}

describe('the API client', () => {
  it('calls the local stack unsigned and anything else signed for execute-api', async () => {
    Object.assign(process.env, CREDENTIALS, { AWS_REGION: 'eu-west-1' });
    const server = await recordingServer();
    try {
      const body = await new ApiClient(server.url).get('/v1/jobs', { limit: '5' });

      expect(body).toEqual({ items: [] });
      const headers = server.seen[0]!;
      expect(headers['authorization']).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/execute-api\/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
      );
      expect(headers['x-amz-security-token']).toBe('token');
    } finally {
      server.close();
    }
    expect(isLocal(new URL('http://127.0.0.1:3000'))).toBe(true);
    expect(isLocal(new URL('http://localhost:3000'))).toBe(true);
  });

  it('signs the what-if calls too (jobfold whatif and audit use the same client)', async () => {
    Object.assign(process.env, CREDENTIALS, { AWS_REGION: 'eu-west-1' });
    const server = await recordingServer();
    try {
      await whatIfFleetPage(server.url.href, { patch: {} });
      await whatIfRemote(server.url.href, { objectKind: 'Job', cluster: 'c', namespace: 'n', name: 'j' }, {});
      expect(server.seen.map((h) => h['authorization']?.split(' ')[0])).toEqual(['AWS4-HMAC-SHA256', 'AWS4-HMAC-SHA256']);
    } finally {
      server.close();
    }
  });

  it('names the region of an execute-api host, else needs AWS_REGION', () => {
    expect(regionOf(new URL('https://abc.execute-api.ap-south-2.amazonaws.com/prod'), {})).toBe('ap-south-2');
    expect(() => regionOf(new URL('https://api.example.com'), {})).toThrow('set AWS_REGION');
  });

  it('takes --endpoint over JOBFOLD_ENDPOINT over the local default, and refuses what is no http(s) URL', () => {
    expect(resolveEndpoint(undefined, {}).href).toBe('http://127.0.0.1:3000/');
    expect(resolveEndpoint(undefined, { JOBFOLD_ENDPOINT: 'https://x.example/' }).href).toBe('https://x.example/');
    expect(resolveEndpoint('http://h:1', { JOBFOLD_ENDPOINT: 'https://x.example/' }).href).toBe('http://h:1/');
    expect(() => resolveEndpoint('ftp://x', {})).toThrow(ApiError);
    expect(() => resolveEndpoint('not a url', {})).toThrow('--endpoint: not a URL');
  });
});
